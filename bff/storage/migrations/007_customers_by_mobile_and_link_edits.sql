-- A customer is reached by e-mail or by mobile number (protocol.md 4.9): the gateway's SDKs accept either.
-- Customers with an e-mail stay unique by it; customers known only by a mobile number are unique by that number.
ALTER TABLE customers ALTER COLUMN email DROP NOT NULL;
ALTER TABLE customers ADD CONSTRAINT customers_reachable CHECK (email IS NOT NULL OR mobile IS NOT NULL);
CREATE UNIQUE INDEX customers_by_mobile ON customers (merchant_id, mode, mobile) WHERE email IS NULL;
