import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { purgeExpiredIdempotencyKeys } from '../../bff/repositories/idempotency.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { drivers, ManualClock, useTestApp } from '../support/app.ts';
import { card, cardDataIn, CheckoutClient, newReference, orderPayload, type Scheme } from '../support/checkout.ts';
import { createMerchant } from '../support/merchant.ts';

const HOUR = 60 * 60 * 1000;
let keyCounter = 0;
const newKey = () => `key-${Date.now().toString(36)}-${(keyCounter += 1)}`;

/** An encrypted order call with an Idempotency-Key; each call encrypts afresh, as a retrying client does. */
async function postEncrypted(client: CheckoutClient, url: string, plain: unknown, key: string, apiKey = client.keys.publishableKey) {
  return client.app.inject({ method: 'POST', url, headers: { 'api-key': apiKey, 'idempotency-key': key }, payload: { data: await client.encrypt(plain) } });
}

function postPlain(app: FastifyInstance, keys: IssuedKeys, url: string, body: object, key: string | undefined) {
  return app.inject({ method: 'POST', url, headers: { 'api-key': keys.secretKey, ...(key === undefined ? {} : { 'idempotency-key': key }) }, payload: body });
}

const linkBody = (name = 'Spring sale') => ({ Name: name, Description: 'Two tickets', PaymentType: 'SC', Currency: 'NGN', AuthOption: 'NOAUTH', Amount: '5000' });
const createLink = (app: FastifyInstance, keys: IssuedKeys, key: string | undefined, name?: string) => postPlain(app, keys, '/checkout/links/create', linkBody(name), key);
const linkReference = (response: LightMyRequestResponse): string => response.json().data.paymentLink.reference;

function expectReplayOf(replay: LightMyRequestResponse, first: LightMyRequestResponse): void {
  expect(replay.statusCode).toBe(first.statusCode);
  expect(replay.body).toBe(first.body);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(first.headers['idempotent-replayed']).toBeUndefined();
}

async function paymentsOf(client: CheckoutClient, reference: string): Promise<{ statusId: number }[]> {
  return (await client.verify(reference)).json().data.orderPayments;
}

