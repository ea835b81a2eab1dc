import { expect } from 'chai';
import '../../../widget/components/checkout.ts';
import { CheckoutCloseEvent, CheckoutReadyEvent, CheckoutSuccessEvent } from '../../../widget/events.ts';
import { preparePaymentLink } from '../../../widget/hosting/payment-link.ts';

/**
 * Where a payment-link page sends the customer once the order is paid. The checkout is not started here (it is
 * never connected); its events are played as the checkout sends them.
 */
describe('the payment-link page after paying', () => {
  const WEBSITE = 'https://shop.example.test/thanks';
  const REFERENCE = 'LNK-0A58D6C407ACE4C188F72307';
  let visited: string[];
  let checkout: HTMLElement & { reference: string };
  const page = window.location.href;

  beforeEach(() => {
    visited = [];
    checkout = document.createElement('ck-checkout');
    checkout.reference = REFERENCE;
  });
  afterEach(() => window.history.replaceState(null, '', page));

  const prepare = (website = WEBSITE) => preparePaymentLink(checkout as never, website, (href) => visited.push(href));
  const ready = (status: 'Initiated' | 'Successful') => checkout.dispatchEvent(new CheckoutReadyEvent({ reference: REFERENCE, status }));
  const paid = () => checkout.dispatchEvent(new CheckoutSuccessEvent({ reference: REFERENCE, status: 'Successful' }));

  it('sends the customer to the Website with the reference and status when they pay on this visit', () => {
    prepare();
    ready('Initiated');
    paid();
    expect(visited).to.deep.equal([`${WEBSITE}?reference=${REFERENCE}&status=successful`]);
  });

  it('sends the customer on when they come back from the bank having paid', () => {
    const returned = new URL(page);
    returned.searchParams.set('reference', REFERENCE);
    returned.searchParams.set('status', 'successful');
    window.history.replaceState(null, '', returned);
    prepare();
    ready('Successful');
    paid();
    expect(visited).to.have.length(1);
  });

  it('keeps the receipt, without sending the customer to the Website again, when the order was opened already paid', () => {
    prepare();
    ready('Successful');
    paid();
    expect(visited).to.deep.equal([]);
  });

  it('goes on to the hosted result page on Done when the link has no Website', () => {
    prepare('');
    ready('Initiated');
    paid();
    expect(visited).to.deep.equal([]);
    checkout.dispatchEvent(new CheckoutCloseEvent({ reference: REFERENCE, status: 'Successful' }));
    expect(visited).to.deep.equal([`${window.location.origin}/checkout/result?reference=${REFERENCE}&status=successful`]);
  });
});
