import { constants, publicEncrypt, type KeyObject } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type InjectOptions, type LightMyRequestResponse } from 'fastify';
import fp from 'fastify-plugin';
import fc from 'fast-check';
import { CompactEncrypt, importJWK } from 'jose';
import { app as checkout, serverOptions } from '../../bff/app.ts';
import { fromGatewayKey } from '../../bff/crypto/gateway-key.ts';
import { TEST_CARDS } from '../../bff/processor/sandbox/processor.ts';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { encryptedBodySchema } from '../../shared/encrypted.ts';
import type { EncryptionJwk } from '../../shared/keys.ts';
import { asFrameMessage, asParentMessage, PROTOCOL, SETTING_NAMES } from '../../widget/embed/protocol.ts';
import { cleanPlace, newPlace, testConfig, type Driver, type Place } from '../support/app.ts';
import { CheckoutClient, newReference, orderPayload } from '../support/checkout.ts';
import { consistencyFindings } from '../support/consistency.ts';
import { fetchEncryptionKeys } from '../support/encrypt.ts';
import { fakeWidgetDir } from '../support/widget-page.ts';

/**
 * Property-based fuzzing of the whole app through `app.inject()` (fast-check). The endpoints are the app's own
 * routes, collected with an onRoute hook while the app registers them, so a route added later is fuzzed without
 * anyone listing it here. Every input is a request built from the route's method and path: path parameters
 * (real ids and references of this app, or arbitrary text), query strings, headers (api-key, Idempotency-Key,
 * checkout-client-token, checkout-customer-session, Origin, Accept-Language, Content-Type) and a body: plain JSON
 * (a valid payload for the routes this file knows, mutated member by member, or arbitrary JSON for the rest), an
 * encrypted `{data}` (a JWE or legacy RSA block around such a payload, or a malformed, tampered or foreign blob),
 * a form, or bytes that are not JSON. The property of every answer: no 5xx; a 4xx of the API is the error envelope
 * of protocol.md (pages may answer with an HTML page); no stack trace and no card number sent in the request.
 */

/** `encrypted`: the route's body is the `{data}` envelope (shared/encrypted.ts), so most inputs are encrypted. */
export type Endpoint = { method: string; url: string; auth: string | undefined; queryKeys: string[]; encrypted: boolean };

export type FuzzApp = { app: FastifyInstance; endpoints: Endpoint[]; place: Place; close(): Promise<void> };

/** The app exactly as `buildApp` makes it, and the routes it registered, one endpoint per method and path. */
export async function startFuzzApp(driver: Driver): Promise<FuzzApp> {
  const place = newPlace(driver);
  // A built widget's pages as stand-ins (the checkout page and the demo page), so the pages render as in production.
  const widgetDir = fakeWidgetDir();
  mkdirSync(path.join(widgetDir, 'demo'));
  writeFileSync(path.join(widgetDir, 'demo', 'index.html'), '<!doctype html><html><body><checkout-widget></checkout-widget></body></html>');
  const config = testConfig(place, { PUBLIC_BASE_URL: 'http://127.0.0.1:9999', CHECKOUT_WIDGET_DIR: widgetDir });
  const app = Fastify(serverOptions(config));
  const seen = new Map<string, Endpoint>();
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat().map(String);
    for (const method of methods) {
      const key = `${method} ${route.url}`;
      const shape = (route.schema?.querystring as { shape?: Record<string, unknown> } | undefined)?.shape;
      seen.set(key, {
        method,
        url: route.url,
        auth: (route.config as { auth?: string } | undefined)?.auth,
        queryKeys: shape ? Object.keys(shape) : [],
        encrypted: route.schema?.body === encryptedBodySchema,
      });
    }
  });
  await app.register(fp(checkout, { name: 'checkout' }), { config });
  await app.ready();
  // Fastify adds a HEAD twin to every GET: it is fuzzed through its GET (a share of whose inputs are sent as HEAD).
  const endpoints = [...seen.values()].filter((endpoint) => !(endpoint.method === 'HEAD' && seen.has(`GET ${endpoint.url}`)));
  return {
    app,
    endpoints,
    place,
    close: async () => {
      await app.close();
      await cleanPlace(place);
    },
  };
}

