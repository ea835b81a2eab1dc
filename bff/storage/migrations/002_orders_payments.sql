-- Customers, orders, order payments (card and bank transfer), the order timeline and saved cards.

CREATE TABLE customers (
  id              serial PRIMARY KEY,
  merchant_id     integer NOT NULL REFERENCES merchants(id),
  mode            text NOT NULL CHECK (mode IN ('test', 'live')),
  email           text NOT NULL,
  first_name      text NOT NULL,
  last_name       text NOT NULL,
  mobile          text,
  country         char(2),
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (merchant_id, mode, email)
);

CREATE TABLE orders (
  id              serial PRIMARY KEY,
  merchant_id     integer NOT NULL REFERENCES merchants(id),
  mode            text NOT NULL CHECK (mode IN ('test', 'live')),
  reference       text NOT NULL,
  processor_reference text NOT NULL UNIQUE,
  customer_id     integer NOT NULL REFERENCES customers(id),
  amount_minor    bigint NOT NULL CHECK (amount_minor > 0),
  currency        char(3) NOT NULL,
  description     text,
  items           jsonb NOT NULL,
  redirect_url    text,
  payment_link_id integer REFERENCES payment_links(id),
  frequency_id    integer CHECK (frequency_id BETWEEN 1 AND 11),
  number_of_payments integer,
  auth_option     text NOT NULL DEFAULT 'NOAUTH' CHECK (auth_option IN ('AUTH', 'NOAUTH')),
  fee_rules       jsonb NOT NULL,
  payment_meta    jsonb,
  status_id       smallint NOT NULL DEFAULT 1 CHECK (status_id IN (1, 2, 4, 5, 6)),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  -- The merchant's own reference is unique per merchant and mode.
  UNIQUE (merchant_id, mode, reference)
);

CREATE TABLE order_payments (
  id              serial PRIMARY KEY,
  order_id        integer NOT NULL REFERENCES orders(id),
  reference       text NOT NULL UNIQUE,
  payment_option  text NOT NULL CHECK (payment_option IN ('C', 'bank-transfer')),
  status_id       smallint NOT NULL CHECK (status_id IN (1, 2, 4, 5, 6)),
  -- 'processing' while the processor is being asked; 'authentication' while 3-D Secure waits; 'transfer' while money is awaited.
  stage           text NOT NULL CHECK (stage IN ('processing', 'authentication', 'transfer', 'done')),
  response_code   text NOT NULL,
  response_message text NOT NULL,
  remarks         text NOT NULL,
  amount_minor    bigint NOT NULL,
  fee_minor       bigint NOT NULL,
  customer_fee_minor bigint NOT NULL,
  subsidiary_fee_minor bigint NOT NULL,
  total_minor     bigint NOT NULL,
  fee_rate        numeric NOT NULL,
  instrument      text,
  card_brand      text,
  card_first6     char(6),
  card_last4      char(4),
  card_expiry     text,
  save_card       boolean NOT NULL DEFAULT false,
  auth_session    text,
  auth_attempts   integer NOT NULL DEFAULT 0,
  transfer_account char(10) UNIQUE,
  transfer_bank   text,
  transfer_expires_at timestamptz,
  received_minor  bigint NOT NULL DEFAULT 0,
  excess_minor    bigint NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  confirmed_at    timestamptz
);
CREATE INDEX order_payments_order ON order_payments (order_id, id);
-- The last line of defence for "an order is paid at most once", whatever the concurrency.
CREATE UNIQUE INDEX order_payments_one_success ON order_payments (order_id) WHERE status_id = 5;
CREATE INDEX order_payments_transfer_expiry ON order_payments (transfer_expires_at) WHERE stage = 'transfer';

CREATE TABLE order_events (
  id              serial PRIMARY KEY,
  order_id        integer NOT NULL REFERENCES orders(id),
  name            text NOT NULL,
  source          text NOT NULL CHECK (source IN ('client', 'system')),
  detail          jsonb,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_events_order ON order_events (order_id, id);

CREATE TABLE saved_cards (
  id              serial PRIMARY KEY,
  customer_id     integer NOT NULL REFERENCES customers(id),
  token           text NOT NULL UNIQUE,
  brand           text NOT NULL,
  first6          char(6) NOT NULL,
  last4           char(4) NOT NULL,
  expiry          text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (customer_id, first6, last4, expiry)
);
