import { expect } from 'chai';
import type { CkCheckout } from '../../../widget/components/checkout.ts';
import '../../../widget/components/checkout.ts';
import { provideFirstOrder } from '../../../widget/flow/first-state.ts';
import { API_KEY, ApiStub } from '../support/api-stub.ts';
import { deepText, waitFor } from '../support/dom.ts';
import { createOrderAnswer, feeAnswer, feeQuote, orderData, REFERENCE } from '../support/fixtures.ts';

/**
 * The order the page serving the checkout already made (the frame's own request, a payment-link page): the first
 * screen is drawn from it, and the API is asked only when it is not this order's.
 */
describe('ck-checkout with the order its page carries', () => {
  let stub: ApiStub;
  let checkout: CkCheckout | undefined;
  let ready: Event[];
  const record = (event: Event) => ready.push(event);

  function mount(reference = REFERENCE): CkCheckout {
    const element = document.createElement('ck-checkout');
    const attributes = {
      'api-key': API_KEY,
      reference,
      amount: '12500',
      currency: 'NGN',
      'customer-email': 'ada@example.test',
      'customer-first-name': 'Ada',
      'customer-last-name': 'Obi',
      locale: 'en-NG',
    };
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    document.body.append(element);
    checkout = element;
    return element;
  }

  beforeEach(async () => {
    sessionStorage.clear();
    ready = [];
    document.addEventListener('checkout:ready', record);
    stub = await ApiStub.install();
    stub.answerAlways('/checkout/order/fee', (plain) => ({ body: feeAnswer(feeQuote((plain as { paymentoption: string }).paymentoption)) }));
  });
  afterEach(() => {
    expect(stub.rejected, 'payloads the backend would refuse').to.deep.equal([]);
    checkout?.remove();
    stub.restore();
    document.removeEventListener('checkout:ready', record);
  });

  it('draws the summary and the payment options from it, without asking the API to create the order', async () => {
    provideFirstOrder(orderData());
    const element = mount();
    await waitFor(() => element.view === 'options', 5000);
    expect(ready).to.have.length(1);
    expect(stub.requestsTo('/checkout/order/create')).to.deep.equal([]);
    const text = deepText(element.shadowRoot!);
    expect(text).to.include('Order summary');
    expect(text).to.include('Card');
  });

  it('asks the API when the carried order is another order’s, or not of the create answer’s shape', async () => {
    for (const carried of [orderData({ order: { ...orderData().order, reference: 'ORD-OTHER' } }), { order: 'not an order' }]) {
      sessionStorage.clear();
      stub.answer('/checkout/order/create', { body: createOrderAnswer() });
      provideFirstOrder(carried);
      const element = mount();
      await waitFor(() => element.view === 'options', 5000);
      expect(stub.requestsTo('/checkout/order/create')).to.have.length(1);
      element.remove();
      stub.requests.length = 0;
    }
  });
});
