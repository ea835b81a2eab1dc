import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../bff/app.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { cleanPlace, drivers, logCapture, ManualClock, newPlace, testConfig, type Place } from '../support/app.ts';
import { cardDataIn, CheckoutClient, newReference, orderPayload } from '../support/checkout.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * Every flow of the checkout runs once (cards with and without 3-D Secure, a saved card, declines, a lost processor
 * answer settled by its re-query, a bank transfer, a payment link's page, webhooks delivered, idempotent retries,
 * the legacy RSA and the JWE schemes, a refused card payment), each card with a CVV of its own; then every log line
 * the app wrote, every column of every table, and on PGlite every byte of the data folder, are searched for those
 * card numbers and CVVs, and hold none.
 */
const CARDS = [
  { number: '5555555555554444', cvv: '987', flow: 'approved without 3-D Secure (JWE)' },
  { number: '5105105105105100', cvv: '4821', flow: 'approved without 3-D Secure (legacy RSA)' },
  { number: '4242424242424242', cvv: '735', flow: 'approved after 3-D Secure' },
  { number: '5123450000784608', cvv: '193', flow: "the gateway's test card, 3-D Secure failed by the customer" },
  { number: '4000008400001629', cvv: '6402', flow: '3-D Secure, then declined' },
  { number: '4000000000000002', cvv: '318', flow: 'declined (legacy RSA)' },
  { number: '4000000000009995', cvv: '5073', flow: 'declined for funds, retried with Idempotency-Key' },
  { number: '4000000000000119', cvv: '862', flow: 'issuer unavailable' },
  { number: '4000000000000341', cvv: '2946', flow: 'approved, answer lost, settled by the re-query job' },
  { number: '4111111111111111', cvv: '547', flow: 'saved on request, then paid by token' },
  { number: '378282246310005', cvv: '9051', flow: 'refused: expired card date' },
  { number: '6011111111111117', cvv: '374', flow: 'on the payment link’s order' },
];

