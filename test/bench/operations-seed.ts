/**
 * A merchant's history at scale for the operations benchmark: `count` orders shared by two merchants in test mode,
 * a year of them, one every few seconds, with the mix a Nigerian merchant sees (nine in ten NGN, a third paid by
 * transfer, most paid, some declined, expired, reversed, under- and overpaid, one in twenty never tried). Each
 * order has its own customer row as the checkout writes them, with e-mails and phones that repeat (returning
 * customers), and one attempt (or none). Written with set-based SQL, each order then summarised by the same
 * function the triggers call (migration 015), then analysed.
 */
export function seedSql(count: number, merchants: [number, number]): string {
  const [first, second] = merchants;
  return `
-- The summaries are written once per order at the end (the function the triggers call), not once per inserted row.
ALTER TABLE orders DISABLE TRIGGER orders_summarised;
ALTER TABLE order_payments DISABLE TRIGGER order_payments_summarised;
INSERT INTO customers (id, merchant_id, mode, email, first_name, last_name, mobile, country, created_at)
SELECT g, CASE WHEN g % 2 = 0 THEN ${first} ELSE ${second} END, 'test',
       CASE WHEN g % 7 = 0 THEN NULL ELSE 'customer' || (g % 40000) || '@example.test' END,
       'Ada', 'Customer ' || (g % 40000), '+23480' || lpad((g % 90000)::text, 8, '0'), 'NG',
       now() - (${count} - g) * interval '30 seconds'
  FROM generate_series(1, ${count}) AS g;
SELECT setval(pg_get_serial_sequence('customers', 'id'), (SELECT max(id) FROM customers));

INSERT INTO orders (id, merchant_id, mode, reference, processor_reference, customer_id, amount_minor, currency, description, items,
                    fee_rules, status_id, created_at, updated_at, created_by)
SELECT g, CASE WHEN g % 2 = 0 THEN ${first} ELSE ${second} END, 'test', 'ORD-' || lpad(g::text, 8, '0'), 'PRC-' || g, g,
       100000 + (g * 7919) % 50000000, CASE WHEN g % 10 = 0 THEN 'USD' ELSE 'NGN' END, 'Order ' || g, '[]'::jsonb, '[]'::jsonb,
       CASE WHEN g % 20 IN (12, 13, 14) THEN 4 WHEN g % 20 = 15 THEN 6 WHEN g % 20 IN (16, 17) THEN 2 WHEN g % 20 = 19 THEN 1 ELSE 5 END,
       now() - (${count} - g) * interval '30 seconds', now() - (${count} - g) * interval '30 seconds',
       CASE WHEN g % 5 = 0 THEN 'server' ELSE 'browser' END
  FROM generate_series(1, ${count}) AS g;
SELECT setval(pg_get_serial_sequence('orders', 'id'), (SELECT max(id) FROM orders));

INSERT INTO order_payments (order_id, reference, payment_option, status_id, stage, response_code, response_message, remarks, amount_minor,
                            fee_minor, customer_fee_minor, subsidiary_fee_minor, total_minor, fee_rate, card_brand, card_last4,
                            transfer_account, transfer_bank, received_minor, excess_minor, reason, created_at, updated_at)
SELECT o.id, 'PAY' || lpad(o.id::text, 12, '0'), method, o.status_id,
       CASE WHEN o.status_id = 2 THEN 'transfer' ELSE 'done' END,
       CASE WHEN o.status_id IN (5, 6) THEN '00' WHEN o.status_id = 2 THEN '02' WHEN o.id % 20 = 14 THEN '04' ELSE '51' END,
       'seeded', '', o.amount_minor, o.amount_minor / 200, CASE WHEN method = 'C' THEN o.amount_minor / 200 ELSE 0 END,
       CASE WHEN method = 'C' THEN 0 ELSE o.amount_minor / 200 END, o.amount_minor, 0.005,
       CASE WHEN method = 'C' THEN 'Mastercard' END, CASE WHEN method = 'C' THEN lpad((o.id % 10000)::text, 4, '0') END,
       CASE WHEN method = 'bank-transfer' THEN lpad(o.id::text, 10, '0') END, CASE WHEN method = 'bank-transfer' THEN 'Sandbox Bank' END,
       CASE WHEN method <> 'bank-transfer' THEN 0 WHEN o.id % 20 = 17 THEN o.amount_minor / 2 WHEN o.id % 20 = 18 THEN o.amount_minor + 5000
            WHEN o.status_id = 5 THEN o.amount_minor ELSE 0 END,
       CASE WHEN method = 'bank-transfer' AND o.id % 20 = 18 THEN 5000 ELSE 0 END,
       CASE WHEN o.status_id <> 4 THEN NULL WHEN o.id % 20 = 14 THEN 'account-expired' ELSE 'declined' END,
       o.created_at, o.created_at
  FROM (SELECT o.*, CASE WHEN o.id % 3 = 0 OR o.id % 20 IN (14, 16, 17, 18) THEN 'bank-transfer' ELSE 'C' END AS method
          FROM orders o WHERE o.id % 20 <> 19 AND o.currency = 'NGN' OR (o.currency = 'USD' AND o.id % 20 <> 19)) AS o
 WHERE o.currency = 'NGN' OR o.method = 'C';
DO $do$ BEGIN PERFORM checkout_summarise_order(id) FROM orders; END $do$;
ALTER TABLE orders ENABLE TRIGGER orders_summarised;
ALTER TABLE order_payments ENABLE TRIGGER order_payments_summarised;
ANALYZE customers; ANALYZE orders; ANALYZE order_payments; ANALYZE order_summaries;
`;
}
