-- Subscriptions (recurring payments): a SUB link's plan, the subscriptions its customers start, and the orders
-- that charge them period after period.

-- A SUB link's plan: how often and how many times (null: until cancelled). Other links keep both null.
ALTER TABLE payment_links ADD COLUMN frequency_id integer CHECK (frequency_id BETWEEN 1 AND 11);
ALTER TABLE payment_links ADD COLUMN number_of_payments integer CHECK (number_of_payments >= 1);

CREATE TABLE subscriptions (
  id                  serial PRIMARY KEY,
  -- The gateway's recurringPaymentReference: unguessable, as merchants and customers quote it.
  reference           text NOT NULL UNIQUE,
  merchant_id         integer NOT NULL REFERENCES merchants(id),
  mode                text NOT NULL CHECK (mode IN ('test', 'live')),
  payment_link_id     integer REFERENCES payment_links(id),
  -- The order whose first charge (with 3-D Secure) started it: one subscription per order.
  first_order_id      integer NOT NULL UNIQUE REFERENCES orders(id),
  customer_id         integer NOT NULL REFERENCES customers(id),
  shopper_id          integer REFERENCES shoppers(id),
  -- The processor's token of the card, kept for this subscription only (never offered as a saved card).
  card_token          text NOT NULL,
  card_label          text,
  amount_minor        bigint NOT NULL,
  currency            char(3) NOT NULL,
  frequency_id        integer NOT NULL CHECK (frequency_id BETWEEN 1 AND 11),
  period_hours        integer NOT NULL CHECK (period_hours > 0),
  -- How many payments in all (the first included); null: until cancelled.
  payments_total      integer CHECK (payments_total >= 1),
  payments_made       integer NOT NULL DEFAULT 1,
  -- Period n is due at anchor_at + (n - 1) * period_hours; next_period is the first not yet paid.
  anchor_at           timestamptz NOT NULL,
  next_period         integer NOT NULL DEFAULT 2,
  -- When the next charge (or the next retry of a declined one) runs.
  next_due_at         timestamptz,
  -- Declined charges of next_period in a row; after the retries run out the subscription is past due.
  failures            integer NOT NULL DEFAULT 0,
  state               text NOT NULL CHECK (state IN ('active', 'past_due', 'cancelled', 'completed')),
  created_at          timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL,
  ended_at            timestamptz
);
CREATE INDEX subscriptions_by_link ON subscriptions (payment_link_id, id);
CREATE INDEX subscriptions_by_merchant ON subscriptions (merchant_id, mode, id);

-- Every order of a subscription names it; a recurring charge's order also names its period. One order per period,
-- whatever the processes and restarts: the last line of defence against charging a period twice (retries of a
-- declined period are new attempts on that one order, which is paid at most once).
ALTER TABLE orders ADD COLUMN subscription_id integer REFERENCES subscriptions(id);
ALTER TABLE orders ADD COLUMN recurring_period integer CHECK (recurring_period >= 2);
ALTER TABLE orders ADD CONSTRAINT orders_one_per_subscription_period UNIQUE (subscription_id, recurring_period);

-- The sandbox: how many merchant-initiated charges a test card's token approves before it declines (null: all).
ALTER TABLE sandbox_charges ADD COLUMN recurring_approvals integer;
ALTER TABLE sandbox_cards ADD COLUMN recurring_approvals integer;