describe.each(drivers)('Idempotency-Key on %s', (driver) => {
  const context = useTestApp(driver);
  let app: FastifyInstance;
  let keys: IssuedKeys;
  let clients: Record<Scheme, CheckoutClient>;

  beforeAll(async () => {
    app = context.app;
    keys = await createMerchant(app);
    clients = { jwe: new CheckoutClient(app, keys, 'jwe'), legacy: new CheckoutClient(app, keys, 'legacy') };
  });

  it('replays the first answer to a repeated order create, even after the order has moved on', async () => {
    const client = clients.jwe;
    const reference = newReference();
    const key = newKey();
    const first = await postEncrypted(client, '/checkout/order/create', orderPayload(reference), key);
    expect(first.json()).toMatchObject({ statusCode: '01', data: { order: { statusId: 1 } } });
    expect((await client.payByCard(reference, '5555555555554444')).json().statusCode).toBe('00');

    const replay = await postEncrypted(client, '/checkout/order/create', orderPayload(reference), key);
    // Run again, the create would answer the order as it is now (paid); the replay is the first answer.
    expectReplayOf(replay, first);
    expect((await client.createOrder(orderPayload(reference))).json().data.order.statusId).toBe(5);
  });

  it.each(['jwe', 'legacy'] as const)('a card payment retried with its key (%s, re-encrypted with a fresh IV) charges once and answers the same', async (scheme) => {
    const client = clients[scheme];
    const reference = await client.newOrder();
    const payment = { reference, paymentoption: 'C', country: 'NG', card: card('5555555555554444') };
    const key = newKey();
    const first = await postEncrypted(client, '/checkout/order/pay', payment, key);
    expect(first.json().statusCode).toBe('00');
    // Key casing and aliases do not make another request: the fingerprint is over the bound, validated payload.
    const sameMeaning = { Reference: reference, paymentOption: 'c', country: 'NG', card: { ...card('5555 5555 5555 4444'), cardnumber: undefined, cardNumber: '5555 5555 5555 4444' } };
    const replay = await postEncrypted(client, '/checkout/order/pay', sameMeaning, key);
    expectReplayOf(replay, first);
    expect(await paymentsOf(client, reference)).toHaveLength(1);
    // Without the key the same payment is a second attempt, refused because the order is paid.
    expect((await client.payByCard(reference, '5555555555554444')).json().statusCode).toBe('CON409');
  });

  it('a declined payment is replayed, not tried again', async () => {
    const client = clients.jwe;
    const reference = await client.newOrder();
    const payment = { reference, paymentoption: 'C', country: 'NG', card: card('4000000000000002') };
    const key = newKey();
    const first = await postEncrypted(client, '/checkout/order/pay', payment, key);
    expect(first.json()).toMatchObject({ status: 'failed', statusCode: '05' });
    expectReplayOf(await postEncrypted(client, '/checkout/order/pay', payment, key), first);
    expect(await paymentsOf(client, reference)).toHaveLength(1);
  });

  it('a 5xx is stored and replayed with its request id; a new key runs the request again', async () => {
    const client = clients.jwe;
    const reference = await client.newOrder();
    const event = { eventname: 'opened', orderreference: reference };
    const key = newKey();
    await app.storage.query('ALTER TABLE order_events RENAME TO order_events_away');
    let first: LightMyRequestResponse;
    try {
      first = await postEncrypted(client, '/checkout/order/event/track', event, key);
    } finally {
      await app.storage.query('ALTER TABLE order_events_away RENAME TO order_events');
    }
    expect(first.statusCode).toBe(500);
    expect(first.json()).toMatchObject({ status: 'failed', statusCode: 'ERR500', requestId: first.headers['x-request-id'] });

    const replay = await postEncrypted(client, '/checkout/order/event/track', event, key);
    expectReplayOf(replay, first);
    expect(replay.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect((await postEncrypted(client, '/checkout/order/event/track', event, newKey())).json().statusCode).toBe('00');
  });

  it('the same key with another body, or on another operation, is IDEM422; the first request still replays', async () => {
    const key = newKey();
    const first = await createLink(app, keys, key, 'Spring sale');
    expect(first.json().statusCode).toBe('00');

    for (const other of [
      await createLink(app, keys, key, 'Summer sale'),
      await postPlain(app, keys, '/checkout/sandbox/transfers', { accountNumber: '0123456789', amount: 5000 }, key),
    ]) {
      expect(other.statusCode).toBe(422);
      expect(other.json()).toEqual({
        status: 'failed',
        statusCode: 'IDEM422',
        message:
          'This Idempotency-Key was already used for another request (another operation or another body) in the last 24 hours. Send a new key for a new request.',
      });
    }
    // Field names bind case-insensitively: the same fields in another spelling are the same request.
    const respelled = Object.fromEntries(Object.entries(linkBody('Spring sale')).map(([name, value]) => [name.toLowerCase(), value]));
    expectReplayOf(await postPlain(app, keys, '/checkout/links/create', respelled, key), first);
  });

  it('an answer given before the request runs (a field refused, unreadable data) does not use up the key', async () => {
    const key = newKey();
    const refused = await postPlain(app, keys, '/checkout/links/create', { ...linkBody(), Name: '' }, key);
    expect(refused.json()).toMatchObject({ statusCode: 'VAL400', message: 'The Name field is required.' });
    expect((await createLink(app, keys, key)).json().statusCode).toBe('00');

    const payKey = newKey();
    const unreadable = await app.inject({
      method: 'POST',
      url: '/checkout/order/pay',
      headers: { 'api-key': keys.publishableKey, 'idempotency-key': payKey },
      payload: { data: 'not a ciphertext' },
    });
    expect(unreadable.json()).toEqual({ status: 'failed', statusCode: 'VAL400', message: 'The data field could not be read.' });
    const reference = await clients.jwe.newOrder();
    const paid = await postEncrypted(clients.jwe, '/checkout/order/pay', { reference, paymentoption: 'C', card: card('5555555555554444') }, payKey);
    expect(paid.json().statusCode).toBe('00');
  });

  it('concurrent requests with one key: exactly one runs, the others get CON409 or its answer, and the order is charged once', async () => {
    const client = clients.jwe;
    const reference = await client.newOrder();
    const payment = { reference, paymentoption: 'C', country: 'NG', card: card('5555555555554444') };
    const key = newKey();
    const payloads = await Promise.all(Array.from({ length: 20 }, () => client.encrypt(payment)));
    const answers = await Promise.all(
      payloads.map((data) =>
        app.inject({ method: 'POST', url: '/checkout/order/pay', headers: { 'api-key': keys.publishableKey, 'idempotency-key': key }, payload: { data } }),
      ),
    );
    const ran = answers.filter((answer) => answer.statusCode !== 409 && answer.headers['idempotent-replayed'] === undefined);
    expect(ran).toHaveLength(1);
    expect(ran[0]!.json().statusCode).toBe('00');
    for (const answer of answers.filter((each) => each !== ran[0])) {
      if (answer.statusCode === 409) {
        expect(answer.json()).toMatchObject({ statusCode: 'CON409', message: expect.stringContaining('still being processed') });
        expect(answer.headers['retry-after']).toBe('1');
      } else {
        expectReplayOf(answer, ran[0]!);
      }
    }
    const payments = await paymentsOf(client, reference);
    expect(payments).toHaveLength(1);
    expect(payments[0]!.statusId).toBe(5);
    // Once the first has answered, the key replays it.
    expectReplayOf(await postEncrypted(client, '/checkout/order/pay', payment, key), ran[0]!);
  });

  it('keys are per merchant and per mode: the same key used by two merchants, or in live mode, runs each time', async () => {
    const key = newKey();
    const own = await createLink(app, keys, key);
    const other = await createMerchant(app);
    const theirs = await createLink(app, other, key);
    const live = (await app.merchants.rotateKeys(other.subsidiaryId, 'live'))!;
    const theirLive = await createLink(app, live, key);
    for (const answer of [own, theirs, theirLive]) {
      expect(answer.json().statusCode).toBe('00');
      expect(answer.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(new Set([own, theirs, theirLive].map(linkReference)).size).toBe(3);
    expect(theirLive.json().data.paymentLink.appEnvironmentId).toBe(2);
    expectReplayOf(await createLink(app, other, key), theirs);
  });

  it('checks the header: 1 to 255 printable ASCII characters, else VAL400 naming it', async () => {
    const message = 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.';
    for (const bad of ['', '   ', 'k'.repeat(256), 'clé', 'tab\there', 'bell\u0007']) {
      const answer = await createLink(app, keys, bad);
      expect(answer.statusCode, JSON.stringify(bad)).toBe(400);
      expect(answer.json(), JSON.stringify(bad)).toEqual({ status: 'failed', statusCode: 'VAL400', message });
    }
    expect((await createLink(app, keys, `${'k'.repeat(250)} ~!{}`)).json().statusCode).toBe('00');
  });

  it('reads ignore the key: status, fee and verify answer afresh each time, whatever the header holds', async () => {
    const client = clients.jwe;
    for (const key of [newKey(), '']) {
      const reference = await client.newOrder();
      const before = await postEncrypted(client, '/checkout/order/status', { reference }, key);
      expect(before.json().data.payment_status).toBe(1);
      await client.payByCard(reference, '5555555555554444');
      const after = await postEncrypted(client, '/checkout/order/status', { reference }, key);
      expect(after.json().data.payment_status).toBe(5);
      expect(after.headers['idempotent-replayed']).toBeUndefined();
      expect((await postEncrypted(client, '/checkout/order/fee', { amount: 100, currency: 'USD', paymentoption: 'C' }, key)).statusCode).toBe(200);
      const verify = await app.inject({ method: 'POST', url: '/checkout/order/verify', headers: { 'api-key': keys.secretKey, 'idempotency-key': key }, payload: { reference } });
      expect(verify.json().data.statusId).toBe(5);
    }
  });

  it('stores neither the request nor any card number: only a keyed fingerprint and the answer sent', async () => {
    const client = clients.jwe;
    const reference = await client.newOrder();
    const key = newKey();
    const paid = await postEncrypted(client, '/checkout/order/pay', { reference, paymentoption: 'C', card: card('5555555555554444', { cvv: '987' }) }, key);
    expect(paid.json().statusCode).toBe('00');
    const rows = await app.storage.query<{ text: string; fingerprint_length: number }>(
      'SELECT row_to_json(k)::text AS text, length(fingerprint) AS fingerprint_length FROM idempotency_keys k WHERE key = $1',
      [key],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.fingerprint_length).toBe(32);
    expect(rows[0]!.text).toContain('****4444');
    expect(cardDataIn(rows[0]!.text, { number: '5555555555554444', cvv: '987' })).toEqual([]);
    expect(rows[0]!.text).not.toMatch(/555555[0-9]{6}|cardnumber/i);
  });
});

describe.each(drivers)('Idempotency-Key lifetime on the app clock on %s', (driver) => {
  const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
  const context = useTestApp(driver, { clock });
  let app: FastifyInstance;
  let keys: IssuedKeys;

  beforeAll(async () => {
    app = context.app;
    keys = await createMerchant(app);
  });

  it('a key answers with its first response for 24 hours, then is free for any request', async () => {
    const key = newKey();
    const first = await createLink(app, keys, key, 'Spring sale');
    clock.advance(24 * HOUR - 1000);
    expectReplayOf(await createLink(app, keys, key, 'Spring sale'), first);
    expect((await createLink(app, keys, key, 'Summer sale')).json().statusCode).toBe('IDEM422');

    clock.advance(1000);
    const second = await createLink(app, keys, key, 'Summer sale');
    expect(second.json().data.paymentLink.name).toBe('Summer sale');
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expectReplayOf(await createLink(app, keys, key, 'Summer sale'), second);
  });

  it('a key left running by a process that died is taken over once its one-minute lease has passed', async () => {
    const key = newKey();
    const first = await createLink(app, keys, key);
    // What a process that died after claiming the key leaves behind: the key running, its lease a minute long.
    await app.storage.query(
      `UPDATE idempotency_keys SET response_status = NULL, response_body = NULL, completed_at = NULL, lease_until = $2 WHERE key = $1`,
      [key, new Date(clock.now().getTime() + 60_000)],
    );
    clock.advance(59_000);
    const running = await createLink(app, keys, key);
    expect(running.statusCode).toBe(409);
    expect(running.json()).toEqual({
      status: 'failed',
      statusCode: 'CON409',
      message: 'A request with this Idempotency-Key is still being processed. Retry shortly to get its answer.',
    });
    expect(running.headers['retry-after']).toBe('1');
    expect((await createLink(app, keys, key, 'Another body')).json().statusCode).toBe('IDEM422');

    clock.advance(1000);
    const takenOver = await createLink(app, keys, key);
    expect(takenOver.json().statusCode).toBe('00');
    expect(takenOver.headers['idempotent-replayed']).toBeUndefined();
    expect(linkReference(takenOver)).not.toBe(linkReference(first));
    expectReplayOf(await createLink(app, keys, key), takenOver);
  });

  it('an answer that cannot be stored still reaches the client; the key then runs again once its lease has passed', async () => {
    const key = newKey();
    await app.storage.query('ALTER TABLE idempotency_keys ADD CONSTRAINT refuse_answers CHECK (response_status IS NULL) NOT VALID');
    let first: LightMyRequestResponse;
    try {
      first = await createLink(app, keys, key);
    } finally {
      await app.storage.query('ALTER TABLE idempotency_keys DROP CONSTRAINT refuse_answers');
    }
    expect(first.json().statusCode).toBe('00');
    expect((await createLink(app, keys, key)).json().statusCode).toBe('CON409');
    clock.advance(60_000);
    const again = await createLink(app, keys, key);
    expect(again.json().statusCode).toBe('00');
    expect(linkReference(again)).not.toBe(linkReference(first));
  });

  it('purgeExpiredIdempotencyKeys deletes the keys first used before the time it is given, and only those', async () => {
    const old = newKey();
    await createLink(app, keys, old, 'Old');
    clock.advance(2 * HOUR);
    const recent = newKey();
    const recentAnswer = await createLink(app, keys, recent, 'Recent');

    const purged = await purgeExpiredIdempotencyKeys(app.storage, new Date(clock.now().getTime() - HOUR));
    expect(purged).toBeGreaterThanOrEqual(1);
    const left = await app.storage.query<{ key: string }>('SELECT key FROM idempotency_keys WHERE key = ANY($1)', [[old, recent]]);
    expect(left.map((row) => row.key)).toEqual([recent]);
    // A purged key is a key never used: another request may take it.
    expect((await createLink(app, keys, old, 'New')).json().data.paymentLink.name).toBe('New');
    expectReplayOf(await createLink(app, keys, recent, 'Recent'), recentAnswer);
    expect(await purgeExpiredIdempotencyKeys(app.storage, new Date(clock.now().getTime() - HOUR))).toBe(0);
  });
});
