-- The merchant's operations API: lists newest first by keyset, filtered by what a merchant reads of an order (its
-- state and method), and one search box whose every way of matching descends an index.

-- An order as the lists read it: its state (its status refined by its last attempt: the successful one once
-- paid, else the latest), that attempt's method, and what lists filter on, kept by triggers in the transaction
-- of every change to the order or its attempts, so a list filters and pages through one index whatever the
-- state. `checkout_summarise_order` is the one definition of an order's state.
CREATE TABLE order_summaries (
  order_id        integer PRIMARY KEY REFERENCES orders(id),
  merchant_id     integer NOT NULL,
  mode            text NOT NULL,
  created_at      timestamptz NOT NULL,
  currency        char(3) NOT NULL,
  amount_minor    bigint NOT NULL,
  state           text NOT NULL CHECK (state IN ('pending', 'processing', 'awaiting_transfer', 'underpaid', 'paid', 'overpaid', 'failed', 'expired', 'reversed')),
  method          text CHECK (method IN ('C', 'bank-transfer')),
  payment_id      integer REFERENCES order_payments(id)
);
CREATE INDEX order_summaries_newest ON order_summaries (merchant_id, mode, created_at DESC, order_id DESC);
CREATE INDEX order_summaries_by_state ON order_summaries (merchant_id, mode, state, created_at DESC, order_id DESC);
CREATE INDEX order_summaries_by_method ON order_summaries (merchant_id, mode, method, created_at DESC, order_id DESC);
CREATE INDEX order_summaries_by_currency ON order_summaries (merchant_id, mode, currency, created_at DESC, order_id DESC);

CREATE FUNCTION checkout_summarise_order(target integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Waits for any other transaction summarising this order; the statement below then reads what it committed.
  PERFORM 1 FROM order_summaries WHERE order_id = target FOR UPDATE;
  INSERT INTO order_summaries (order_id, merchant_id, mode, created_at, currency, amount_minor, state, method, payment_id)
  SELECT o.id, o.merchant_id, o.mode, o.created_at, o.currency, o.amount_minor,
         CASE
           WHEN o.status_id = 6 THEN 'reversed'
           WHEN o.status_id = 5 THEN CASE WHEN p.excess_minor > 0 THEN 'overpaid' ELSE 'paid' END
           WHEN p.id IS NULL THEN 'pending'
           WHEN p.stage = 'transfer' THEN CASE WHEN p.received_minor > 0 THEN 'underpaid' ELSE 'awaiting_transfer' END
           WHEN p.status_id = 2 THEN 'processing'
           WHEN p.received_minor > 0 THEN 'underpaid'
           WHEN p.reason IN ('account-expired', 'authentication-expired') THEN 'expired'
           WHEN p.status_id = 4 THEN 'failed'
           ELSE 'pending'
         END,
         p.payment_option, p.id
    FROM orders o
    LEFT JOIN LATERAL (
      SELECT lp.id, lp.payment_option, lp.status_id, lp.stage, lp.received_minor, lp.excess_minor, lp.reason
        FROM order_payments lp WHERE lp.order_id = o.id ORDER BY lp.status_id = 5 DESC, lp.id DESC LIMIT 1
    ) p ON true
   WHERE o.id = target
  ON CONFLICT (order_id) DO UPDATE
    SET state = EXCLUDED.state, method = EXCLUDED.method, payment_id = EXCLUDED.payment_id,
        amount_minor = EXCLUDED.amount_minor, currency = EXCLUDED.currency;
END;
$$;

CREATE FUNCTION checkout_order_summary_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'orders' THEN
    PERFORM checkout_summarise_order(NEW.id);
  ELSE
    PERFORM checkout_summarise_order(NEW.order_id);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER orders_summarised AFTER INSERT OR UPDATE OF status_id, amount_minor ON orders
  FOR EACH ROW EXECUTE FUNCTION checkout_order_summary_changed();
CREATE TRIGGER order_payments_summarised AFTER INSERT OR UPDATE OF status_id, stage, received_minor, excess_minor, reason ON order_payments
  FOR EACH ROW EXECUTE FUNCTION checkout_order_summary_changed();

-- The orders that exist already.
SELECT checkout_summarise_order(id) FROM orders;

-- A link's, a subscription's and a customer's orders.
CREATE INDEX orders_by_link ON orders (payment_link_id) WHERE payment_link_id IS NOT NULL;
CREATE INDEX orders_by_customer ON orders (customer_id);

-- Search. Prefix matches (`LIKE 'abc%'`) use text_pattern_ops, which compares bytes and so serves LIKE whatever the
-- database's collation; a card's last four is matched exactly.
CREATE INDEX orders_reference_prefix ON orders (merchant_id, mode, reference text_pattern_ops);
CREATE INDEX order_payments_reference_prefix ON order_payments (reference text_pattern_ops);
CREATE INDEX order_payments_card_last4 ON order_payments (card_last4) WHERE card_last4 IS NOT NULL;
CREATE INDEX order_payments_transfer_account_prefix ON order_payments ((transfer_account::text) text_pattern_ops) WHERE transfer_account IS NOT NULL;
CREATE INDEX customers_email_prefix ON customers (merchant_id, mode, lower(email) text_pattern_ops);
CREATE INDEX customers_mobile_prefix ON customers (merchant_id, mode, mobile text_pattern_ops);
CREATE INDEX payment_links_reference_prefix ON payment_links (reference text_pattern_ops);

-- Refunds newest first (their order names the merchant).
CREATE INDEX refunds_newest ON refunds (created_at DESC, id DESC);
