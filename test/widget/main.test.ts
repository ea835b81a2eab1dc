import { expect } from 'chai';
import { API_KEY, ApiStub } from './support/api-stub.ts';
import { waitFor } from './support/dom.ts';

describe('checkout page entry', () => {
  it('configures <ck-checkout> from the JSON data block the serving page fills in', async () => {
    const stub = await ApiStub.install();
    stub.answer('/checkout/order/create', { hang: true });
    const checkout = document.createElement('ck-checkout');
    const block = document.createElement('script');
    block.type = 'application/json';
    block.id = 'checkout-config';
    block.textContent = JSON.stringify({
      'api-key': API_KEY,
      reference: 'ORD-2002',
      amount: 4500,
      'customer-email': 'ada@example.test',
      'customer-first-name': 'Ada',
      'customer-last-name': 'Obi',
      closable: true,
      items: [{ name: 'Tea', amount: 4500 }],
    });
    document.body.append(checkout, block);
    try {
      await import('../../widget/main.ts');
      expect(checkout.getAttribute('api-key')).to.equal(API_KEY);
      expect(checkout.getAttribute('amount')).to.equal('4500');
      expect(checkout.hasAttribute('closable')).to.equal(true);
      await waitFor(() => stub.requestsTo('/checkout/order/create').length === 1);
      expect((stub.requestsTo('/checkout/order/create')[0]!.plain as { order: { items: unknown } }).order.items).to.deep.equal([
        { name: 'Tea', amount: 4500 },
      ]);
    } finally {
      checkout.remove();
      block.remove();
      stub.restore();
    }
  });
});
