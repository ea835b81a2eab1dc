import { expect } from 'chai';
import { CheckoutApi } from '../../../widget/api/client.ts';
import type { CkFeeDisplay } from '../../../widget/components/fee-display.ts';
import '../../../widget/components/fee-display.ts';
import { Localizer } from '../../../widget/i18n/localizer.ts';
import { FeeQuotedEvent } from '../../../widget/internal-events.ts';
import { API_KEY, ApiStub } from '../support/api-stub.ts';
import { expectAccessible } from '../support/axe.ts';
import { activeElement, buttonByText, deepText, press, waitFor } from '../support/dom.ts';
import { feeAnswer, feeQuote, orderData, REFERENCE } from '../support/fixtures.ts';

describe('ck-fee-display', () => {
  let stub: ApiStub;
  let display: CkFeeDisplay;

  async function mount(option: string, localizer = new Localizer('en-NG')): Promise<CkFeeDisplay> {
    display = document.createElement('ck-fee-display');
    display.api = new CheckoutApi({ apiKey: API_KEY, baseUrl: window.location.origin });
    display.order = orderData();
    display.localizer = localizer;
    display.option = option;
    document.body.append(display);
    return display;
  }

  const text = () => deepText(display.shadowRoot!);

  beforeEach(async () => {
    stub = await ApiStub.install();
  });

  afterEach(() => {
    display.remove();
    stub.restore();
  });

  it('shows a quote it is given for the same method and order without asking the server again', async () => {
    display = document.createElement('ck-fee-display');
    display.api = new CheckoutApi({ apiKey: API_KEY, baseUrl: window.location.origin });
    display.order = orderData();
    display.localizer = new Localizer('en-NG');
    display.option = 'C';
    display.quote = feeQuote('C');
    document.body.append(display);
    await waitFor(() => text().includes('Total to pay ₦12,787.50'));
    expect(stub.requestsTo('/checkout/order/fee')).to.have.length(0);
  });

  it('quotes the selected method before paying: subtotal, fee, who bears it and the total', async () => {
    stub.answer('/checkout/order/fee', { body: feeAnswer(feeQuote('C')) });
    const quotes: FeeQuotedEvent[] = [];
    await mount('C');
    display.addEventListener(FeeQuotedEvent.eventName, (event) => quotes.push(event));
    await waitFor(() => text().includes('Total to pay'));
    expect(text()).to.include('Subtotal ₦12,500.00 Fee ₦287.50 Total to pay ₦12,787.50');
    expect(text()).to.include('You pay the fee.');
    expect(stub.requestsTo('/checkout/order/fee')[0]!.plain).to.deep.include({ amount: 12500, currency: 'NGN', paymentoption: 'C', reference: REFERENCE });
    expect(quotes.map((event) => event.quote.totalChargedAmount)).to.deep.equal([12787.5]);
    await expectAccessible(display);
  });

  it('asks again and updates when the method changes', async () => {
    stub.answer('/checkout/order/fee', { body: feeAnswer(feeQuote('C')) });
    stub.answer('/checkout/order/fee', { body: feeAnswer(feeQuote('bank-transfer')) });
    await mount('C');
    await waitFor(() => text().includes('₦12,787.50'));
    display.option = 'bank-transfer';
    await waitFor(() => text().includes('Fee No fee Total to pay ₦12,500.00'));
    expect(stub.requestsTo('/checkout/order/fee').map((request) => (request.plain as { paymentoption: string }).paymentoption)).to.deep.equal([
      'C',
      'bank-transfer',
    ]);
  });

  it("shows only the customer's part of a split fee, and the total charged", async () => {
    stub.answer('/checkout/order/fee', {
      body: feeAnswer(feeQuote('C', { fee: 200, customerFee: 100, subsidiaryFee: 100, totalChargedAmount: 12600, bearer: 'split' })),
    });
    await mount('C');
    await waitFor(() => text().includes('Total to pay'));
    expect(text()).to.equal('Amount to pay Subtotal ₦12,500.00 Fee ₦100.00 Total to pay ₦12,600.00 You pay the fee.');
  });

  it('keeps a fee the merchant bears to itself: "No fee" and the subtotal as the total, in English and French', async () => {
    stub.answer('/checkout/order/fee', { body: feeAnswer(feeQuote('bank-transfer', { fee: 62.5, subsidiaryFee: 62.5 })) });
    await mount('bank-transfer');
    await waitFor(() => text().includes('Total to pay'));
    expect(text()).to.equal('Amount to pay Subtotal ₦12,500.00 Fee No fee Total to pay ₦12,500.00');
    expect(text()).not.to.include('62.50');
    await expectAccessible(display);
    display.remove();

    stub.answer('/checkout/order/fee', { body: feeAnswer(feeQuote('bank-transfer', { fee: 62.5, subsidiaryFee: 62.5 })) });
    await mount('bank-transfer', await Localizer.load('fr-FR'));
    await waitFor(() => text().includes('Total à payer'));
    expect(text()).to.match(/^Montant à payer Sous-total 12\s500,00\sNGN Frais Aucuns frais Total à payer 12\s500,00\sNGN$/);
  });

  it('says "No fee", and names no one as paying it, only when there is no fee', async () => {
    stub.answer('/checkout/order/fee', { body: feeAnswer(feeQuote('bank-transfer', { fee: 0, subsidiaryFee: 0 })) });
    await mount('bank-transfer');
    await waitFor(() => text().includes('Total to pay'));
    expect(text()).to.equal('Amount to pay Subtotal ₦12,500.00 Fee No fee Total to pay ₦12,500.00');
  });

  it('keeps keyboard focus in the fee box while it asks again and once the quote arrives', async () => {
    stub.answer('/checkout/order/fee', { networkError: true });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    stub.answer('/checkout/order/fee', async () => {
      await held;
      return { body: feeAnswer(feeQuote('C')) };
    });
    await mount('C');
    await waitFor(() => text().includes('The fee could not be worked out'));
    buttonByText(display.shadowRoot!, 'Try again').focus();
    await press('Enter');
    await waitFor(() => text().includes('Working out the fee…'));
    const focused = activeElement();
    expect(focused === document.body, 'focus left the page for <body>').to.equal(false);
    expect(display.shadowRoot!.contains(focused), 'focus is in the fee box').to.equal(true);
    expect(focused?.textContent).to.equal('Amount to pay');
    release();
    await waitFor(() => text().includes('Total to pay ₦12,787.50'));
    expect(activeElement() === focused, 'focus stays where it was once the quote arrives').to.equal(true);
    await expectAccessible(display);
  });

  it('says the fee could not be worked out and lets the customer ask again', async () => {
    stub.answer('/checkout/order/fee', { networkError: true });
    stub.answer('/checkout/order/fee', { body: feeAnswer(feeQuote('C')) });
    await mount('C');
    await waitFor(() => text().includes('The fee could not be worked out'));
    await expectAccessible(display);
    buttonByText(display.shadowRoot!, 'Try again').click();
    await waitFor(() => text().includes('₦12,787.50'));
  });
});
