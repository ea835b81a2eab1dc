-- Every read of an order names its merchant, mode and reference, and only sometimes its origin (a server's order or a
-- browser's). With the origin before the reference in the unique key (009), such a read could not descend to the
-- reference: it walked every order of the merchant in that mode, so status, fee, pay and create cost more with
-- each order the merchant had. The same key with the reference before the origin finds an order in one descent,
-- and keeps the same rule: each origin has its own reference space.
ALTER TABLE orders DROP CONSTRAINT orders_reference_per_origin;
ALTER TABLE orders ADD CONSTRAINT orders_reference_per_origin UNIQUE (merchant_id, mode, reference, created_by);
