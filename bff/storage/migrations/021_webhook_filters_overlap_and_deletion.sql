-- Webhook endpoints as the dashboard manages them (issue 31 item 7, issue 32 item 7): the event types an endpoint
-- receives (null: every type), the secret before the last rotation with the time until which it still signs (a second
-- v1 entry), and deletion, which keeps the endpoint's row for its deliveries' log but takes it out of every list.
ALTER TABLE webhook_endpoints ADD COLUMN event_types text[];
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_sealed bytea;
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_until timestamptz;
ALTER TABLE webhook_endpoints ADD COLUMN deleted_at timestamptz;
