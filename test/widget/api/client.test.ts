import { expect } from 'chai';
import { ApiError, CheckoutApi } from '../../../widget/api/client.ts';
import { API_KEY, ApiStub } from '../support/api-stub.ts';
import { createOrderAnswer, orderData, REFERENCE, statusAnswer } from '../support/fixtures.ts';

/**
 * The API client reads every answer through the wire schemas (widget/api/wire.ts) before anything else sees it:
 * what the contract allows comes through as the contract shapes it, anything else is refused as unreadable.
 */
const ORDER = {
  customer: { firstname: 'Ada', lastname: 'Obi', email: 'ada@example.test' },
  order: { amount: 12500, reference: REFERENCE, description: undefined, currency: 'NGN' },
};

describe('the API client reads answers through the wire schemas', () => {
  let stub: ApiStub;
  let api: CheckoutApi;

  beforeEach(async () => {
    stub = await ApiStub.install();
    api = new CheckoutApi({ apiKey: API_KEY, baseUrl: '' });
  });

  afterEach(() => stub.restore());

  async function refusal(promise: Promise<unknown>): Promise<ApiError> {
    try {
      await promise;
    } catch (error) {
      expect(error).to.be.instanceOf(ApiError);
      return error as ApiError;
    }
    throw new Error('the answer was accepted');
  }

  it('returns a created order as the contract shapes it, without keys the contract does not have', async () => {
    const answer = createOrderAnswer();
    stub.answer('/checkout/order/create', { body: { ...answer, data: { ...answer.data, internalNote: 'x', order: { ...answer.data.order, margin: 3 } } } });
    const order = await api.createOrder(ORDER);
    expect(order).to.deep.equal(orderData());
  });

  it('refuses a created order that lacks a field the contract requires', async () => {
    const answer = createOrderAnswer();
    const { canSaveCard: _dropped, ...data } = answer.data;
    stub.answer('/checkout/order/create', { body: { ...answer, data } });
    const error = await refusal(api.createOrder(ORDER));
    expect(error.code).to.equal('UNREADABLE');
  });

  it('refuses a status whose payment status is not one the contract lists', async () => {
    const answer = statusAnswer();
    stub.answer('/checkout/order/status', { body: { ...answer, data: { ...answer.data, payment_status: 3 } } });
    expect((await refusal(api.orderStatus(REFERENCE))).code).to.equal('UNREADABLE');
  });

  it('refuses a status whose whole-number field is a fraction or beyond the safe integers', async () => {
    for (const id of [1.5, 2 ** 53]) {
      const answer = statusAnswer();
      stub.answer('/checkout/order/status', { body: { ...answer, data: { ...answer.data, id } } });
      expect((await refusal(api.orderStatus(REFERENCE))).code).to.equal('UNREADABLE');
    }
  });

  it("turns the error envelope into an error with the envelope's code, message and request id", async () => {
    stub.fail('/checkout/order/status', 'NF404', 'No order ORD-1001.', 'req-77');
    const error = await refusal(api.orderStatus(REFERENCE));
    expect([error.code, error.message, error.requestId]).to.deep.equal(['NF404', 'No order ORD-1001.', 'req-77']);
  });

  it('asks for the keys when the keys the page gave are not keys the contract describes', async () => {
    api = new CheckoutApi({ apiKey: API_KEY, baseUrl: '', keys: JSON.stringify([{ kty: 'EC', crv: 'P-384', x: 'a', y: 'b', alg: 'ECDH-ES+A256KW', use: 'enc', kid: 'k' }]) });
    let keysAsked = 0;
    const originalFetch = window.fetch;
    window.fetch = (input, init) => {
      if (String(input).endsWith('/checkout/keys')) keysAsked += 1;
      return originalFetch(input, init);
    };
    try {
      stub.answer('/checkout/order/status', { body: statusAnswer() });
      await api.orderStatus(REFERENCE);
    } finally {
      window.fetch = originalFetch;
    }
    expect(keysAsked).to.equal(1);
    expect(stub.requestsTo('/checkout/order/status')).to.have.length(1);
  });
});
