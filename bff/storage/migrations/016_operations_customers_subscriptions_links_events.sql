-- The operations lists of customers, subscriptions, payment links and events: newest first by keyset, each by an
-- index, and the lookups of a customer's identity across its rows (customers hold a row per order).

-- Customers: the rows of a merchant in time order (each identity is listed at its first row), and the rows of one
-- identity known by mobile alone (by e-mail: customers_email_prefix of migration 015 serves equality too).
CREATE INDEX customers_newest ON customers (merchant_id, mode, created_at DESC, id DESC);
CREATE INDEX customers_by_mobile_only ON customers (merchant_id, mode, mobile) WHERE email IS NULL;
CREATE INDEX orders_by_shopper ON orders (shopper_id) WHERE shopper_id IS NOT NULL;
CREATE INDEX subscriptions_newest ON subscriptions (merchant_id, mode, created_at DESC, id DESC);
CREATE INDEX subscriptions_by_customer ON subscriptions (customer_id);
CREATE INDEX payment_links_newest ON payment_links (merchant_id, mode, created_at DESC, id DESC);
CREATE INDEX payment_links_name_prefix ON payment_links (merchant_id, mode, lower(name) text_pattern_ops);
CREATE INDEX domain_events_newest ON domain_events (merchant_id, mode, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
