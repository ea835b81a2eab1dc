import { beforeAll, describe, expect, it } from 'vitest';
import { everyEndpoint } from '../../shared/contract/index.ts';
import { useTestApp } from '../support/app.ts';

type Document = { paths: Record<string, Record<string, { summary?: string; responses: Record<string, unknown> }>> };

/**
 * The routes of the API that predate the contract (the gateway's wire surface and the first merchant routes). The
 * list only shrinks: each moves into `shared/contract/` as its resource is rewritten (issue 29).
 */
const ROUTES_BEFORE_THE_CONTRACT = new Set([
  'GET /checkout/banks', 'GET /checkout/frequencies', 'GET /checkout/keys', 'GET /checkout/links/all', 'GET /checkout/links/types',
  'GET /checkout/links/{link}/subscriptions', 'GET /checkout/result', 'GET /checkout/3ds/{paymentReference}', 'GET /checkout/frame/{token}',
  'POST /checkout/customers/sessions', 'POST /checkout/embed/sessions', 'POST /checkout/frame', 'POST /checkout/links/create',
  'POST /checkout/links/{id}/edit', 'PATCH /checkout/links/{id}/edit', 'PUT /checkout/links/{id}/edit', 'POST /checkout/links/recurringpayment/{id}/cancel',
  'POST /checkout/order/create', 'POST /checkout/order/event/track', 'POST /checkout/order/fee', 'POST /checkout/order/pay',
  'POST /checkout/order/refund', 'POST /checkout/order/status', 'POST /checkout/order/verify', 'POST /checkout/sandbox/encrypt',
  'POST /checkout/sandbox/clock', 'POST /checkout/subscriptions/cancel', 'POST /checkout/3ds/{paymentReference}',
  'PATCH /checkout/links/{id}/status/activate', 'PATCH /checkout/links/{id}/status/disable', 'PATCH /checkout/links/recurringpayment/{id}/cancel',
  'GET /checkout/subscriptions/cancel',
  // The TransactPay family's own status answer (issue 34): registered the classic way beside its /checkout twin.
  'POST /payment/order/status',
  // The Dart package's four further calls (issue 34 item 7), classic routes beside their gateway siblings.
  'PATCH /checkout/order/save-card', 'POST /checkout/order/card/tokenized/pay', 'GET /checkout/paymentlink/info', 'POST /checkout/paymentlink/get-keys',
  // The checkout frame's resume on another site (issue 35): an encrypted classic route beside /checkout/order/status,
  // answering in the gateway's envelope the widget reads, so it is registered the classic way with its siblings.
  'POST /checkout/order/resume',
]);

const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

describe('the contract and the routes the app registers', () => {
  const context = useTestApp('pglite');
  let registered: Set<string>;

  beforeAll(async () => {
    const document = (await context.app.inject({ method: 'GET', url: '/docs/json' })).json() as Document;
    registered = new Set(
      Object.entries(document.paths)
        .filter(([path]) => path.startsWith('/checkout/') || path.startsWith('/payment/'))
        .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`)),
    );
  });

  it('registers every endpoint of the contract, with its summary and its error answers', async () => {
    const document = (await context.app.inject({ method: 'GET', url: '/docs/json' })).json() as Document;
    for (const endpoint of everyEndpoint()) {
      const operation = document.paths[openApiPath(endpoint.path)]?.[endpoint.method.toLowerCase()];
      expect(operation, `${endpoint.method} ${endpoint.path}`).toBeDefined();
      expect(operation!.summary).toBe(endpoint.summary);
      for (const code of endpoint.errors) {
        const status = { VAL400: '400', AUTH401: '401', AUTH403: '403', NF404: '404', CON409: '409', IDEM422: '422', RATE429: '429', ERR500: '500' }[code];
        expect(operation!.responses[status], `${endpoint.path} answers ${code}`).toBeDefined();
      }
    }
  });

  it('registers no route of the API outside the contract but those that predate it', () => {
    const declared = new Set(everyEndpoint().map((endpoint) => `${endpoint.method} ${openApiPath(endpoint.path)}`));
    const outside = [...registered].filter((route) => !declared.has(route) && !ROUTES_BEFORE_THE_CONTRACT.has(route));
    expect(outside).toEqual([]);
  });

  it('declares no endpoint twice', () => {
    const keys = everyEndpoint().map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
