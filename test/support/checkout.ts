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
  ) {}

  async encrypt(plain: unknown): Promise<string> {
    return this.scheme === 'legacy' ? encryptLegacy(this.keys.encryptionKey, plain) : encryptJwe(this.app, this.keys.publishableKey, plain);
  }

  async post(url: string, plain: unknown, apiKey = this.keys.publishableKey): Promise<LightMyRequestResponse> {
    return this.app.inject({ method: 'POST', url, headers: { 'api-key': apiKey }, payload: { data: await this.encrypt(plain) } });
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
