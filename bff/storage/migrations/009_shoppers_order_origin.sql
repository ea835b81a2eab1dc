-- Customers the merchant vouches for, saved cards bound to them, orders that keep their own customer details,
-- and the order's origin (the merchant's server or a browser), each with its own reference space.

-- A shopper is a customer record the merchant's server names with the secret key (its own customer id). Saved
-- cards belong to shoppers, never to an e-mail address that anyone can type.
CREATE TABLE shoppers (
  id              serial PRIMARY KEY,
  merchant_id     integer NOT NULL REFERENCES merchants(id),
  mode            text NOT NULL CHECK (mode IN ('test', 'live')),
  reference       text NOT NULL,
  created_at      timestamptz NOT NULL,
  UNIQUE (merchant_id, mode, reference)
);

-- Cards saved before shoppers existed were bound only to an e-mail address: nobody can be shown them safely.
DELETE FROM saved_cards;
ALTER TABLE saved_cards DROP COLUMN customer_id;
ALTER TABLE saved_cards ADD COLUMN shopper_id integer NOT NULL REFERENCES shoppers(id);
ALTER TABLE saved_cards ADD CONSTRAINT saved_cards_one_per_card UNIQUE (shopper_id, first6, last4, expiry);

-- Each order keeps the customer details it was created with: a later order with the same e-mail (or, without
-- one, the same mobile number) adds a row.
ALTER TABLE customers DROP CONSTRAINT customers_merchant_id_mode_email_key;
DROP INDEX customers_by_mobile;

ALTER TABLE orders ADD COLUMN shopper_id integer REFERENCES shoppers(id);
ALTER TABLE orders ADD COLUMN created_by text NOT NULL DEFAULT 'browser' CHECK (created_by IN ('server', 'browser'));
ALTER TABLE orders ALTER COLUMN created_by DROP DEFAULT;
-- A browser never takes a reference from the merchant's server: each origin has its own reference space.
ALTER TABLE orders DROP CONSTRAINT orders_merchant_id_mode_reference_key;
ALTER TABLE orders ADD CONSTRAINT orders_reference_per_origin UNIQUE (merchant_id, mode, created_by, reference);
