import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { drivers, ManualClock, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

const MINUTE = 60_000;

/** Every time an order reports comes from the app's clock, so one order's timeline is consistent. */
describe.each(drivers)('order timestamps on %s', (driver) => {
  // Years before the database's own now(): a timestamp taken from the database would stand out.
  const clock = new ManualClock(new Date('2021-03-04T10:00:00.000Z'));
  const context = useTestApp(driver, { clock });
  let app: FastifyInstance;
  let client: CheckoutClient;

  beforeAll(async () => {
    app = context.app;
    client = new CheckoutClient(app, await createMerchant(app));
  });

  it('dates creation, payment and updates by the injected clock, in order', async () => {
    const reference = await client.newOrder();
    clock.advance(MINUTE);
    expect((await client.payByCard(reference, '5555555555554444', { expiryyear: 2030 })).json().statusCode).toBe('00');
    clock.advance(MINUTE);

    const status = (await client.status(reference)).json().data;
    expect(status).toMatchObject({
      date_created: '2021-03-04T10:00:00.000',
      date_payment_confirmed: '2021-03-04T10:01:00.000',
      date_updated: '2021-03-04T10:01:00.000',
    });
    const verified = (await client.verify(reference)).json().data;
    expect(verified).toMatchObject({
      dateCreated: '2021-03-04T10:00:00.000',
      dateUpdated: '2021-03-04T10:01:00.000',
      datePaymentConfirmed: '2021-03-04T10:01:00.000',
    });

    expect((await client.track({ eventname: 'checkout-closed', orderreference: reference })).statusCode).toBe(200);
    const events = await app.storage.query<{ name: string; created_at: Date }>(
      'SELECT e.name, e.created_at FROM order_events e JOIN orders o ON o.id = e.order_id WHERE o.reference = $1 ORDER BY e.id',
      [reference],
    );
    expect(events.map((event) => [event.name, event.created_at.toISOString()])).toEqual([
      ['order-created', '2021-03-04T10:00:00.000Z'],
      ['payment-started', '2021-03-04T10:01:00.000Z'],
      ['payment-approved', '2021-03-04T10:01:00.000Z'],
      ['checkout-closed', '2021-03-04T10:02:00.000Z'],
    ]);
  });
});
