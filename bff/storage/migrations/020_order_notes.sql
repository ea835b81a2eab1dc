-- The merchant's notes on an order (issue 31, item 4): free text shown on the order's timeline. Written by the
-- merchant's server (secret key) for now; `author` names the team member once team accounts write them. Card-like
-- numbers are masked before a note is stored. The refunds list reads refunds newest first within one merchant's
-- orders: `refunds_newest` (migration 015) orders them, and `refunds_order` finds an order's.

CREATE TABLE order_notes (
  id              bigserial PRIMARY KEY,
  order_id        integer NOT NULL REFERENCES orders(id),
  text            text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 2000),
  author          text,
  created_at      timestamptz NOT NULL
);
CREATE INDEX order_notes_order ON order_notes (order_id, id);

-- The timeline finds an order's merchant events, and each event's deliveries.
-- (webhook_deliveries_event is also made by migration 016, which came first: IF NOT EXISTS keeps one.)
CREATE INDEX domain_events_order ON domain_events (order_id) WHERE order_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS webhook_deliveries_event ON webhook_deliveries (event_id);

-- Reports: successful attempts by when they were confirmed.
CREATE INDEX order_payments_confirmed ON order_payments (confirmed_at) WHERE status_id = 5;
