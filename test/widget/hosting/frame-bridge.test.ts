import { expect } from 'chai';
import '../../../widget/components/checkout.ts';
import { PROTOCOL } from '../../../widget/embed/protocol.ts';
import { CheckoutErrorEvent } from '../../../widget/events.ts';
import { connectToParent } from '../../../widget/hosting/frame-bridge.ts';
import { API_KEY, ApiStub } from '../support/api-stub.ts';
import { waitFor } from '../support/dom.ts';
import { otherOrigin, RELAY_PATH, RelayLog } from '../support/relay.ts';

type Received = { kind?: string; height?: number; event?: unknown };

/**
 * The checkout page's side of embedding. The merchant's page is played by a relay frame on another origin,
 * handed to the bridge as its parent window.
 */
describe('the checkout frame bridge', () => {
  it('says ready to the embedding origin, takes settings only from that origin and window, and reports events, height and Escape', async () => {
    const stub = await ApiStub.install();
    stub.answer('/checkout/order/create', { hang: true });
    const log = new RelayLog();
    const merchantOrigin = otherOrigin();
    const merchant = document.createElement('iframe');
    merchant.src = `${merchantOrigin}${RELAY_PATH}`;
    const stranger = document.createElement('iframe');
    stranger.src = `${merchantOrigin}${RELAY_PATH}`;
    document.body.append(merchant, stranger);
    const checkout = document.createElement('ck-checkout');
    checkout.embedded = true;
    document.body.append(checkout);
    try {
      await waitFor(() => log.hasLoaded(merchant.contentWindow, merchantOrigin) && log.hasLoaded(stranger.contentWindow, merchantOrigin));
      connectToParent(checkout, merchantOrigin, merchant.contentWindow!);
      await waitFor(() => log.received.some((message) => (message as Received).kind === 'ready'));
      expect(checkout.view).to.equal('loading');
      expect(stub.requests).to.deep.equal([]);

      const forged = { protocol: PROTOCOL, kind: 'settings', settings: { 'api-key': 'pk_test_forged', reference: 'EVIL-1', amount: 1 }, modal: false };
      window.postMessage(forged, '*');
      await log.post(stranger.contentWindow!, forged);
      expect(checkout.apiKey).to.equal('');

      await log.post(merchant.contentWindow!, {
        protocol: PROTOCOL,
        kind: 'settings',
        modal: true,
        settings: {
          'api-key': API_KEY,
          reference: 'ORD-3003',
          amount: 4500,
          'customer-email': 'ada@example.test',
          'customer-first-name': 'Ada',
          'customer-last-name': 'Obi',
          items: [{ name: 'Tea', amount: 4500 }],
          'redirect-url': 'https://elsewhere.test/',
          'api-base': 'https://elsewhere.test',
        },
      });
      expect([checkout.apiKey, checkout.reference, checkout.amount, checkout.closable]).to.deep.equal([API_KEY, 'ORD-3003', 4500, true]);
      expect([checkout.redirectUrl, checkout.apiBase]).to.deep.equal(['', '']);
      await waitFor(() => stub.requestsTo('/checkout/order/create').length === 1);
      // 3-D Secure comes back to this frame, whatever the merchant's page says.
      const plain = stub.requestsTo('/checkout/order/create')[0]!.plain as { payment: { RedirectUrl: string }; order: { items: unknown } };
      expect(plain.payment.RedirectUrl).to.equal(window.location.href.split('#')[0]);
      expect(plain.order.items).to.deep.equal([{ name: 'Tea', amount: 4500 }]);

      checkout.dispatchEvent(new CheckoutErrorEvent({ reference: 'ORD-3003', status: 'Failed' }, '05', 'Your bank declined the payment.'));
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
      await waitFor(() => log.received.some((message) => (message as Received).kind === 'escape'));
      expect(log.received.find((message) => (message as Received).kind === 'event')).to.deep.equal({
        protocol: PROTOCOL,
        kind: 'event',
        event: { type: 'checkout:error', reference: 'ORD-3003', status: 'Failed', code: '05', message: 'Your bank declined the payment.' },
      });
      expect(log.received.some((message) => typeof (message as Received).height === 'number')).to.equal(true);

      // The merchant's window went to another origin: settings from there are not the merchant's.
      merchant.contentWindow!.postMessage({ navigate: `${window.location.origin}${RELAY_PATH}` }, '*');
      await waitFor(() => log.hasLoaded(merchant.contentWindow, window.location.origin));
      await log.post(merchant.contentWindow!, { ...forged, settings: { ...forged.settings, 'api-key': API_KEY } });
      expect(checkout.reference).to.equal('ORD-3003');
    } finally {
      log.stop();
      stub.restore();
      checkout.remove();
      merchant.remove();
      stranger.remove();
    }
  });

  it('checks the branding again inside the frame: a value of another shape is dropped, a valid one themes the checkout', async () => {
    const stub = await ApiStub.install();
    stub.answer('/checkout/order/create', { hang: true });
    const log = new RelayLog();
    const merchantOrigin = otherOrigin();
    const merchant = document.createElement('iframe');
    merchant.src = `${merchantOrigin}${RELAY_PATH}`;
    document.body.append(merchant);
    const checkout = document.createElement('ck-checkout');
    checkout.embedded = true;
    document.body.append(checkout);
    try {
      await waitFor(() => log.hasLoaded(merchant.contentWindow, merchantOrigin));
      connectToParent(checkout, merchantOrigin, merchant.contentWindow!);
      await waitFor(() => log.received.some((message) => (message as Received).kind === 'ready'));
      await log.post(merchant.contentWindow!, {
        protocol: PROTOCOL,
        kind: 'settings',
        modal: false,
        settings: { 'api-key': API_KEY, reference: 'ORD-3004', amount: 100, 'brand-color': '#fff;}*{background:url(https://evil.test/)}', radius: '6', font: 'serif', density: 'compact' },
      });
      await waitFor(() => checkout.getAttribute('radius') === '6');
      await checkout.updateComplete;
      expect(checkout.hasAttribute('brand-color')).to.equal(false);
      expect(checkout.style.getPropertyValue('--checkout-primary')).to.equal('');
      expect(checkout.style.getPropertyValue('--checkout-radius')).to.equal('6px');
      expect(checkout.style.getPropertyValue('--checkout-font-family')).to.match(/^Charter/);
      expect(checkout.style.getPropertyValue('--checkout-control-height')).to.equal('40px');
      expect(checkout.getAttribute('style')).not.to.include('evil');
    } finally {
      log.stop();
      stub.restore();
      checkout.remove();
      merchant.remove();
    }
  });
});
