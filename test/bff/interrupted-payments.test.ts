import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { cleanPlace, drivers, ManualClock, newPlace, startApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

const MINUTE = 60_000;

/**
 * Pays while a database failure falls between the processor's answer and its recording, which leaves the attempt in
 * `processing`. The failure is real: for the length of the payment a trigger refuses every update that would finish
 * a payment, as a lost connection would.
 */
async function payInterrupted(app: FastifyInstance, client: CheckoutClient, reference: string, card: string) {
  await app.storage.exec(`
    CREATE FUNCTION refuse_settlement() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'simulated database failure'; END $$;
    CREATE TRIGGER refuse_settlement BEFORE UPDATE ON order_payments FOR EACH ROW WHEN (NEW.stage = 'done')
      EXECUTE FUNCTION refuse_settlement();`);
  try {
    return await client.payByCard(reference, card);
  } finally {
    await app.storage.exec('DROP TRIGGER refuse_settlement ON order_payments; DROP FUNCTION refuse_settlement();');
  }
}

function paymentRows(app: FastifyInstance, reference: string) {
  return app.storage.query<{ status_id: number; response_code: string; stage: string }>(
    `SELECT p.status_id, p.response_code, p.stage FROM order_payments p JOIN orders o ON o.id = p.order_id WHERE o.reference = $1`,
    [reference],
  );
}

describe.each(drivers)('card attempts interrupted while processing on %s', (driver) => {
  it('blocks new attempts for two minutes, then completes the attempt from the processor’s record', async () => {
    const place = newPlace(driver);
    const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
    const app = await startApp(place, {}, clock);
    try {
      const client = new CheckoutClient(app, await createMerchant(app));
      const reference = await client.newOrder();
      const failed = await payInterrupted(app, client, reference, '5555555555554444');
      expect(failed.statusCode).toBe(500);

      expect((await client.status(reference)).json()).toMatchObject({ is_final_status: false, data: { payment_status: 2 } });
      const blocked = await client.payByCard(reference, '5555555555554444');
      expect(blocked.json()).toEqual({ status: 'failed', statusCode: 'CON409', message: 'A payment for this order is already being processed.', reason: 'order_being_paid' });

      clock.advance(2 * MINUTE);
      await app.jobs.runDue();
      const status = (await client.status(reference)).json();
      expect(status).toMatchObject({ is_final_status: true, data: { payment_status: 5, payment_response_code: '00' } });
      expect((await client.verify(reference)).json().data).toMatchObject({ statusId: 5, status: 'Successful' });
    } finally {
      await app.close();
      await cleanPlace(place);
    }
  });

  /**
   * Interrupts a card payment in one app, lets `beforeRestart` change the world, restarts three minutes later and
   * hands the second app to `check` with the order's reference.
   */
  async function interruptAndRestart(beforeRestart: (app: FastifyInstance) => Promise<void>, check: (client: CheckoutClient, app: FastifyInstance, reference: string) => Promise<void>) {
    const place = newPlace(driver);
    const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
    const first = await startApp(place, {}, clock);
    const client = new CheckoutClient(first, await createMerchant(first));
    const reference = await client.newOrder();
    expect((await payInterrupted(first, client, reference, '5555555555554444')).statusCode).toBe(500);
    await beforeRestart(first);
    await first.close();

    clock.advance(3 * MINUTE);
    const second = await startApp(place, {}, clock);
    try {
      await check(new CheckoutClient(second, client.keys), second, reference);
    } finally {
      await second.close();
      await cleanPlace(place);
    }
  }

  it("completes an interrupted attempt after a restart from the sandbox's own record, which a restart does not lose", async () => {
    await interruptAndRestart(async () => undefined, async (again, second, reference) => {
      // The start-up run of the due jobs settled it before anyone asked.
      expect(await paymentRows(second, reference)).toEqual([{ status_id: 5, response_code: '00', stage: 'done' }]);
      expect((await again.status(reference)).json()).toMatchObject({ is_final_status: true, data: { payment_status: 5, payment_response_code: '00' } });
      expect((await again.payByCard(reference, '5555555555554444')).json()).toMatchObject({ status: 'failed', statusCode: 'CON409' });
    });
  });

  it('fails an attempt the processor has no record of with 91 after a restart, and the customer pays again', async () => {
    // As if the charge never reached the acquirer.
    await interruptAndRestart(async (first) => void (await first.storage.query('DELETE FROM sandbox_charges')), async (again, second, reference) => {
      expect(await paymentRows(second, reference)).toEqual([{ status_id: 4, response_code: '91', stage: 'done' }]);
      expect((await again.status(reference)).json()).toMatchObject({ is_final_status: true, requery_needed: true, data: { payment_status: 4, payment_response_code: '91' } });
      expect((await again.payByCard(reference, '5555555555554444')).json()).toMatchObject({ status: 'success', statusCode: '00' });
    });
  });

  it('leaves an interrupted attempt to its re-query job: reading the order after the bound changes nothing, the job settles it', async () => {
    const place = newPlace(driver);
    const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
    const app = await startApp(place, {}, clock);
    try {
      const client = new CheckoutClient(app, await createMerchant(app));
      const reference = await client.newOrder();
      expect((await payInterrupted(app, client, reference, '4000000000009995')).statusCode).toBe(500);
      clock.advance(2 * MINUTE);
      expect((await client.status(reference)).json()).toMatchObject({ is_final_status: false, data: { payment_status: 2 } });
      await app.jobs.runDue();
      expect((await client.status(reference)).json()).toMatchObject({ is_final_status: true, data: { payment_status: 4, payment_response_code: '51' } });
    } finally {
      await app.close();
      await cleanPlace(place);
    }
  });
});
