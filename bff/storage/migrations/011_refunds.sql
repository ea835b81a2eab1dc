-- Refunds (issue 15, item 4): money sent back to the customer from one order payment, in full or in part. The
-- amounts of an order's refunds that succeeded or are still being processed never exceed what that payment took
-- (the service checks it under the order's row lock). The sandbox acquirer keeps its own book of refunds, as it
-- does of charges, so a lost answer can be asked about again.

CREATE TABLE refunds (
  id              serial PRIMARY KEY,
  -- The merchant-facing handle (`RFD...`) and the processor's key for the refund (`lookupRefund`).
  reference       text NOT NULL UNIQUE,
  order_id        integer NOT NULL REFERENCES orders(id),
  -- The attempt whose money goes back: the successful payment, or one whose money was recorded for refund.
  payment_id      integer NOT NULL REFERENCES order_payments(id),
  amount_minor    bigint NOT NULL CHECK (amount_minor > 0),
  currency        char(3) NOT NULL,
  -- The merchant's reason, at most 255 characters, card-like numbers masked before it is stored.
  reason          text CHECK (char_length(reason) <= 255),
  -- 'processing' from before the processor is asked until it answers (a lost answer stays here: the
  -- `refund.requery` job asks the processor's record); then 'succeeded' or 'failed', once.
  state           text NOT NULL CHECK (state IN ('processing', 'succeeded', 'failed')),
  response_code   text,
  response_message text,
  -- The processor's own reference for the refund, once it gave one.
  processor_reference text,
  processor       text NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  completed_at    timestamptz
);
CREATE INDEX refunds_order ON refunds (order_id, id);
CREATE INDEX refunds_payment ON refunds (payment_id) WHERE state IN ('processing', 'succeeded');

CREATE TABLE sandbox_refunds (
  reference       text PRIMARY KEY,
  charge_reference text NOT NULL,
  state           text NOT NULL CHECK (state IN ('succeeded', 'failed')),
  code            text NOT NULL,
  amount_minor    bigint NOT NULL,
  currency        char(3) NOT NULL,
  created_at      timestamptz NOT NULL
);
