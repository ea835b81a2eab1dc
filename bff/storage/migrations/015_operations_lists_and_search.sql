-- The merchant's operations API: lists newest first by keyset, and one search box whose every way of matching
-- descends an index. Prefix matches (`LIKE 'abc%'`) use text_pattern_ops, which compares bytes and so serves LIKE
-- whatever the database's collation; a card's last four is matched exactly.

-- Lists: a merchant's orders in one mode, newest first, and the same within a state.
CREATE INDEX orders_newest ON orders (merchant_id, mode, created_at DESC, id DESC);
CREATE INDEX orders_newest_by_status ON orders (merchant_id, mode, status_id, created_at DESC, id DESC);
CREATE INDEX orders_by_link ON orders (payment_link_id, created_at DESC, id DESC) WHERE payment_link_id IS NOT NULL;
CREATE INDEX orders_by_customer ON orders (customer_id);

-- Search.
CREATE INDEX orders_reference_prefix ON orders (merchant_id, mode, reference text_pattern_ops);
CREATE INDEX order_payments_reference_prefix ON order_payments (reference text_pattern_ops);
CREATE INDEX order_payments_card_last4 ON order_payments (card_last4) WHERE card_last4 IS NOT NULL;
CREATE INDEX order_payments_transfer_account_prefix ON order_payments ((transfer_account::text) text_pattern_ops) WHERE transfer_account IS NOT NULL;
CREATE INDEX customers_email_prefix ON customers (merchant_id, mode, lower(email) text_pattern_ops);
CREATE INDEX customers_mobile_prefix ON customers (merchant_id, mode, mobile text_pattern_ops);
CREATE INDEX payment_links_reference_prefix ON payment_links (reference text_pattern_ops);

-- Refunds newest first (their order names the merchant).
CREATE INDEX refunds_newest ON refunds (created_at DESC, id DESC);
