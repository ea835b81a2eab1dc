import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { cleanPlace, drivers, ManualClock, newPlace, startApp, useTestApp } from '../support/app.ts';
import { CheckoutClient } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';
import { isValidNuban } from '../../bff/domain/nuban.ts';
import { SANDBOX_BANK } from '../../bff/processor/sandbox/processor.ts';
import { payOrderResponseSchema } from '../../shared/payments.ts';
import { parseTimestamp } from '../../shared/timestamps.ts';

const MINUTE = 60_000;

describe.each(drivers)('bank transfer on %s', (driver) => {
  const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
  const context = useTestApp(driver, { clock });
  let app: FastifyInstance;
  let client: CheckoutClient;

  beforeAll(async () => {
    app = context.app;
    client = new CheckoutClient(app, await createMerchant(app, 'Acme Stores'));
  });

  async function openAccount() {
    const reference = await client.newOrder();
    const response = await client.payByTransfer(reference);
    const body = payOrderResponseSchema.parse(response.json());
    return { reference, body, details: body.data.bankTransferDetails! };
  }

  it('issues a fresh 10-digit NUBAN with a valid check digit, the amount and a 30-minute expiry', async () => {
    const { body, details } = await openAccount();
    expect(body).toMatchObject({ status: 'success', statusCode: '02' });
    expect(body.message).toMatch(/transfer/i);
    expect(body.data.orderPayment).toMatchObject({ statusId: 2, orderPaymentResponseCode: '02' });
    expect(details).toMatchObject({ accountName: 'Acme Stores', bankName: SANDBOX_BANK.name, amount: 5000, amountPaid: 0, amountDue: 5000 });
    expect(body.data.paymentDetail.recipientAccount).toBe(details.bankAccount);
    expect(isValidNuban(SANDBOX_BANK.code, details.bankAccount)).toBe(true);
    expect(parseTimestamp(details.expiresAt).getTime() - clock.now().getTime()).toBe(30 * MINUTE);
    const second = await openAccount();
    expect(second.details.bankAccount).not.toBe(details.bankAccount);
  });

  it('completes the payment when the exact amount arrives', async () => {
    const { reference, details } = await openAccount();
    const arrival = await client.transfer(details.bankAccount, 5000);
    expect(arrival.statusCode).toBe(200);
    expect(arrival.json()).toMatchObject({ status: 'success', statusCode: '00', data: { paymentStatusId: 5, amountReceived: 5000, amountDue: 0, excessAmount: 0 } });
    expect((await client.status(reference)).json()).toMatchObject({ is_final_status: true, data: { payment_status: 5 } });
    const again = await client.transfer(details.bankAccount, 5000);
    expect(again.statusCode).toBe(409);
  });

  it('keeps a short payment pending with the rest due, then completes it when the rest arrives', async () => {
    const { reference, details } = await openAccount();
    const short = await client.transfer(details.bankAccount, 3000);
    expect(short.json()).toMatchObject({ data: { paymentStatusId: 2, amountReceived: 3000, amountDue: 2000 }, message: 'Partial payment received. 2000 NGN is still due.' });
    const status = (await client.status(reference)).json();
    expect(status).toMatchObject({ is_final_status: false, data: { payment_status: 2, amount_due: 2000 } });
    const rest = await client.transfer(details.bankAccount, 2000);
    expect(rest.json()).toMatchObject({ data: { paymentStatusId: 5, amountReceived: 5000, amountDue: 0 } });
  });

  it('completes an excess payment and records the excess', async () => {
    const { reference, details } = await openAccount();
    const excess = await client.transfer(details.bankAccount, 6500.5);
    expect(excess.json()).toMatchObject({ data: { paymentStatusId: 5, amountReceived: 6500.5, excessAmount: 1500.5 } });
    const verified = (await client.verify(reference)).json().data;
    expect(verified.orderPayments[0]).toMatchObject({ statusId: 5, amountReceived: 6500.5, excessAmount: 1500.5 });
    expect((await client.status(reference)).json().data).toMatchObject({ payment_status: 5, amount_received: 6500.5, excess_amount: 1500.5 });
    expect(verified.remarks).toContain('excess of 1500.5 NGN');
  });

  it('expires the account after 30 minutes: payment status 4, code 04, final', async () => {
    const { reference, details } = await openAccount();
    clock.advance(29 * MINUTE);
    await app.jobs.runDue();
    expect((await client.status(reference)).json().data.payment_status).toBe(2);
    clock.advance(1 * MINUTE);
    // Money arriving once the time is up is refused even before the expiry job has run.
    expect((await client.transfer(details.bankAccount, 5000)).json().message).toBe('This account number has expired.');
    await app.jobs.runDue();
    const status = (await client.status(reference)).json();
    expect(status).toMatchObject({ is_final_status: true, data: { payment_status: 4, payment_response_code: '04', payment_response_message: 'Account number has expired' } });
    const late = await client.transfer(details.bankAccount, 5000);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('This account number has expired.');
    // A new account can be asked for on the same order.
    const fresh = payOrderResponseSchema.parse((await client.payByTransfer(reference)).json());
    expect(fresh.data.bankTransferDetails!.bankAccount).not.toBe(details.bankAccount);
  });

  it('expires accounts in the timed sweep without anyone asking', async () => {
    const { reference } = await openAccount();
    clock.advance(31 * MINUTE);
    await app.jobs.runDue();
    const order = (await client.verify(reference)).json().data;
    expect(order.orderPayments[0]).toMatchObject({ statusId: 4, orderPaymentResponseCode: '04' });
  });

  it("refuses simulated transfers to another merchant's account and with live keys", async () => {
    const { details } = await openAccount();
    const stranger = new CheckoutClient(app, await createMerchant(app));
    expect((await stranger.transfer(details.bankAccount, 10)).statusCode).toBe(404);
    const bad = await client.transfer('12345', 10);
    expect(bad.json()).toMatchObject({ status: 'failed', statusCode: 'VAL400', message: 'The accountNumber field must be a 10-digit account number.' });
  });

  it('opens a transfer account and completes it from legacy RSA payloads', async () => {
    const legacy = new CheckoutClient(app, client.keys, 'legacy');
    const reference = await legacy.newOrder();
    const body = payOrderResponseSchema.parse((await legacy.payByTransfer(reference)).json());
    expect(body).toMatchObject({ status: 'success', statusCode: '02', data: { orderPayment: { statusId: 2 } } });
    const account = body.data.bankTransferDetails!.bankAccount;
    expect(isValidNuban(SANDBOX_BANK.code, account)).toBe(true);
    expect((await legacy.transfer(account, 5000)).json()).toMatchObject({ statusCode: '00', data: { paymentStatusId: 5 } });
    expect((await legacy.status(reference)).json()).toMatchObject({ is_final_status: true, data: { payment_status: 5, payment_type: expect.any(String) } });
  });

  it('offers bank transfer for NGN orders only', async () => {
    const reference = await client.newOrder({ order: { currency: 'USD', amount: 100 } });
    const response = await client.payByTransfer(reference);
    expect(response.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The paymentoption field bank-transfer is available for NGN orders only.' });
  });
});

describe.each(drivers)('transfer expiry across a restart on %s', (driver) => {
  it('catches up on accounts that expired while the process was down', async () => {
    const place = newPlace(driver);
    const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
    const first = await startApp(place, { TRANSFER_EXPIRY_MINUTES: '5' }, clock);
    const client = new CheckoutClient(first, await createMerchant(first));
    const reference = await client.newOrder();
    await client.payByTransfer(reference);
    await first.close();

    clock.advance(6 * MINUTE);
    const second = await startApp(place, { TRANSFER_EXPIRY_MINUTES: '5' }, clock);
    try {
      // The start-up sweep already closed it: the stored row says so before any status read.
      const rows = await second.storage.query<{ status_id: number; response_code: string }>(
        `SELECT p.status_id, p.response_code FROM order_payments p JOIN orders o ON o.id = p.order_id WHERE o.reference = $1`,
        [reference],
      );
      expect(rows).toEqual([{ status_id: 4, response_code: '04' }]);
    } finally {
      await second.close();
      await cleanPlace(place);
    }
  });
});
