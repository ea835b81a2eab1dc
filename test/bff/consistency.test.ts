import { beforeAll, describe, expect, it } from 'vitest';
import { drivers, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { consistencyFindings } from '../support/consistency.ts';
import { createMerchant } from '../support/merchant.ts';

/**
 * The check that fuzz and chaos run over stored data (test/support/consistency.ts) finds what it is there to find:
 * a row the lifecycle does not allow, an order disagreeing with its attempts, a second successful payment, an open
 * attempt whose job is gone.
 */
describe.each(drivers)('the stored-data consistency check on %s', (driver) => {
  const context = useTestApp(driver);
  let client: CheckoutClient;

  beforeAll(async () => {
    client = new CheckoutClient(context.app, await createMerchant(context.app));
  });

  const idOf = async (reference: string) =>
    (await context.app.storage.query<{ id: number }>('SELECT id FROM orders WHERE reference = $1', [reference]))[0]!.id;

  it('finds nothing after ordinary payments of every kind', async () => {
    await client.payByCard(await client.newOrder(), '5555555555554444');
    await client.payByCard(await client.newOrder(), '4242424242424242');
    await client.payByCard(await client.newOrder(), '4000000000000002');
    await client.payByTransfer(await client.newOrder());
    await client.newOrder();
    expect(await consistencyFindings(context.app.storage)).toEqual([]);
  });

  it('names an open attempt whose job was lost, and an order that disagrees with its attempts', async () => {
    const storage = context.app.storage;
    const transfer = await client.newOrder();
    await client.payByTransfer(transfer);
    const payment = (await storage.query<{ id: number }>('SELECT id FROM order_payments WHERE order_id = $1', [await idOf(transfer)]))[0]!.id;
    await storage.query('DELETE FROM jobs WHERE key = $1', [`payment.expire-transfer:${payment}`]);
    const paid = await client.newOrder();
    await client.payByCard(paid, '5555555555554444');
    await storage.query('UPDATE orders SET status_id = 4 WHERE reference = $1', [paid]);

    const findings = await consistencyFindings(storage);
    expect(findings).toContain(`open payment ${payment} (transfer) has no pending payment.expire-transfer job`);
    expect(findings).toContain(`order ${await idOf(paid)} (${paid}) is Failed with 0 open, 1 successful and 1 attempts`);
  });

  it('names a payment in no lifecycle state', async () => {
    const storage = context.app.storage;
    const reference = await client.newOrder();
    await client.payByCard(reference, '4000000000000002');
    const payment = (await storage.query<{ id: number }>('SELECT id FROM order_payments WHERE order_id = $1', [await idOf(reference)]))[0]!.id;
    await storage.query("UPDATE order_payments SET stage = 'transfer' WHERE id = $1", [payment]);
    expect(await consistencyFindings(storage)).toContain(`payment ${payment} is in no lifecycle state (status 4, stage transfer)`);
  });
});
