import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { IssuedKeys } from '../../bff/services/merchants.ts';
import { encryptJwe, encryptLegacy } from './encrypt.ts';

/**
 * A client of the checkout API for tests: encrypts order payloads the way SDKs do (JWE by default, or the
 * legacy RSA block), and drives the hosted 3-D Secure page and the sandbox bank like a customer would.
 */
export type Scheme = 'jwe' | 'legacy';

export const newReference = (prefix = 'ORD') => `${prefix}-${randomBytes(6).toString('hex')}`;

export function orderPayload(reference = newReference(), overrides: { order?: object; customer?: object; payment?: object } = {}) {
  return {
    customer: { firstname: 'Ada', lastname: 'Obi', mobile: '+2348012345678', country: 'NG', email: 'ada@example.test', ...overrides.customer },
    order: { amount: 5000, reference, description: 'Two tickets', currency: 'NGN', ...overrides.order },
    payment: { RedirectUrl: 'https://merchant.test/return', ...overrides.payment },
  };
}

export const card = (number: string, extra: object = {}) => ({ cardnumber: number, expirymonth: '01', expiryyear: '39', cvv: '193', ...extra });

export class CheckoutClient {
  constructor(
    readonly app: FastifyInstance,
    readonly keys: IssuedKeys,
    readonly scheme: Scheme = 'jwe',
    /** Sent on every call: a client token or customer session from the merchant's server. */
    readonly headers: Record<string, string> = {},
  ) {}

  /** The same client, also sending these headers (`checkout-client-token`, `checkout-customer-session`). */
  with(headers: Record<string, string>): CheckoutClient {
    return new CheckoutClient(this.app, this.keys, this.scheme, { ...this.headers, ...headers });
  }

  /** What a merchant's server does for a customer it vouches for: a customer session for the checkout. */
  async customerSession(customerReference: string): Promise<string> {
    const response = await this.app.inject({
      method: 'POST',
      url: '/checkout/customers/sessions',
      headers: { 'api-key': this.keys.secretKey },
      payload: { customerReference },
    });
    if (response.statusCode !== 200) throw new Error(`customer session failed: ${response.body}`);
    return response.json().data.customerSession;
  }

  /** The same client as the checkout of a customer the merchant vouched for. */
  async asCustomer(customerReference: string): Promise<CheckoutClient> {
    return this.with({ 'checkout-customer-session': await this.customerSession(customerReference) });
  }

  async encrypt(plain: unknown): Promise<string> {
    return this.scheme === 'legacy' ? encryptLegacy(this.keys.encryptionKey, plain) : encryptJwe(this.app, this.keys.publishableKey, plain);
  }

  async post(url: string, plain: unknown, apiKey = this.keys.publishableKey): Promise<LightMyRequestResponse> {
    return this.app.inject({ method: 'POST', url, headers: { ...this.headers, 'api-key': apiKey }, payload: { data: await this.encrypt(plain) } });
  }

  createOrder(payload: unknown = orderPayload()) {
    return this.post('/checkout/order/create', payload);
  }

  /** Creates an order and returns its reference, failing loudly if creation did not succeed. */
  async newOrder(overrides: Parameters<typeof orderPayload>[1] = {}): Promise<string> {
    const reference = newReference();
    const response = await this.createOrder(orderPayload(reference, overrides));
    if (response.statusCode !== 200) throw new Error(`order creation failed: ${response.body}`);
    return reference;
  }

  pay(reference: string, payment: object) {
    return this.post('/checkout/order/pay', { reference, ...payment });
  }

  payByCard(reference: string, number: string, extra: object = {}) {
    return this.pay(reference, { paymentoption: 'C', country: 'NG', card: card(number, extra) });
  }

  payByTransfer(reference: string) {
    return this.pay(reference, { paymentoption: 'bank-transfer', country: 'NG', BankTransfer: { bankcode: '999' } });
  }

  status(reference: string) {
    return this.post('/checkout/order/status', { reference });
  }

  fee(plain: object) {
    return this.post('/checkout/order/fee', plain);
  }

  track(plain: object) {
    return this.post('/checkout/order/event/track', plain);
  }

  verify(reference: string) {
    return this.app.inject({ method: 'POST', url: '/checkout/order/verify', headers: { 'api-key': this.keys.secretKey }, payload: { reference } });
  }

  transfer(accountNumber: string, amount: number) {
    return this.app.inject({
      method: 'POST',
      url: '/checkout/sandbox/transfers',
      headers: { 'api-key': this.keys.secretKey },
      payload: { accountNumber, amount },
    });
  }

  /** Opens the hosted authentication page, reads the sandbox code off it, and answers as the customer would. */
  async authenticate(redirectUrl: string, answer: 'approve' | 'fail' | 'wrong-code' = 'approve'): Promise<LightMyRequestResponse> {
    const path = new URL(redirectUrl).pathname;
    const page = await this.app.inject({ method: 'GET', url: path });
    if (page.statusCode !== 200) throw new Error(`authentication page answered ${page.statusCode}`);
    const code = /data-testid="otp">(\d{6})</.exec(page.body)?.[1];
    if (!code) throw new Error('no one-time code on the authentication page');
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const form = new URLSearchParams({ action: answer === 'fail' ? 'fail' : 'approve', code: answer === 'wrong-code' ? wrong : code });
    return this.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
  }
}

/**
 * Where a stored or logged JSON text holds card data: the card number anywhere, a member named like a card
 * field, or the CVV as a value of its own (a string or number, also inside JSON kept as text). Generated
 * references and timestamps may hold the CVV's digits by chance; those are not the CVV, so the check never
 * looks for its digits inside other values.
 */
export function cardDataIn(json: string, secret: { number: string; cvv: string }): string[] {
  const found: string[] = [];
  if (json.includes(secret.number)) found.push('the card number');
  const visit = (value: unknown, path: string): void => {
    if (typeof value === 'string') {
      if (value === secret.cvv) found.push(`the CVV at ${path}`);
      if (/^[[{]/.test(value)) {
        try {
          visit(JSON.parse(value), path);
        } catch {
          // text that only starts like JSON
        }
      }
    } else if (typeof value === 'number') {
      if (String(value) === secret.cvv) found.push(`the CVV at ${path}`);
    } else if (value && typeof value === 'object') {
      for (const [key, member] of Object.entries(value)) {
        if (/^(cvv|cvc|card_?number|pan)$/i.test(key)) found.push(`the card member ${path}.${key}`);
        visit(member, `${path}.${key}`);
      }
    }
  };
  for (const line of json.split('\n').filter(Boolean)) visit(JSON.parse(line), '$');
  return found;
}