export const endpointName = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.url}`;

/** Real things of the app for inputs to name: keys of two merchants, orders, a link, payments, sessions, tokens. */
export type Fixtures = {
  merchants: IssuedKeys[];
  jwks: Map<string, EncryptionJwk[]>;
  legacyKeys: Map<string, KeyObject>;
  orderReferences: string[];
  linkIds: string[];
  linkReferences: string[];
  /** Links no input edits or disables (their ids are in no pool), so the link pages stay open to the fuzz. */
  pageLinkReferences: string[];
  paymentReferences: string[];
  transferAccounts: string[];
  endpointIds: string[];
  deliveryIds: string[];
  frameTokens: string[];
  clientTokens: string[];
  customerSessions: string[];
  idempotencyKeys: string[];
};

const ORIGIN = 'https://shop.fuzz.test';

export async function makeFixtures(app: FastifyInstance): Promise<Fixtures> {
  const merchants: IssuedKeys[] = [];
  for (const name of ['Fuzz Stores', 'Other Stores']) {
    merchants.push(await app.merchants.create({ name, country: 'NG', supportEmail: 'support@fuzz.test', allowedOrigins: [ORIGIN] }));
  }
  const fixtures: Fixtures = {
    merchants,
    jwks: new Map(),
    legacyKeys: new Map(),
    orderReferences: [],
    linkIds: [],
    linkReferences: [],
    pageLinkReferences: [],
    paymentReferences: [],
    transferAccounts: [],
    endpointIds: [],
    deliveryIds: [],
    frameTokens: [],
    clientTokens: [],
    customerSessions: [],
    idempotencyKeys: ['fuzz-key-1', 'fuzz-key-2', 'fuzz-key-3'],
  };
  for (const keys of merchants) {
    const jwks = await fetchEncryptionKeys(app, keys.publishableKey);
    fixtures.jwks.set(keys.publishableKey, jwks);
    fixtures.jwks.set(keys.secretKey, jwks);
    const legacy = fromGatewayKey(keys.encryptionKey);
    fixtures.legacyKeys.set(keys.publishableKey, legacy);
    fixtures.legacyKeys.set(keys.secretKey, legacy);

    const secret = { 'api-key': keys.secretKey };
    const client = new CheckoutClient(app, keys);
    // Unpaid orders, so that pays reach the processor before the orders are all paid or pending.
    for (let index = 0; index < 10; index += 1) fixtures.orderReferences.push(await client.newOrder());
    const threeDs = await client.newOrder();
    fixtures.orderReferences.push(threeDs);
    const pending = (await client.payByCard(threeDs, '4242424242424242')).json();
    fixtures.paymentReferences.push(pending.data?.paymentDetail?.paymentReference ?? 'none');
    const transfer = await client.newOrder();
    fixtures.orderReferences.push(transfer);
    fixtures.transferAccounts.push((await client.payByTransfer(transfer)).json().data?.paymentDetail?.recipientAccount ?? '0000000000');

    const link = await app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: secret,
      payload: { Name: 'Tickets', Description: 'Two tickets', PaymentType: 'MC', Currency: 'NGN', AuthOption: 'NOAUTH', Amount: 2500 },
    });
    fixtures.linkIds.push(String(link.json().data.paymentLink.id));
    fixtures.linkReferences.push(link.json().data.paymentLink.reference);
    const open = await app.inject({
      method: 'POST',
      url: '/checkout/links/create',
      headers: secret,
      payload: { Name: 'Donation', Description: 'Any amount', PaymentType: 'MC', Currency: 'NGN', AuthOption: 'AUTH' },
    });
    fixtures.linkIds.push(String(open.json().data.paymentLink.id));
    fixtures.linkReferences.push(open.json().data.paymentLink.reference);

    for (const amount of [2500, undefined]) {
      const page = await app.inject({
        method: 'POST',
        url: '/checkout/links/create',
        headers: secret,
        payload: { Name: 'Page', Description: 'A page', PaymentType: 'MC', Currency: 'NGN', AuthOption: 'NOAUTH', ...(amount ? { Amount: amount } : {}) },
      });
      fixtures.pageLinkReferences.push(page.json().data.paymentLink.reference);
    }

    const endpoint = await app.inject({ method: 'POST', url: '/checkout/webhooks', headers: secret, payload: { url: 'http://127.0.0.1:9/hooks' } });
    const endpointId = endpoint.json().data?.id;
    if (endpointId) fixtures.endpointIds.push(endpointId);
    const paid = await client.newOrder();
    fixtures.orderReferences.push(paid);
    await client.payByCard(paid, '5555555555554444');
    if (endpointId) {
      const deliveries = await app.inject({ method: 'GET', url: `/checkout/webhooks/${endpointId}/deliveries`, headers: secret });
      for (const delivery of deliveries.json().data ?? []) fixtures.deliveryIds.push(delivery.id);
    }

    const session = await app.inject({ method: 'POST', url: '/checkout/embed/sessions', headers: { 'api-key': keys.publishableKey, origin: ORIGIN } });
    const frameUrl: string | undefined = session.json().data?.frameUrl;
    if (frameUrl) fixtures.frameTokens.push(frameUrl.split('/').pop()!);
    fixtures.customerSessions.push(await client.customerSession(`fuzz-customer-${fixtures.customerSessions.length}`));
    const vouched = await client.post('/checkout/order/create', orderPayload(newReference()), keys.secretKey);
    const clientToken = vouched.json().data?.clientToken?.token;
    if (clientToken) fixtures.clientTokens.push(clientToken);
  }
  return fixtures;
}

// ---------------------------------------------------------------------------------------------------------------
// Values

/** Card numbers an input may carry in its card fields: the sandbox's test cards and any Luhn-valid number. */
const luhnValid = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 12, maxLength: 18 }).map((digits) => {
  const body = [4, ...digits];
  let sum = 0;
  for (let index = 0; index < body.length; index += 1) {
    let digit = body[body.length - 1 - index]!;
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return [...body, (10 - (sum % 10)) % 10].join('');
});
const cardNumber = fc.oneof(
  fc.constantFrom(...TEST_CARDS.map((test) => test.number), '5555555555554444', '5123450000784608'),
  luhnValid,
  fc.constantFrom('4242 4242 4242 4242', '5555-5555-5555-4444'),
);

const odd = fc.constantFrom(
  '',
  ' ',
  '0',
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  'null',
  'true',
  '[]',
  '{}',
  '\u0000',
  '\u202e',
  '\ud800',
  '../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '%00',
  '%s%n',
  '${7*7}',
  'x'.repeat(5000),
  '٣٤٥',
  '５０００',
  '1,000.50',
  '5 000,50',
  '0x10',
  '1_000',
  '2147483648',
  '99999999999999999999999',
  'toString',
  '__proto__',
  'constructor',
);
const oddNumber = fc.constantFrom(0, -0, -1, 0.1 + 0.2, 1e-7, 1e21, 1e308, 2147483647, 2147483648, -2147483649, Number.MAX_SAFE_INTEGER, 12.345, 5000.5);

/** Any JSON value a careless or hostile client could put where another was expected. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: odd },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: oddNumber },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 }) },
);

/** Text safe for a header value (visible ASCII) or a URL once encoded. */
const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 120 });
const pathText = fc.oneof(
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.constantFrom('..%2F..%2Fpackage.json', '%2e%2e', '%', '%zz', '%00', 'a'.repeat(1100), '0', '-1', '2147483648', '1.5', 'null', 'we_', 'wd_'),
);

const MISSING = Symbol('missing');
type Template = unknown;

/** A template's values, each kept (mostly), replaced by junk, or dropped; its keys sometimes re-cased; extra members. */
export function mutate(template: Template): fc.Arbitrary<unknown> {
  if (template instanceof fc.Arbitrary) return fc.oneof({ weight: 19, arbitrary: template as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: junk });
  if (Array.isArray(template)) {
    return fc.oneof({ weight: 19, arbitrary: fc.array(mutate(template[0]), { minLength: 1, maxLength: 3 }) }, { weight: 1, arbitrary: fc.array(junk, { maxLength: 3 }) }, { weight: 1, arbitrary: junk });
  }
  if (template && typeof template === 'object') {
    const members = Object.entries(template).map(([key, value]) =>
      fc.tuple(
        fc.oneof({ weight: 19, arbitrary: fc.constant(key) }, { weight: 1, arbitrary: fc.constantFrom(key.toLowerCase(), key.toUpperCase()) }),
        fc.oneof({ weight: 29, arbitrary: mutate(value) }, { weight: 1, arbitrary: fc.constant<unknown>(MISSING) }),
      ),
    );
    const extra = fc.tuple(fc.oneof(fc.constantFrom(...FIELD_NAMES, '__proto__', 'constructor', 'toString'), fc.string({ maxLength: 10 })), junk);
    const extras = fc.oneof({ weight: 9, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(extra, { minLength: 1, maxLength: 2 }) });
    const object = fc.tuple(fc.tuple(...members), extras).map(([kept, extra]) => {
      const result: Record<string, unknown> = {};
      for (const [key, value] of [...kept, ...extra]) if (value !== MISSING) Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
      return result;
    });
    return fc.oneof({ weight: 29, arbitrary: object }, { weight: 1, arbitrary: junk });
  }
  return fc.oneof({ weight: 19, arbitrary: fc.constant(template) }, { weight: 1, arbitrary: junk });
}

/** Names of request members anywhere in the API: an unknown route's bodies are objects of these and junk. */
const FIELD_NAMES = [
  'reference',
  'amount',
  'currency',
  'reason',
  'paymentoption',
  'card',
  'cardToken',
  'customer',
  'order',
  'payment',
  'email',
  'url',
  'id',
  'status',
  'frequencyId',
  'numberOfPayments',
  'customerReference',
  'accountNumber',
  'eventname',
  'orderreference',
  'Name',
  'Description',
  'Amount',
  'interval',
  'planId',
  'subscriptionId',
] as const;

/** A member mostly left out. */
const rarely = (arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> => fc.oneof({ weight: 9, arbitrary: fc.constant(MISSING) }, { weight: 1, arbitrary });

/** Mostly a valid value, sometimes one the route must refuse. */
const mostly = <T>(valid: T[], invalid: T[]): fc.Arbitrary<T> =>
  fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...valid) }, { weight: 1, arbitrary: fc.constantFrom(...invalid) });

function templates(f: Fixtures): Record<string, Template> {
  const orderReference = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...f.orderReferences) }, { weight: 1, arbitrary: fc.constant(newReference()) }, { weight: 1, arbitrary: headerText });
  const card = { cardnumber: cardNumber, expirymonth: mostly<string | number>(['01', '12', 1], ['13', 0]), expiryyear: mostly<string | number>(['39', '2039', 39], ['20']), cvv: mostly(['193', '987'], ['12345', '1']), save: fc.boolean() };
  const link = {
    Name: 'Tickets',
    Description: 'Two tickets',
    PaymentType: mostly(['SC', 'MC', 'SUB', 'sc'], ['XX']),
    Currency: mostly(['NGN', 'USD', 'KES', 'XOF'], ['JPY', 'XXX']),
    AuthOption: fc.constantFrom('AUTH', 'NOAUTH'),
    Amount: fc.oneof({ weight: 6, arbitrary: fc.constantFrom<string | number>('5800.50', 100, '') }, { weight: 1, arbitrary: oddNumber }),
    Mobile: '+2348012345678',
    BackgroundImage: mostly(['https://cdn.shop.test/a.png'], ['javascript:alert(1)']),
    Website: mostly(['https://shop.test/thanks'], ['ftp://x']),
    Limit: mostly<string | number>([1, '10'], [0]),
  };
  const create = (() => {
    const base = orderPayload('x');
    return {
      customer: { ...base.customer, email: fc.oneof({ weight: 9, arbitrary: fc.constant('ada@example.test') }, { weight: 1, arbitrary: fc.constantFrom('not-an-email', '') }) },
      order: {
        amount: fc.oneof({ weight: 12, arbitrary: fc.constant(5000) }, { weight: 1, arbitrary: fc.constantFrom(0.01, 1e9) }, { weight: 1, arbitrary: oddNumber }),
        reference: fc.oneof(fc.constant(0).map(() => newReference()), orderReference),
        description: 'Two tickets',
        currency: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('NGN', 'USD') }, { weight: 1, arbitrary: fc.constantFrom('JPY', 'BHD', 'XXX') }),
        items: [{ name: 'Ticket', amount: 5000 }],
      },
      payment: { RedirectUrl: mostly(['https://merchant.test/return'], ['javascript:alert(1)']) },
      paymentMeta: { ipAddress: '127.0.0.1', note: 'gift' },
    };
  })();
  return {
    'POST /checkout/order/create': create,
    'POST /checkout/order/pay': {
      reference: orderReference,
      paymentoption: mostly(['C', 'C', 'bank-transfer', 'BT', 'BANK-TRANSFER'], ['crypto']),
      country: 'NG',
      card,
      cardToken: rarely(fc.constantFrom('sbx_card_nope', 'x')),
      BankTransfer: { bankcode: fc.constantFrom('999', '058') },
    },
    'POST /checkout/order/fee': { reference: orderReference, amount: fc.oneof(fc.constantFrom(100, 5000), oddNumber), currency: fc.constantFrom('NGN', 'USD'), paymentoption: fc.constantFrom('C', 'bank-transfer') },
    'POST /checkout/order/status': { reference: orderReference },
    'POST /checkout/order/verify': { reference: orderReference },
    'POST /checkout/order/event/track': { eventname: fc.constantFrom('opened', 'closed', 'x'.repeat(300)), orderreference: orderReference, detail: 'fuzz' },
    'POST /checkout/links/create': link,
    'PATCH /checkout/links/:id/edit': link,
    'POST /checkout/customers/sessions': { customerReference: fc.oneof(fc.constantFrom('fuzz-customer-0'), headerText) },
    'POST /checkout/sandbox/transfers': { accountNumber: fc.oneof(fc.constantFrom(...f.transferAccounts), fc.constant('0123456789')), amount: fc.oneof(fc.constantFrom(5000, 50.75, 10), oddNumber) },
    'POST /checkout/webhooks': { url: fc.constantFrom('https://hooks.shop.test/x', 'http://127.0.0.1:9/x', 'http://user:pw@h.test/', 'file:///etc/passwd', 'http://[::1]/') },
    'POST /checkout/3ds/:paymentReference': { action: fc.constantFrom('approve', 'fail', 'other'), code: fc.oneof(fc.constantFrom('000000', '123456'), headerText) },
    'POST /l/:reference': {
      firstname: 'Ada',
      lastname: 'Obi',
      email: fc.constantFrom('ada@example.test', 'nope'),
      mobile: fc.constantFrom('+2348012345678', 'abc'),
      amount: fc.constantFrom('5000', '5,000.50', '5 000,50', '0', '-3', ''),
      order: fc.oneof(fc.constant('LNK-0123456789ABCDEF01234567'), fc.constant(''), headerText),
    },
  };
}

function genericBody(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.dictionary(fc.constantFrom(...FIELD_NAMES), junk, { maxKeys: 5 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

/** Values for a path parameter, by its name: the app's own (found, foreign, used) and arbitrary text. */
function paramValues(f: Fixtures, name: string): fc.Arbitrary<string> {
  const known: Record<string, string[]> = {
    id: f.linkIds,
    endpointId: f.endpointIds,
    deliveryId: f.deliveryIds,
    paymentReference: f.paymentReferences,
    token: f.frameTokens,
    reference: [...f.pageLinkReferences, ...f.pageLinkReferences, ...f.linkReferences, ...f.orderReferences.slice(0, 4)],
  };
  const own = known[name] ?? [...f.orderReferences, ...f.linkIds, ...f.endpointIds];
  return own.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...own) }, { weight: 2, arbitrary: pathText }) : pathText;
}

// ---------------------------------------------------------------------------------------------------------------
// Requests

type BodyPlan =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'encrypted'; scheme: 'jwe-ec' | 'jwe-rsa' | 'legacy'; plain: unknown; foreignKey: boolean }
  | { kind: 'data'; data: unknown }
  | { kind: 'raw'; contentType: string; text: string };

export type Plan = {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: BodyPlan;
};

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** `data` blobs that are not a readable payload: every one must get the same VAL400. */
const malformedData: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 100 }),
  fc.array(fc.uint8Array({ maxLength: 40 }), { minLength: 5, maxLength: 5 }).map((parts) => parts.map(b64url).join('.')),
  fc
    .tuple(fc.dictionary(fc.constantFrom('alg', 'enc', 'kid', 'zip', 'crit', 'p2c', 'p2s', 'epk', 'jku', 'x5u', 'cty'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }), fc.array(fc.uint8Array({ maxLength: 48 }), { minLength: 4, maxLength: 4 }))
    .map(([header, parts]) => [Buffer.from(JSON.stringify(header)).toString('base64url'), ...parts.map(b64url)].join('.')),
  fc.uint8Array({ minLength: 512, maxLength: 512 }).map((bytes) => Buffer.from(bytes).toString('base64')),
  fc.uint8Array({ minLength: 1, maxLength: 700 }).map((bytes) => Buffer.from(bytes).toString('base64')),
  fc.constantFrom('', '.', '....', 'a.b.c.d.e', '=', 'A'.repeat(684), 'A'.repeat(683) + '='),
  junk,
);

export function planFor(endpoint: Endpoint, f: Fixtures): fc.Arbitrary<Plan> {
  const known = templates(f)[endpointName(endpoint)];
  const plain = known === undefined ? genericBody() : mutate(known);
  const form = known !== undefined && (endpoint.url.startsWith('/l/') || endpoint.url.startsWith('/checkout/3ds/'));

  const params = endpoint.url.match(/:\w+|\*/g) ?? [];
  const path = fc.tuple(...params.map((param) => (param === '*' ? fc.array(pathText, { maxLength: 3 }).map((parts) => parts.join('/')) : paramValues(f, param.slice(1))))).map((values) => {
    let index = 0;
    const filled = endpoint.url.replace(/:\w+|\*/g, () => values[index++] ?? '');
    return filled.startsWith('/') ? filled : `/${filled}`;
  });

  const queryKeys = [...endpoint.queryKeys, 'page', 'limit', 'reference', 'status', 'order', 'invalid', 'lang'];
  const queryValue = fc.oneof(fc.constantFrom(...f.orderReferences, 'successful', 'failed', '1', '0', '-5', '100000', 'email,amount'), fc.string({ maxLength: 30 }));
  const query = fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    { weight: 4, arbitrary: fc.array(fc.tuple(fc.constantFrom(...queryKeys), queryValue), { maxLength: 4 }).map((pairs) => `?${new URLSearchParams(pairs).toString()}`) },
    { weight: 1, arbitrary: fc.constantFrom('?%zz', '?&&=&', '?page=1&page=2', '?limit[]=5', '?reference=%00', `?${'a=1&'.repeat(200)}`) },
  );

  const keys = f.merchants.flatMap((merchant) => [merchant.publishableKey, merchant.secretKey]);
  // Each header is absent most of the time, so most inputs get past authentication to the route's own checks.
  const sometimes = <T>(arbitrary: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | undefined> =>
    fc.noBias(fc.integer({ min: 1, max: 100 })).chain((roll) => (roll <= percent ? arbitrary : fc.constant(undefined)));
  const headers = fc
    .record({
      'api-key': sometimes(
        fc.oneof(
          // Mostly the key the route takes (the secret one on secret-key routes), so most inputs reach the route's checks.
          { weight: 8, arbitrary: endpoint.auth === 'secret' ? fc.constant(keys[1]!) : fc.constantFrom(keys[0]!, keys[1]!) },
          { weight: 2, arbitrary: fc.constantFrom(...keys) },
          { weight: 1, arbitrary: headerText },
        ),
        95,
      ),
      'idempotency-key': sometimes(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...f.idempotencyKeys) }, { weight: 2, arbitrary: headerText }, { weight: 1, arbitrary: fc.constant('k'.repeat(300)) }), 20),
      'checkout-client-token': sometimes(fc.oneof(fc.constantFrom(...f.clientTokens, 'x.y.z'), headerText), 4),
      'checkout-customer-session': sometimes(fc.oneof(fc.constantFrom(...f.customerSessions), headerText), 5),
      origin: sometimes(fc.constantFrom(ORIGIN, 'https://evil.test', 'null', 'http://[::1]:8080', 'http://localhost:3000'), endpoint.url.includes('embed') ? 80 : 10),
      'accept-language': sometimes(fc.oneof(fc.constantFrom('fr-FR,fr;q=0.9', 'en', '*', 'zz'), headerText), 30),
      'x-forwarded-for': sometimes(fc.constantFrom('10.0.0.1', 'garbage'), 5),
    })
    .map((record) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Record<string, string>);

  const hasBody = !['GET', 'HEAD', 'OPTIONS'].includes(endpoint.method);
  const body: fc.Arbitrary<BodyPlan> = hasBody
    ? fc.oneof(
        { weight: form ? 1 : endpoint.encrypted ? 1 : 8, arbitrary: plain.map((value): BodyPlan => ({ kind: 'json', value })) },
        {
          weight: form ? 0 : endpoint.encrypted ? 10 : 1,
          arbitrary: fc
            .tuple(fc.constantFrom<'jwe-ec' | 'jwe-rsa' | 'legacy'>('jwe-ec', 'jwe-ec', 'jwe-rsa', 'legacy', 'legacy'), fc.oneof({ weight: 9, arbitrary: plain }, { weight: 1, arbitrary: fc.string({ maxLength: 60 }) }), fc.noBias(fc.nat(9)))
            .map(([scheme, value, foreign]): BodyPlan => ({ kind: 'encrypted', scheme, plain: value, foreignKey: foreign === 0 })),
        },
        { weight: form ? 0 : 1, arbitrary: malformedData.map((data): BodyPlan => ({ kind: 'data', data })) },
        {
          weight: form ? 5 : 1,
          arbitrary: plain.map((value): BodyPlan => ({
            kind: 'raw',
            contentType: 'application/x-www-form-urlencoded',
            text: new URLSearchParams(value && typeof value === 'object' ? Object.entries(value).map(([key, member]) => [key, typeof member === 'string' ? member : JSON.stringify(member) ?? '']) : []).toString(),
          })),
        },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.constantFrom('application/json', 'text/plain', 'application/json; charset=latin1', 'multipart/form-data; boundary=x', 'application/xml'), fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom('{', '{"a":', '[1,2', 'null', '{"data":', '\ufeff{}', '{"__proto__":{"x":1}}')))
            .map(([contentType, text]): BodyPlan => ({ kind: 'raw', contentType, text })),
        },
        { weight: 1, arbitrary: fc.constant<BodyPlan>({ kind: 'none' }) },
      )
    : fc.oneof({ weight: 9, arbitrary: fc.constant<BodyPlan>({ kind: 'none' }) }, { weight: 1, arbitrary: plain.map((value): BodyPlan => ({ kind: 'json', value })) });

  const method = endpoint.method === 'GET' ? fc.oneof({ weight: 9, arbitrary: fc.constant('GET') }, { weight: 1, arbitrary: fc.constant('HEAD') }) : fc.constant(endpoint.method);
  return fc.record({ method, path, query, headers, body });
}

const encryptionKeyCache = new Map<string, Promise<CryptoKey | Uint8Array>>();

async function encryptPlan(plan: Extract<BodyPlan, { kind: 'encrypted' }>, apiKey: string | undefined, f: Fixtures): Promise<string> {
  const merchant = plan.foreignKey || !apiKey || !f.jwks.has(apiKey) ? f.merchants[1]!.publishableKey : apiKey;
  const text = typeof plan.plain === 'string' ? plan.plain : JSON.stringify(plan.plain) ?? 'null';
  if (plan.scheme === 'legacy' && Buffer.byteLength(text) <= 501) {
    return publicEncrypt({ key: f.legacyKeys.get(merchant)!, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(text)).toString('base64');
  }
  const alg = plan.scheme === 'jwe-rsa' ? 'RSA-OAEP-256' : 'ECDH-ES+A256KW';
  const jwk = f.jwks.get(merchant)!.find((key) => key.alg === alg)!;
  const cacheKey = `${merchant}:${alg}`;
  if (!encryptionKeyCache.has(cacheKey)) encryptionKeyCache.set(cacheKey, importJWK(jwk, alg) as Promise<CryptoKey | Uint8Array>);
  return new CompactEncrypt(Buffer.from(text)).setProtectedHeader({ alg, enc: 'A256GCM', kid: jwk.kid }).encrypt(await encryptionKeyCache.get(cacheKey)!);
}

export async function toInject(plan: Plan, f: Fixtures): Promise<InjectOptions> {
  const headers: Record<string, string> = { ...plan.headers };
  let payload: string | undefined;
  const body = plan.body;
  if (body.kind === 'json') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body.value) ?? 'null';
  } else if (body.kind === 'encrypted') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify({ data: await encryptPlan(body, headers['api-key'], f) });
  } else if (body.kind === 'data') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify({ data: body.data });
  } else if (body.kind === 'raw') {
    headers['content-type'] = body.contentType;
    payload = body.text;
  }
  return { method: plan.method as InjectOptions['method'], url: `${plan.path}${plan.query}`, headers, ...(payload === undefined ? {} : { payload }) };
}

// ---------------------------------------------------------------------------------------------------------------
// The property

const STACK = /\n\s+at [^\n]*:\d+:\d+|node_modules\/|\.ts:\d+:\d+|(?:Type|Reference|Range|Syntax)Error:/;
const ERROR_CODES = new Set(['VAL400', 'AUTH401', 'AUTH403', 'NF404', 'CON409', 'IDEM422', 'RATE429']);

/** The card numbers an input carries in its body (what the server must never answer back). */
function cardNumbersIn(plan: Plan): string[] {
  const body = plan.body;
  const text = body.kind === 'json' || body.kind === 'encrypted' ? JSON.stringify(body.kind === 'json' ? body.value : body.plain) ?? '' : body.kind === 'raw' ? body.text : '';
  const found = new Set<string>();
  for (const match of text.matchAll(/\d(?:[ -]?\d){12,18}/g)) {
    const digits = match[0].replace(/\D/g, '');
    if (isLuhnValid(digits)) {
      found.add(digits);
      found.add(match[0]);
    }
  }
  return [...found];
}

function isLuhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length >= 13 && sum % 10 === 0;
}

/** What is wrong with an answer to `plan` (empty when nothing is). */
export function problemsWith(endpoint: Endpoint, plan: Plan, response: LightMyRequestResponse): string[] {
  const problems: string[] = [];
  const status = response.statusCode;
  if (status >= 500) problems.push(`answered ${status}`);
  const text = response.body;
  if (STACK.test(text)) problems.push('the answer holds a stack trace or an internal error name');
  for (const number of cardNumbersIn(plan)) if (text.includes(number)) problems.push('the answer echoes a card number from the request');
  const allow = String(response.headers['allow'] ?? '').split(/,\s*/);
  if (status === 405 && (allow.includes(plan.method) || (plan.method === 'HEAD' && allow.includes('GET')))) problems.push(`a 405 for ${plan.method}, which its Allow header lists`);
  const type = String(response.headers['content-type'] ?? '');
  if (status >= 400 && status < 500 && plan.method !== 'HEAD') {
    if (type.startsWith('application/json')) {
      let envelope: unknown;
      try {
        envelope = JSON.parse(text);
      } catch {
        problems.push(`a ${status} answer whose JSON does not parse`);
      }
      const value = envelope as Record<string, unknown> | undefined;
      if (value && (value['status'] !== 'failed' || !ERROR_CODES.has(String(value['statusCode'])) || typeof value['message'] !== 'string' || 'data' in value)) {
        problems.push(`a ${status} answer that is not the error envelope: ${text.slice(0, 200)}`);
      }
    } else if (endpoint.auth !== undefined || !type.startsWith('text/html')) {
      // API routes answer errors with the envelope; only pages for people may answer with an HTML page.
      problems.push(`a ${status} answer of type ${type || 'none'} instead of the error envelope`);
    }
  }
  return problems;
}

/**
 * Answers that create an order: the only ones after which the number of orders may grow. A GET, HEAD or OPTIONS
 * never does; a route this file does not know yet (subscriptions, say) may, but only with a 2xx.
 */
const createsOrders = (endpoint: Endpoint, plan: Plan, response: LightMyRequestResponse): boolean => {
  const name = endpointName(endpoint);
  if (['GET', 'HEAD', 'OPTIONS'].includes(plan.method) || ['GET', 'HEAD', 'OPTIONS'].includes(endpoint.method)) return false;
  if (name === 'POST /checkout/order/create') return response.statusCode === 200;
  if (name === 'POST /l/:reference') return response.statusCode === 303;
  return !KNOWN_NOT_CREATING.has(name) && response.statusCode < 300;
};

const KNOWN_NOT_CREATING = new Set([
  'POST /checkout/order/pay',
  'POST /checkout/order/fee',
  'POST /checkout/order/status',
  'POST /checkout/order/verify',
  'POST /checkout/order/event/track',
  'POST /checkout/links/create',
  'PATCH /checkout/links/:id/edit',
  'PATCH /checkout/links/:id/status/activate',
  'PATCH /checkout/links/:id/status/disable',
  'POST /checkout/customers/sessions',
  'POST /checkout/sandbox/transfers',
  'POST /checkout/webhooks',
  'POST /checkout/webhooks/:endpointId/rotate-secret',
  'POST /checkout/webhooks/:endpointId/disable',
  'POST /checkout/webhooks/deliveries/:deliveryId/resend',
  'POST /checkout/embed/sessions',
  'POST /checkout/3ds/:paymentReference',
]);

export type EndpointReport = {
  endpoint: string;
  runs: number;
  statuses: Record<string, number>;
  serverErrors: number;
  failure?: string;
  ordersBefore: number;
  ordersAfter: number;
  creates: number;
  milliseconds: number;
};

const countOrders = async (app: FastifyInstance) => Number((await app.storage.query<{ count: number }>('SELECT count(*)::int AS count FROM orders'))[0]!.count);

/** Runs `runs` inputs at one endpoint (or fewer if `timeLimitMs` passes first) and checks every answer. */
export async function fuzzEndpoint(app: FastifyInstance, endpoint: Endpoint, f: Fixtures, options: { runs: number; timeLimitMs: number; seed?: number | undefined; path?: string | undefined }): Promise<EndpointReport> {
  const started = Date.now();
  const statuses: Record<string, number> = {};
  let serverErrors = 0;
  let creates = 0;
  let runs = 0;
  const ordersBefore = await countOrders(app);
  const result = await fc.check(
    fc.asyncProperty(planFor(endpoint, f), async (plan) => {
      const request = await toInject(plan, f);
      const response = await app.inject(request);
      runs += 1;
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
      if (response.statusCode >= 500) serverErrors += 1;
      if (createsOrders(endpoint, plan, response)) creates += 1;
      const problems = problemsWith(endpoint, plan, response);
      if (problems.length > 0) throw new Error(`${problems.join('; ')}\nrequest: ${describeRequest(request)}\nanswer: ${response.statusCode} ${response.body.slice(0, 300)}`);
    }),
    { numRuns: options.runs, interruptAfterTimeLimit: options.timeLimitMs, markInterruptAsFailure: false, endOnFailure: true, ...(options.seed === undefined ? {} : { seed: options.seed }), ...(options.path === undefined ? {} : { path: options.path }) },
  );
  const ordersAfter = await countOrders(app);
  let failure: string | undefined;
  if (result.failed) failure = `${String((result.errorInstance as Error | undefined)?.message ?? result.errorInstance)} (replay: FUZZ_SEED=${result.seed} FUZZ_PATH=${result.counterexamplePath})`;
  else if (ordersAfter - ordersBefore > creates) failure = `orders grew by ${ordersAfter - ordersBefore} with ${creates} successful creates`;
  return { endpoint: endpointName(endpoint), runs, statuses, serverErrors, ...(failure ? { failure } : {}), ordersBefore, ordersAfter, creates, milliseconds: Date.now() - started };
}

/** A request as a failure report shows it: method, address, header names and the body's first bytes. */
function describeRequest(request: InjectOptions): string {
  const payload = typeof request.payload === 'string' ? request.payload.slice(0, 300) : '';
  return `${request.method} ${String(request.url).slice(0, 300)} headers=${Object.keys(request.headers ?? {}).join(',')} body=${payload}`;
}

/** Stored orders and payments are consistent (test/support/consistency.ts). */
export const storedDataFindings = (app: FastifyInstance) => consistencyFindings(app.storage);

// ---------------------------------------------------------------------------------------------------------------
// The frame's message handlers (widget/embed/protocol.ts): what the checkout frame and the embedding page accept.

const settingValue = fc.oneof(junk, fc.string({ maxLength: 600 }), fc.string({ maxLength: 2100 }), fc.array(fc.record({ name: junk, amount: junk }), { maxLength: 3 }));
const message = fc.oneof(
  { weight: 2, arbitrary: fc.anything({ maxDepth: 3 }) },
  {
    weight: 5,
    arbitrary: fc.record(
      {
        protocol: fc.oneof({ weight: 5, arbitrary: fc.constant(PROTOCOL) }, { weight: 1, arbitrary: junk }),
        kind: fc.oneof({ weight: 5, arbitrary: fc.constantFrom('settings', 'ready', 'event', 'resize', 'escape') }, { weight: 1, arbitrary: junk }),
        settings: fc.oneof(fc.dictionary(fc.oneof(fc.constantFrom(...SETTING_NAMES, '__proto__', 'api-base', 'redirect-url'), fc.string({ maxLength: 10 })), settingValue, { maxKeys: 8 }), junk),
        modal: junk,
        height: fc.oneof(fc.double(), fc.integer()),
        event: fc.oneof(fc.record({ type: fc.constantFrom('checkout:ready', 'checkout:success', 'x'), reference: junk, status: fc.constantFrom('Successful', null, 'x'), method: junk, code: junk, message: junk }), junk),
      },
      { requiredKeys: [] },
    ),
  },
);

/** What a message the guards let through may hold: known settings of the right types and lengths, nothing else. */
export function messageProblems(data: unknown): string[] {
  const problems: string[] = [];
  let parent: ReturnType<typeof asParentMessage>;
  let frame: ReturnType<typeof asFrameMessage>;
  try {
    parent = asParentMessage(data);
    frame = asFrameMessage(data);
  } catch (error) {
    return [`the guard threw ${String(error)}`];
  }
  if (parent) {
    if (parent.protocol !== PROTOCOL || parent.kind !== 'settings' || typeof parent.modal !== 'boolean') problems.push('a settings message of the wrong shape got through');
    for (const [name, value] of Object.entries(parent.settings)) {
      if (!(SETTING_NAMES as readonly string[]).includes(name)) problems.push(`an unknown setting ${name} got through`);
      else if (name === 'amount' ? !(typeof value === 'number' && Number.isFinite(value)) : name === 'items' ? !Array.isArray(value) || value.length > 100 : typeof value !== 'string' || value.length > 2048) {
        problems.push(`the setting ${name} got through with a bad value`);
      }
    }
    if (Object.getPrototypeOf(parent.settings) !== Object.prototype) problems.push('the settings object has a foreign prototype');
  }
  if (frame) {
    if (frame.protocol !== PROTOCOL) problems.push('a frame message of another protocol got through');
    if (frame.kind === 'resize' && !(frame.height >= 0 && frame.height < 100_000)) problems.push('a resize with a bad height got through');
    if (frame.kind === 'event' && (typeof frame.event !== 'object' || frame.event === null)) problems.push('an event without its detail got through');
  }
  return problems;
}

export async function fuzzMessages(runs: number, timeLimitMs: number): Promise<{ runs: number; accepted: number; failure?: string }> {
  let count = 0;
  let accepted = 0;
  const result = await fc.check(
    fc.property(message, (data) => {
      count += 1;
      if (asParentMessage(data) || asFrameMessage(data)) accepted += 1;
      const problems = messageProblems(data);
      if (problems.length > 0) throw new Error(problems.join('; '));
    }),
    { numRuns: runs, interruptAfterTimeLimit: timeLimitMs, markInterruptAsFailure: false },
  );
  return { runs: count, accepted, ...(result.failed ? { failure: `${String((result.errorInstance as Error | undefined)?.message)} (seed ${result.seed})` } : {}) };
}
