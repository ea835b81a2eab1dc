-- Order, event, customer and saved-card times come from the application's clock, like payment times: no
-- database default remains to mix the database's now() into one order's timeline. An insert that forgets a
-- time now fails instead of silently using another clock.
ALTER TABLE customers ALTER COLUMN created_at DROP DEFAULT;
ALTER TABLE orders ALTER COLUMN created_at DROP DEFAULT;
ALTER TABLE orders ALTER COLUMN updated_at DROP DEFAULT;
ALTER TABLE order_payments ALTER COLUMN created_at DROP DEFAULT;
ALTER TABLE order_payments ALTER COLUMN updated_at DROP DEFAULT;
ALTER TABLE order_events ALTER COLUMN created_at DROP DEFAULT;
ALTER TABLE saved_cards ALTER COLUMN created_at DROP DEFAULT;

-- The timed work finds open attempts by stage: 3-D Secure left unfinished, attempts stuck in processing.
CREATE INDEX order_payments_open_by_stage ON order_payments (stage, updated_at) WHERE status_id = 2;