describe.each(drivers)('card data after every flow on %s', (driver) => {
  const lines: string[] = [];
  const clock = new ManualClock();
  let place: Place;
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let receiver: WebhookReceiver;
  let closed = false;

  beforeAll(async () => {
    place = newPlace(driver);
    app = await buildApp(testConfig(place, { LOG_LEVEL: 'trace', PUBLIC_BASE_URL: 'http://127.0.0.1:9999' }), { logStream: logCapture(lines).stream, clock });
    keys = await app.merchants.create({ name: 'Card Data Stores', country: 'NG', supportEmail: 'support@cards.test' });
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await receiver?.stop();
    if (!closed) await app?.close();
    await cleanPlace(place);
  });

  const card = (index: number, extra: object = {}) => ({ cardnumber: CARDS[index]!.number, expirymonth: '01', expiryyear: '39', cvv: CARDS[index]!.cvv, ...extra });
  const byCard = (index: number, extra: object = {}) => ({ paymentoption: 'C', country: 'NG', card: card(index, extra) });

  async function runEveryFlow(): Promise<void> {
    const secret = { 'api-key': keys.secretKey };
    const webhook = await app.inject({ method: 'POST', url: '/checkout/webhooks', headers: secret, payload: { url: receiver.url() } });
    expect(webhook.statusCode).toBe(200);
    const jwe = new CheckoutClient(app, keys);
    const legacy = new CheckoutClient(app, keys, 'legacy');
    const expectCode = async (answer: Promise<{ json: () => { statusCode: string } }>, code: string) => expect((await answer).json().statusCode).toBe(code);

    await expectCode(jwe.pay(await jwe.newOrder(), byCard(0)), '00');
    await expectCode(legacy.pay(await legacy.newOrder(), byCard(1)), '00');

    const threeDs = (await jwe.pay(await jwe.newOrder(), byCard(2))).json();
    expect(threeDs.statusCode).toBe('02');
    expect((await jwe.authenticate(threeDs.data.paymentDetail.redirectUrl)).statusCode).toBe(303);
    const failed = (await jwe.pay(await jwe.newOrder(), byCard(3))).json();
    expect((await jwe.authenticate(failed.data.paymentDetail.redirectUrl, 'fail')).statusCode).toBe(303);
    const thenDeclined = (await jwe.pay(await jwe.newOrder(), byCard(4))).json();
    await jwe.authenticate(thenDeclined.data.paymentDetail.redirectUrl);

    await expectCode(legacy.pay(await legacy.newOrder(), byCard(5)), '05');
    const retried = await jwe.newOrder();
    const idempotent = (payload: object) =>
      app.inject({ method: 'POST', url: '/checkout/order/pay', headers: { 'api-key': keys.publishableKey, 'idempotency-key': `retry-${retried}` }, payload });
    const body = { data: await jwe.encrypt({ reference: retried, ...byCard(6) }) };
    const first = await idempotent(body);
    expect(first.json().statusCode).toBe('51');
    expect((await idempotent(body)).body).toBe(first.body);
    await expectCode(jwe.pay(await jwe.newOrder(), byCard(7)), '91');

    const lost = await jwe.newOrder();
    expect((await jwe.pay(lost, byCard(8))).statusCode).toBe(200);
    clock.advance(3 * 60_000);
    await app.jobs.runDue();
    expect((await jwe.verify(lost)).json().data.statusId).toBe(5);

    const customer = await jwe.asCustomer('card-data-customer');
    await expectCode(customer.pay(await customer.newOrder(), byCard(9, { save: true })), '00');
    const again = (await customer.createOrder(orderPayload(newReference()))).json().data;
    const token = again.savedCards[0].token;
    await expectCode(customer.pay(again.order.reference, { paymentoption: 'C', cardToken: token, card: { cvv: CARDS[9]!.cvv } }), '00');

    const refused = await jwe.pay(await jwe.newOrder(), { paymentoption: 'C', country: 'NG', card: card(10, { expirymonth: '13' }) });
    expect(refused.statusCode).toBe(400);
    // Card data a client should never have sent, in the order's metadata and in a tracked event.
    const meta = await jwe.createOrder({ ...orderPayload(newReference()), paymentMeta: { note: `card ${CARDS[10]!.number}`, cvv: CARDS[10]!.cvv } });
    expect(meta.statusCode).toBe(200);
    await jwe.track({ eventname: 'card submitted', orderreference: meta.json().data.order.reference, cardnumber: CARDS[10]!.number, cvv: CARDS[10]!.cvv });

    const transfer = await jwe.newOrder();
    const account = (await jwe.payByTransfer(transfer)).json().data.paymentDetail.recipientAccount;
    expect((await jwe.transfer(account, 5000)).statusCode).toBe(200);
    expect((await jwe.verify(transfer)).json().data.statusId).toBe(5);

    const link = await app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: secret,
      payload: { Name: 'Tickets', Description: 'Two tickets', PaymentType: 'MC', Currency: 'NGN', AuthOption: 'NOAUTH', Amount: 2500 },
    });
    const linkPath = new URL(link.json().data.paymentLink.paymentLinkUrl).pathname;
    expect((await app.inject({ method: 'GET', url: linkPath })).statusCode).toBe(200);
    const form = new URLSearchParams({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.test', mobile: '+2348012345678', amount: '', order: 'LNK-0123456789ABCDEF01234567' });
    const posted = await app.inject({ method: 'POST', url: linkPath, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
    expect(posted.statusCode).toBe(303);
    await expectCode(jwe.pay('LNK-0123456789ABCDEF01234567', byCard(11)), '00');

    await app.jobs.runDue();
    expect(receiver.received.length).toBeGreaterThan(0);
  }

  it('finds none of the test cards’ numbers or CVVs in the logs, any table or the data folder', async () => {
    await runEveryFlow();

    expect(lines.length).toBeGreaterThan(50);
    const logs = lines.join('');
    for (const secret of CARDS) expect(cardDataIn(logs, secret), `logs: ${secret.flow}`).toEqual([]);

    const tables = await app.storage.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
    );
    expect(tables.map((table) => table.table_name)).toEqual(expect.arrayContaining(['orders', 'order_payments', 'jobs', 'domain_events', 'idempotency_keys', 'sandbox_charges']));
    let rows = 0;
    for (const { table_name: table } of tables) {
      const dump = await app.storage.query<{ text: string }>(`SELECT row_to_json(t)::text AS text FROM "${table}" t`);
      rows += dump.length;
      const text = dump.map((row) => row.text).join('\n');
      for (const secret of CARDS) expect(cardDataIn(text, secret), `${table}: ${secret.flow}`).toEqual([]);
    }
    expect(rows).toBeGreaterThan(100);
    // The webhooks as they left, too.
    const sent = receiver.received.map((request) => request.body).join('\n');
    for (const secret of CARDS) expect(cardDataIn(sent, secret), `webhooks: ${secret.flow}`).toEqual([]);

    if (driver === 'pglite') {
      // Every byte PGlite wrote (heap pages, dead row versions, the write-ahead log): card numbers as text, no-where.
      await app.close();
      closed = true;
      const files = filesUnder(path.join(place.dataDir, 'db'));
      expect(files.length).toBeGreaterThan(10);
      for (const file of files) {
        const bytes = readFileSync(file);
        for (const secret of CARDS) expect(bytes.includes(Buffer.from(secret.number)), `${path.relative(place.dataDir, file)}: ${secret.flow}`).toBe(false);
      }
    }
  }, 240_000);
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}
