import { expect } from 'chai';
import { emulateMedia, sendKeys, setViewport } from '@web/test-runner-commands';
import { WIDGET_EVENTS } from '../../../shared/events.ts';
import type { BankTransferDetails } from '../../../shared/payments.ts';
import { formatTimestamp } from '../../../shared/timestamps.ts';
import type { CkCheckout } from '../../../widget/components/checkout.ts';
import '../../../widget/components/checkout.ts';
import { API_KEY, ApiStub } from '../support/api-stub.ts';
import { expectAccessible } from '../support/axe.ts';
import { activeElement, buttonByText, deepQuery, deepQueryAll, deepText, inputByLabel, press, typeInto, waitFor } from '../support/dom.ts';
import {
  AUTH_URL,
  authenticateAnswer,
  createOrderAnswer,
  declinedAnswer,
  feeAnswer,
  feeQuote,
  orderData,
  paidAnswer,
  paidStatus,
  REFERENCE,
  statusAnswer,
  transferAnswer,
  transferDetails,
  transferStatus,
} from '../support/fixtures.ts';

const nextYear = String((new Date().getFullYear() + 3) % 100).padStart(2, '0');
const PUBLIC_EVENTS = ['checkout:ready', 'checkout:pending', 'checkout:success', 'checkout:error', 'checkout:close'] as const;

describe('ck-checkout', () => {
  let stub: ApiStub;
  let checkout: CkCheckout;
  let events: Event[];
  let redirects: string[];
  const record = (event: Event) => events.push(event);

  async function mount(attributes: Record<string, string> = {}, ownsDocument = false): Promise<CkCheckout> {
    checkout = document.createElement('ck-checkout');
    checkout.ownsDocument = ownsDocument;
    const defaults = {
      'api-key': API_KEY,
      reference: REFERENCE,
      amount: '12500',
      currency: 'NGN',
      description: 'Two tickets',
      'customer-email': 'ada@example.test',
      'customer-first-name': 'Ada',
      'customer-last-name': 'Obi',
      'customer-mobile': '+2348012345678',
      'customer-country': 'NG',
      items: JSON.stringify([
        { name: 'Things Fall Apart', amount: 8000 },
        { name: 'Gift wrapping', amount: 4500 },
      ]),
      locale: 'en-NG',
    };
    for (const [name, value] of Object.entries({ ...defaults, ...attributes })) checkout.setAttribute(name, value);
    checkout.pollBackoff = { baseMs: 40, maxMs: 120, factor: 1.5 };
    checkout.redirect = (url) => redirects.push(url);
    document.body.append(checkout);
    return checkout;
  }

  const root = () => checkout.shadowRoot!;
  const text = () => deepText(root());
  const view = (name: string) => waitFor(() => checkout.view === name && checkout.matches(`:state(${name})`), 5000);
  const named = <T extends Event>(type: string) => events.filter((event) => event.type === type) as T[];

  /** Chooses a method the way a keyboard user does: focus the radio, Space to pick it. */
  async function choose(label: string): Promise<void> {
    await view('options');
    const radio = inputByLabel(root(), label);
    radio.focus();
    await press('Space');
    // Continue waits for the quote, the amount the server will charge.
    await waitFor(() => text().includes('Total to pay'));
  }

  /**
   * The whole card path with the keyboard alone, from outside the checkout: Tab reaches the first method, Space
   * picks it, Tab reaches Continue, Enter opens the card form with focus on its heading, and Tab walks the fields
   * in reading order.
   */
  async function payWithTypedCard(): Promise<void> {
    await view('options');
    (activeElement() as HTMLElement | null)?.blur();
    await press('Tab');
    expect(activeElement()).to.equal(inputByLabel(root(), 'Card'));
    await press('Space');
    await waitFor(() => text().includes('Total to pay'));
    await press('Tab');
    expect(activeElement()).to.equal(buttonByText(root(), 'Continue with card'));
    await press('Enter');
    await view('card');
    await waitFor(() => activeElement()?.textContent === 'Pay by card');
    await waitFor(() => deepQuery(root(), 'ck-card-form')?.shadowRoot?.querySelector('#number'));
    await expectAccessible(checkout);
    await press('Tab');
    expect(activeElement()).to.equal(inputByLabel(root(), 'Card number'));
    await sendKeys({ type: '4242424242424242' });
    await press('Tab');
    await sendKeys({ type: `12${nextYear}` });
    await press('Tab');
    await sendKeys({ type: '123' });
    await press('Tab');
    expect(activeElement()).to.equal(inputByLabel(root(), 'Name on card'));
    await sendKeys({ type: 'Ada Obi' });
    await press('Enter');
  }

  beforeEach(async () => {
    sessionStorage.clear();
    events = [];
    redirects = [];
    for (const type of PUBLIC_EVENTS) document.addEventListener(type, record);
    stub = await ApiStub.install();
    stub.answerAlways('/checkout/order/fee', (plain) => ({ body: feeAnswer(feeQuote((plain as { paymentoption: string }).paymentoption)) }));
  });

  afterEach(async () => {
    expect(stub.rejected, 'payloads the backend would refuse').to.deep.equal([]);
    checkout?.remove();
    stub.restore();
    for (const type of PUBLIC_EVENTS) document.removeEventListener(type, record);
    await setViewport({ width: 800, height: 600 });
  });

  it('shows a loading state, then creates the order with an encrypted payload and tells the host it is ready', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    stub.answer('/checkout/order/create', async () => {
      await held;
      return { body: createOrderAnswer() };
    });
    await mount();
    await view('loading');
    await waitFor(() => text().includes('Preparing your checkout…'));
    await expectAccessible(checkout);
    release();

    await view('options');
    const [create] = stub.requestsTo('/checkout/order/create');
    expect(create!.plain).to.deep.equal({
      customer: { firstname: 'Ada', lastname: 'Obi', mobile: '+2348012345678', country: 'NG', email: 'ada@example.test' },
      order: {
        amount: 12500,
        reference: REFERENCE,
        description: 'Two tickets',
        currency: 'NGN',
        items: [
          { name: 'Things Fall Apart', amount: 8000 },
          { name: 'Gift wrapping', amount: 4500 },
        ],
      },
      payment: { RedirectUrl: window.location.href },
    });
    expect(text()).to.include('Kola Books');
    expect(text()).to.include('Things Fall Apart ₦8,000.00');
    expect(text()).to.include('Test mode');
    const [ready] = named<Event & { reference: string; status: string }>('checkout:ready');
    expect(ready).to.include({ reference: REFERENCE, status: 'Initiated', bubbles: true, composed: true });
    await waitFor(() => stub.trackedEvents().includes('opened'));
    await expectAccessible(checkout);
  });

  it('takes a card payment from start to finish with the keyboard alone and reports success without card data', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { body: paidAnswer() });
    await mount();
    await view('options');
    await expectAccessible(checkout);
    await payWithTypedCard();

    await view('success');
    expect(text()).to.include('Payment successful');
    expect(text()).to.include('You paid ₦12,787.50 to Kola Books.');
    await waitFor(() => activeElement()?.textContent === 'Payment successful');
    await expectAccessible(checkout);

    const [success] = named<Event & { reference: string; status: string }>('checkout:success');
    expect(success).to.include({ reference: REFERENCE, status: 'Successful' });
    const carried = JSON.stringify({ ...success, reference: success!.reference, status: success!.status });
    expect(carried).not.to.include('4242');
    expect(carried).not.to.include('123');
    await waitFor(() => ['opened', 'option-selected', 'card-submitted'].every((name) => stub.trackedEvents().includes(name)));
    for (const name of stub.trackedEvents()) expect(WIDGET_EVENTS).to.include(name);

    buttonByText(root(), 'Done').focus();
    await press('Enter');
    expect(named('checkout:close')).to.have.length(1);
  });

  it('sends the customer to 3-D Secure and picks up where they were when the bank sends them back', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { body: authenticateAnswer() });
    await mount();
    await payWithTypedCard();
    await view('authenticating');
    await waitFor(() => redirects.length === 1);
    expect(redirects).to.deep.equal([AUTH_URL]);
    expect(text()).to.include('Confirm with your bank');
    expect(named<Event & { status: string }>('checkout:pending')[0]).to.include({ reference: REFERENCE, status: 'Pending', method: 'card' });
    await waitFor(() => stub.trackedEvents().includes('authentication-started'));
    await expectAccessible(checkout);
    checkout.remove();

    // The hosted page returns to this page with the reference and status in the query string.
    const before = window.location.href;
    const returned = new URL(before);
    returned.searchParams.set('reference', REFERENCE);
    returned.searchParams.set('status', 'approved');
    window.history.replaceState(null, '', returned);
    stub.answer('/checkout/order/status', { body: statusAnswer() });
    stub.answer('/checkout/order/status', { body: paidStatus() });
    await mount();
    await view('success');
    expect(stub.requestsTo('/checkout/order/create')).to.have.length(1);
    expect(stub.requestsTo('/checkout/order/status').map((request) => request.plain)).to.deep.equal([{ reference: REFERENCE }, { reference: REFERENCE }]);
    expect(window.location.href).to.equal(before);
    expect(text()).to.include('Kola Books');
    expect(deepText(root().querySelector('ck-checkout-header')!)).to.include('₦12,787.50');
    await waitFor(() => stub.trackedEvents().includes('authentication-finished'));
  });

  it('names the merchant and the amount on the receipt after 3-D Secure when the frame could keep no record', async () => {
    // A frame on another site may have no storage: nothing recorded the order before the bank's page.
    const returned = new URL(window.location.href);
    const before = returned.href;
    returned.searchParams.set('reference', REFERENCE);
    returned.searchParams.set('status', 'successful');
    window.history.replaceState(null, '', returned);
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/status', { body: paidStatus() });
    await mount();
    await view('success');
    expect(window.location.href).to.equal(before);
    expect(deepText(root().querySelector('ck-checkout-header')!)).to.include('Kola Books');
    expect(deepText(root().querySelector('ck-checkout-header')!)).to.include('₦12,787.50');
    expect(text()).to.include('You paid ₦12,787.50 to Kola Books.');
    expect(text(), 'the one reference the merchant sees too').to.include(`Order reference ${REFERENCE}`);
    expect(text()).not.to.include('PAY-');
    expect(stub.requestsTo('/checkout/order/create')).to.have.length(1);
  });

  it("shows its own order, not another one an address's return parameters name", async () => {
    const before = window.location.href;
    const returned = new URL(before);
    returned.searchParams.set('reference', 'ORD-SOMEONE-ELSE');
    returned.searchParams.set('status', 'successful');
    window.history.replaceState(null, '', returned);
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    await mount();
    await view('options');
    expect(stub.requestsTo('/checkout/order/status')).to.have.length(0);
    expect(stub.requestsTo('/checkout/order/create')).to.have.length(1);
    expect(named<Event & { reference: string }>('checkout:ready')[0]).to.include({ reference: REFERENCE });
    expect(window.location.href, 'the return parameters are removed').to.equal(before);
  });

  it('shows a one-time account for a bank transfer, polls once the money is sent, and asks for the rest of a short payment', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { body: transferAnswer() });
    stub.answer('/checkout/order/status', { body: transferStatus({ amount_due: 2500 }) });
    stub.answerAlways('/checkout/order/status', { body: transferStatus({ amount_due: 2500 }) });
    await mount();
    await choose('Bank transfer');
    await waitFor(() => text().includes('Fee No fee Total to pay ₦12,500.00'));
    buttonByText(root(), 'Get account details').focus();
    await press('Enter');
    await view('transfer');
    expect((stub.requestsTo('/checkout/order/pay')[0]!.plain as { paymentoption: string }).paymentoption).to.equal('bank-transfer');
    expect(text()).to.include('Account number 0123456789');
    expect(named<Event & { method: string }>('checkout:pending')[0]).to.include({ method: 'bank-transfer' });
    await waitFor(() => stub.trackedEvents().includes('transfer-shown'));
    await expectAccessible(checkout);

    buttonByText(root(), 'I have sent the money').focus();
    await press('Enter');
    await waitFor(() => text().includes('Send the remaining ₦2,500.00 to the same account'));
    expect(text()).to.include('Waiting for your transfer.');
    await expectAccessible(checkout);

    stub.answerAlways('/checkout/order/status', { body: paidStatus({ payment_type: 'Pay With Bank Transfer', total_charged_amount: 12500 }) });
    await view('success');
    expect(text()).to.include('You paid ₦12,500.00 to Kola Books.');
    expect(text()).not.to.include('more than was due');
    const polls = stub.requestsTo('/checkout/order/status').length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stub.requestsTo('/checkout/order/status')).to.have.length(polls, 'polling stops at a final state');
  });

  it('asks for the name and e-mail the merchant did not give, checks them as the customer leaves each field, then creates the order with them', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    await mount({ 'customer-first-name': '', 'customer-last-name': '', 'customer-email': '' });
    await view('details');
    await waitFor(() => deepQuery(root(), 'ck-customer-form')?.shadowRoot?.querySelector('#firstname'));
    expect(stub.requestsTo('/checkout/order/create')).to.have.length(0, 'no order before the details');
    expect(text()).to.include('Your details');
    expect(text()).to.include('₦12,500.00');
    expect(() => inputByLabel(root(), 'Phone number'), 'the merchant gave a phone number').to.throw();
    await expectAccessible(checkout);

    buttonByText(root(), 'Continue').click();
    await waitFor(() => activeElement() === inputByLabel(root(), 'First name'));
    expect(text()).to.include('Enter your first name.');
    expect(text()).to.include('3 fields need your attention.');
    expect(inputByLabel(root(), 'First name').getAttribute('aria-invalid')).to.equal('true');
    await expectAccessible(checkout);

    await sendKeys({ type: 'Ada' });
    await press('Tab');
    await sendKeys({ type: 'Obi' });
    await press('Tab');
    await sendKeys({ type: 'ada@example' });
    await press('Tab');
    await waitFor(() => text().includes('Enter your e-mail address, like ada@example.com.'));
    expect(text()).not.to.include('Enter your first name.');
    inputByLabel(root(), 'E-mail address').focus();
    await sendKeys({ type: '.test' });
    await press('Enter');

    await view('options');
    const customer = (stub.requestsTo('/checkout/order/create')[0]!.plain as { customer: Record<string, unknown> }).customer;
    expect(customer).to.include({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.test', mobile: '+2348012345678' });
    expect(named('checkout:ready')).to.have.length(1);
    await waitFor(() => activeElement()?.textContent === 'Order summary');
  });

  it('asks for an optional phone number too when the merchant gave no way to reach the customer, in French', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    await mount({ 'customer-first-name': '', 'customer-last-name': '', 'customer-email': '', 'customer-mobile': '', locale: 'fr-FR' });
    await view('details');
    await waitFor(() => deepQuery(root(), 'ck-customer-form')?.shadowRoot?.querySelector('#mobile'));
    expect(text()).to.include('Vos coordonnées');
    for (const [label, value] of [['Prénom', 'Ada'], ['Nom', 'Obi'], ['Adresse e-mail', 'ada@example.test'], ['Numéro de téléphone (facultatif)', '12ab']] as const) {
      inputByLabel(root(), label).focus();
      await sendKeys({ type: value });
    }
    await press('Tab');
    await waitFor(() => text().includes('Saisissez un numéro de 7 à 15 chiffres'));
    await expectAccessible(checkout);
    const phone = inputByLabel(root(), 'Numéro de téléphone (facultatif)');
    phone.select();
    await sendKeys({ press: 'Backspace' });
    await press('Enter');
    await view('options');
    const customer = (stub.requestsTo('/checkout/order/create')[0]!.plain as { customer: Record<string, unknown> }).customer;
    expect(customer).to.include({ firstname: 'Ada', lastname: 'Obi', email: 'ada@example.test' });
    expect(customer['mobile']).to.equal(undefined);
  });

  it('notices a transfer that arrives without "I have sent the money", first a short part, then the rest, and reports success', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { body: transferAnswer() });
    stub.answerAlways('/checkout/order/status', { body: transferStatus() });
    await mount();
    checkout.transferBackoff = { baseMs: 40, maxMs: 80, factor: 1.2 };
    await choose('Bank transfer');
    buttonByText(root(), 'Get account details').click();
    await view('transfer');
    await waitFor(() => stub.requestsTo('/checkout/order/status').length >= 2);
    expect(checkout.view, 'nothing has arrived: the account stays shown').to.equal('transfer');
    expect(text()).not.to.include('Waiting for your transfer.');

    stub.answerAlways('/checkout/order/status', { body: transferStatus({ amount_due: 2500, amount_received: 10000 }) });
    const notice = await waitFor(() => deepQuery(root(), 'ck-transfer-details')?.shadowRoot?.querySelector('.notice[role=status]'));
    expect(notice.textContent).to.include('We received ₦10,000.00. Send the remaining ₦2,500.00 to the same account');
    expect(() => buttonByText(root(), 'Change payment method'), 'part of the money has arrived').to.throw();
    expect(buttonByText(root(), 'I have sent the money'), 'the button stays as a nudge').to.exist;

    stub.answerAlways('/checkout/order/status', { body: paidStatus({ payment_type: 'Pay With Bank Transfer', total_charged_amount: 12500 }) });
    await view('success');
    expect(named('checkout:success')).to.have.length(1);
    await waitFor(() => activeElement()?.textContent === 'Payment successful');
    const polls = stub.requestsTo('/checkout/order/status').length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stub.requestsTo('/checkout/order/status')).to.have.length(polls, 'watching stops once paid');
  });

  it('keeps the account details on screen while a status check fails for a moment, and still notices the payment', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { body: transferAnswer() });
    stub.answerAlways('/checkout/order/status', { networkError: true });
    await mount();
    checkout.transferBackoff = { baseMs: 20, maxMs: 40, factor: 1.2 };
    await choose('Bank transfer');
    buttonByText(root(), 'Get account details').click();
    await view('transfer');
    await waitFor(() => stub.requestsTo('/checkout/order/status').length >= 7);
    expect(checkout.view).to.equal('transfer');
    stub.answerAlways('/checkout/order/status', { body: paidStatus({ payment_type: 'Pay With Bank Transfer', total_charged_amount: 12500 }) });
    await view('success');
  });

  it('says what arrived before an account expired and that it will be refunded, in English and French', async () => {
    for (const [locale, expected] of [
      ['en-NG', 'We received ₦5,000.00 before the account expired. It does not count towards this payment: Kola Books has a record of it and will refund it.'],
      ['fr-FR', 'Nous avons reçu 5 000,00 NGN avant l’expiration du compte.'],
    ] as const) {
      sessionStorage.clear();
      stub.answer('/checkout/order/create', { body: createOrderAnswer() });
      stub.answer('/checkout/order/pay', { body: transferAnswer() });
      stub.answerAlways('/checkout/order/status', {
        body: transferStatus({ payment_status: 4, payment_response_code: '04', payment_response_message: 'Account number has expired', amount_due: 0, amount_received: 5000 }),
      });
      await mount({ locale });
      checkout.transferBackoff = { baseMs: 20, maxMs: 40, factor: 1.2 };
      await view('options');
      const label = locale === 'en-NG' ? 'Bank transfer' : 'Virement bancaire';
      await waitFor(() => deepQueryAll<HTMLLabelElement>(root(), 'label').some((each) => each.textContent?.includes(label)));
      inputByLabel(root(), label).click();
      await waitFor(() => checkout.flow.quote);
      (root().querySelector('button.primary') as HTMLButtonElement).click();
      await view('expired');
      expect(text().replace(/\u202f|\u00a0/g, ' ')).to.include(expected);
      await expectAccessible(checkout);
      checkout.remove();
    }
  });

  it('tells the customer who sent too much that the excess is recorded for a refund', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { body: transferAnswer() });
    stub.answerAlways('/checkout/order/status', {
      body: paidStatus({ payment_type: 'Pay With Bank Transfer', total_charged_amount: 12500, amount_received: 13000, excess_amount: 500 }),
    });
    await mount();
    await choose('Bank transfer');
    buttonByText(root(), 'Get account details').click();
    await view('transfer');
    buttonByText(root(), 'I have sent the money').click();
    await view('success');
    expect(text()).to.include('You sent ₦500.00 more than was due. Kola Books has a record of it and will refund it.');
    await expectAccessible(checkout);
  });

  /** A transfer account that expires 1.5 s after it is shown, and the checkout's expired view once it has. */
  async function expireTransferAccount(): Promise<void> {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { body: transferAnswer(transferDetails({ expiresAt: formatTimestamp(new Date(Date.now() + 1500)) })) });
    stub.answerAlways('/checkout/order/status', {
      body: transferStatus({ payment_status: 4, payment_response_code: '04', payment_response_message: 'Account number has expired' }),
    });
    await mount();
    await choose('Bank transfer');
    buttonByText(root(), 'Get account details').click();
    await view('transfer');
    await view('expired');
  }

  it('ends an expired transfer account and offers a new one', async () => {
    await expireTransferAccount();
    expect(text()).to.include('The account number has expired');
    const [expired] = named<Event & { code: string }>('checkout:error');
    expect(expired).to.include({ code: '04', status: 'Failed' });
    await expectAccessible(checkout);

    stub.answer('/checkout/order/pay', { body: transferAnswer(transferDetails({ bankAccount: '0987654321' })) });
    buttonByText(root(), 'Get a new account number').focus();
    await press('Enter');
    await view('transfer');
    expect(text()).to.include('0987654321');
  });

  /** A pay request that waits until the test lets it fail as a lost connection would. */
  function holdPayThenFail(): () => void {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    stub.answer('/checkout/order/pay', async () => {
      await held;
      return { networkError: true };
    });
    return release;
  }

  /** Enter on the focused button asks for an account; focus stays on it while it asks, and after the request fails. */
  async function keepsFocusWhileAsking(label: string, account: BankTransferDetails): Promise<void> {
    const release = holdPayThenFail();
    stub.answer('/checkout/order/pay', { body: transferAnswer(account) });
    const asked = stub.requestsTo('/checkout/order/pay').length;
    const button = buttonByText(root(), label);
    button.focus();
    await press('Enter');
    await waitFor(() => checkout.matches(':state(busy)'));
    expect(activeElement() === button, 'focus stays on the button while it asks').to.equal(true);
    expect(button.getAttribute('aria-disabled')).to.equal('true');
    await press('Enter');
    release();
    const alert = await waitFor(() => root().querySelector('[role=alert]'));
    expect(alert.textContent).to.include('Check your internet connection');
    expect(activeElement() === button, 'focus stays on the button after asking failed').to.equal(true);
    expect(button.getAttribute('aria-disabled')).to.equal('false');
    expect(stub.requestsTo('/checkout/order/pay')).to.have.length(asked + 1, 'a press while asking asks nothing more');
    await expectAccessible(checkout);
    await press('Enter');
    await view('transfer');
  }

  it('keeps focus on "Get account details" while the account is asked for and after asking fails', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    await mount();
    await choose('Bank transfer');
    await keepsFocusWhileAsking('Get account details', transferDetails());
    expect(text()).to.include('Account number 0123456789');
  });

  it('keeps focus on "Get a new account number" while the account is asked for and after asking fails', async () => {
    await expireTransferAccount();
    await keepsFocusWhileAsking('Get a new account number', transferDetails({ bankAccount: '0987654321' }));
    expect(text()).to.include('0987654321');
  });

  it('explains a decline in plain words and lets the customer try again with the name on the card kept', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { body: declinedAnswer('51', 'Insufficient funds') });
    await mount();
    await payWithTypedCard();
    await view('failure');
    expect(text()).to.include('Payment not completed');
    expect(text()).to.include('There is not enough money on this card. Try another card.');
    expect(named<Event & { code: string }>('checkout:error')[0]).to.include({ code: '51', reference: REFERENCE });
    await expectAccessible(checkout);

    buttonByText(root(), 'Try again').click();
    await view('card');
    await waitFor(() => deepQuery(root(), 'ck-card-form')?.shadowRoot?.querySelector('#number'));
    expect(inputByLabel(root(), 'Name on card').value).to.equal('Ada Obi');
    expect(inputByLabel(root(), 'Card number').value, 'card data is never kept').to.equal('');
    expect(inputByLabel(root(), 'Security code').value).to.equal('');
    buttonByText(root(), 'Change payment method').click();
    await view('options');
  });

  it('keeps Continue and Pay to the quoted total: no going on while the fee quote is missing, and one quote for both views', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/fee', { networkError: true });
    await mount();
    await view('options');
    inputByLabel(root(), 'Card').focus();
    await press('Space');
    await waitFor(() => text().includes('The fee could not be worked out.'));
    const proceed = buttonByText(root(), 'Continue with card');
    expect(proceed.getAttribute('aria-disabled')).to.equal('true');
    expect(root().getElementById(proceed.getAttribute('aria-describedby')!)!.textContent).to.include('You can pay once the total, fee included, is known.');
    expect(deepText(root().querySelector('ck-checkout-header')!)).not.to.include('₦12,787.50');
    await expectAccessible(checkout);
    proceed.focus();
    await press('Enter');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(checkout.view).to.equal('options');

    buttonByText(root(), 'Try again').focus();
    await press('Enter');
    await waitFor(() => text().includes('Total to pay ₦12,787.50'));
    expect(activeElement()?.textContent, 'focus stays in the fee box, not on the page').to.equal('Amount to pay');
    expect(proceed.getAttribute('aria-disabled')).to.equal('false');
    proceed.focus();
    await press('Enter');
    await view('card');
    const pay = await waitFor(() => buttonByText(root(), /^Pay /));
    expect(pay.textContent).to.match(/Pay\s+₦12,787\.50/);
    expect(stub.requestsTo('/checkout/order/fee')).to.have.length(2, 'the failed quote and its retry; the card view reuses the quote');
  });

  it('moves focus to the wait after "I have sent the money" and lets the customer change method while nothing has arrived', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { body: transferAnswer() });
    stub.answerAlways('/checkout/order/status', { body: transferStatus() });
    await mount();
    await choose('Bank transfer');
    buttonByText(root(), 'Get account details').focus();
    await press('Enter');
    await view('transfer');
    buttonByText(root(), 'I have sent the money').focus();
    await press('Enter');
    await waitFor(() => activeElement()?.textContent?.includes('Waiting for your transfer.'));
    expect(activeElement()!.getAttribute('role')).to.equal('status');
    await expectAccessible(checkout);

    buttonByText(root(), 'Change payment method').focus();
    await press('Enter');
    await view('options');
    const polls = stub.requestsTo('/checkout/order/status').length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stub.requestsTo('/checkout/order/status')).to.have.length(polls, 'no more polling once the customer pays another way');
  });

  it('stays on the payment options when a status answer arrives just after the customer changed method', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { body: transferAnswer() });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const statusAsked = new Promise<void>((resolve) => (asked = resolve));
    stub.answerAlways('/checkout/order/status', async () => {
      asked();
      await released;
      return { body: transferStatus() };
    });
    await mount();
    await choose('Bank transfer');
    buttonByText(root(), 'Get account details').click();
    await view('transfer');
    buttonByText(root(), 'I have sent the money').click();
    await statusAsked;

    buttonByText(root(), 'Change payment method').click();
    await view('options');
    release();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(checkout.view).to.equal('options');
  });

  it('does not offer another method once part of the transfer has arrived', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { body: transferAnswer() });
    stub.answerAlways('/checkout/order/status', { body: transferStatus({ amount_due: 2500 }) });
    await mount();
    await choose('Bank transfer');
    buttonByText(root(), 'Get account details').click();
    await view('transfer');
    buttonByText(root(), 'I have sent the money').click();
    await waitFor(() => text().includes('Send the remaining ₦2,500.00'));
    expect(() => buttonByText(root(), 'Change payment method')).to.throw();
  });

  it('says when the bank did not confirm a 3-D Secure payment, in English and French', async () => {
    for (const [locale, message] of [
      ['en-NG', 'Your bank did not confirm the payment. Try again or choose another method.'],
      ['fr-FR', 'Votre banque n’a pas confirmé le paiement. Réessayez ou choisissez un autre moyen de paiement.'],
    ] as const) {
      sessionStorage.clear();
      stub.answer('/checkout/order/create', { body: createOrderAnswer() });
      stub.answer('/checkout/order/pay', { body: authenticateAnswer() });
      await mount({ locale });
      await view('options');
      await waitFor(() => inputByLabel(root(), locale === 'fr-FR' ? 'Carte' : 'Card'));
      checkout.flow.selectOption('C');
      await waitFor(() => checkout.flow.quote);
      await checkout.flow.continue();
      await view('card');
      const form = await waitFor(() => deepQuery(root(), 'ck-card-form')?.shadowRoot?.querySelector('#number') && deepQuery(root(), 'ck-card-form')!);
      await typeInto(inputByLabel(form.shadowRoot!, locale === 'fr-FR' ? 'Numéro de carte' : 'Card number'), '5123450000784608');
      await typeInto(inputByLabel(form.shadowRoot!, locale === 'fr-FR' ? 'Date d’expiration' : 'Expiry date'), `12${nextYear}`);
      await typeInto(inputByLabel(form.shadowRoot!, locale === 'fr-FR' ? 'Code de sécurité' : 'Security code'), '123');
      await typeInto(inputByLabel(form.shadowRoot!, locale === 'fr-FR' ? 'Nom sur la carte' : 'Name on card'), 'Ada Obi');
      await press('Enter');
      await view('authenticating');
      checkout.remove();

      // The bank's page sends the customer back with status=failed; the order is unpaid again.
      const before = window.location.href;
      const returned = new URL(before);
      returned.searchParams.set('reference', REFERENCE);
      returned.searchParams.set('status', 'failed');
      window.history.replaceState(null, '', returned);
      stub.answer('/checkout/order/status', { body: statusAnswer({ payment_status: 1, payment_reference: null, payment_type: null, payment_response_code: null, payment_response_message: null }) });
      await mount({ locale });
      await view('options');
      const alert = await waitFor(() => root().querySelector('[role=alert]'));
      expect(alert.textContent).to.equal(message);
      await expectAccessible(checkout);
      checkout.remove();
      expect(window.location.href).to.equal(before);
    }
  });

  it('offers to continue with the bank (showing the amount charged), or to pay another way, after a reload during 3-D Secure', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { body: authenticateAnswer() });
    await mount();
    await payWithTypedCard();
    await view('authenticating');
    await waitFor(() => redirects.length === 1);
    checkout.remove();

    // A reload while the bank's page was open: no return parameters, the payment still waits for the bank.
    stub.answerAlways('/checkout/order/status', { body: statusAnswer() });
    await mount();
    await view('authenticating');
    await waitFor(() => text().includes('Your bank’s page was open when this page reloaded.'));
    expect(text()).not.to.include('Checking the payment with your bank');
    await waitFor(() => activeElement()?.textContent === 'Confirm with your bank');
    expect(deepText(root().querySelector('ck-checkout-header')!), 'the amount being charged, fee included').to.include('₦12,787.50');
    await expectAccessible(checkout);
    buttonByText(root(), 'Continue with your bank').focus();
    await press('Enter');
    expect(redirects).to.deep.equal([AUTH_URL, AUTH_URL]);

    checkout.remove();
    await mount();
    await view('authenticating');
    buttonByText(root(), 'Use another payment method').focus();
    await press('Enter');
    await view('options');
  });

  it('shows the French generic message, not the server’s English detail, when the order is refused', async () => {
    stub.fail('/checkout/order/create', 'VAL400', 'Amount must be a positive number.');
    await mount({ locale: 'fr-FR' });
    await view('error');
    await waitFor(() => text().includes('Les détails de la commande ont été refusés. Merci de prévenir le marchand.'));
    expect(text()).not.to.include('Amount must be');
    await expectAccessible(checkout);
  });

  it('sets the page language and a localized title when it owns the page, and leaves a host page alone', async () => {
    const html = document.documentElement;
    const saved = { lang: html.lang, title: document.title, colorScheme: html.style.colorScheme };
    try {
      stub.answer('/checkout/order/create', { body: createOrderAnswer() });
      await mount({ locale: 'fr-FR' });
      await waitFor(() => text().includes('Choisissez votre moyen de paiement'));
      expect(html.lang).to.equal(saved.lang);
      expect(document.title).to.equal(saved.title);
      checkout.remove();

      sessionStorage.clear();
      stub.answer('/checkout/order/create', { body: createOrderAnswer() });
      await mount({ locale: 'fr-FR' }, true);
      await waitFor(() => html.lang === 'fr-FR');
      expect(document.title).to.equal('Paiement');
    } finally {
      html.lang = saved.lang;
      document.title = saved.title;
      html.style.colorScheme = saved.colorScheme;
    }
  });

  it("gives the page it owns the checkout's colour scheme, and leaves a host page's alone", async () => {
    const root = document.documentElement;
    const saved = root.style.colorScheme;
    root.style.colorScheme = 'normal';
    try {
      stub.answer('/checkout/order/create', { body: createOrderAnswer() });
      await mount({ theme: 'dark' });
      await view('options');
      expect(root.style.colorScheme, 'a host page keeps its own').to.equal('normal');
      checkout.remove();

      sessionStorage.clear();
      stub.answer('/checkout/order/create', { body: createOrderAnswer() });
      await mount({ theme: 'dark' }, true);
      await view('options');
      expect(root.style.colorScheme).to.equal('dark');
      expect(getComputedStyle(document.body).colorScheme).to.equal('dark');
      checkout.theme = 'light';
      await checkout.updateComplete;
      expect(root.style.colorScheme).to.equal('light');
      checkout.theme = 'auto';
      await checkout.updateComplete;
      expect(root.style.colorScheme).to.equal('light dark');
    } finally {
      root.style.colorScheme = saved;
    }
  });

  it('shows no placeholder logo while the merchant is unknown', async () => {
    stub.answer('/checkout/order/create', { networkError: true });
    await mount();
    await view('error');
    const header = root().querySelector('ck-checkout-header')!;
    expect(header.shadowRoot!.querySelector('[part=logo]')).to.equal(null);
    expect(deepText(header)).not.to.include('·');
  });

  it('says what to do when the merchant key is refused, and offers no pointless retry', async () => {
    stub.keysAnswer = { status: 401, body: { status: 'failed', statusCode: 'AUTH401', message: 'The api-key header is missing or unknown.' } };
    await mount();
    await view('error');
    expect(text()).to.include('This checkout is not set up correctly, so it cannot take payments. Please let the merchant know.');
    expect(() => buttonByText(root(), 'Try again')).to.throw();
    expect(named<Event & { code: string }>('checkout:error')[0]).to.include({ code: 'AUTH401' });
    await expectAccessible(checkout);
  });

  it('recovers from a network failure when the customer tries again', async () => {
    stub.answer('/checkout/order/create', { networkError: true });
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    await mount();
    await view('error');
    expect(text()).to.include('Check your internet connection, then try again.');
    buttonByText(root(), 'Try again').click();
    await view('options');
  });

  it('creates the order again after a lost answer with the key of the first try', async () => {
    stub.answer('/checkout/order/create', { networkError: true });
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    await mount();
    await view('error');
    buttonByText(root(), 'Try again').click();
    await view('options');
    // Its tracking call finishes inside the test, while the stub still answers.
    await waitFor(() => stub.trackedEvents().includes('opened'));
    const [first, retried] = stub.requestsTo('/checkout/order/create').map((request) => request.headers.get('idempotency-key'));
    expect(first).to.match(/^[0-9a-f-]{36}$/);
    expect(retried).to.equal(first);
  });

  it('asks for a transfer account again after a lost answer with the same key, and for a new account with a new key; reads carry none', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { networkError: true });
    stub.answer('/checkout/order/pay', { body: transferAnswer(transferDetails({ expiresAt: formatTimestamp(new Date(Date.now() + 1500)) })) });
    stub.answerAlways('/checkout/order/status', {
      body: transferStatus({ payment_status: 4, payment_response_code: '04', payment_response_message: 'Account number has expired' }),
    });
    await mount();
    await choose('Bank transfer');
    buttonByText(root(), 'Get account details').click();
    await waitFor(() => root().querySelector('[role=alert]'));
    buttonByText(root(), 'Get account details').click();
    await view('transfer');
    await view('expired');
    stub.answer('/checkout/order/pay', { body: transferAnswer(transferDetails({ bankAccount: '0987654321' })) });
    buttonByText(root(), 'Get a new account number').click();
    await view('transfer');
    await waitFor(() => stub.trackedEvents().filter((name) => name === 'transfer-shown').length === 2);

    const [first, retried, fresh] = stub.requestsTo('/checkout/order/pay').map((request) => request.headers.get('idempotency-key'));
    expect(first).to.match(/^[0-9a-f-]{36}$/);
    expect(retried).to.equal(first);
    expect(fresh).to.match(/^[0-9a-f-]{36}$/);
    expect(fresh).not.to.equal(first);
    for (const path of ['/checkout/order/fee', '/checkout/order/status']) {
      expect(stub.requestsTo(path).length, path).to.be.greaterThan(0);
      expect(stub.requestsTo(path).every((request) => !request.headers.has('idempotency-key')), path).to.equal(true);
    }
  });

  /** The host page's next order on the same checkout, as the demo's "Start a new order" sets it. */
  const NEXT = 'ORD-1002';
  const nextOrder = () =>
    orderData({
      order: { ...orderData().order, reference: NEXT, amount: 5000 },
      subsidiaryOrderSummary: { orderName: `Kola Books Order ${NEXT}`, totalAmount: 5000, reference: NEXT, currency: 'NGN', orderItems: [{ name: 'Arrow of God', amount: 5000 }] },
    });
  function startNextOrder(): void {
    checkout.setAttribute('reference', NEXT);
    checkout.setAttribute('amount', '5000');
    checkout.setAttribute('items', JSON.stringify([{ name: 'Arrow of God', amount: 5000 }]));
  }
  const header = () => deepText(root().querySelector('ck-checkout-header')!);
  const readyFor = () => named<Event & { reference: string; status: string }>('checkout:ready').map((event) => [event.reference, event.status]);

  it('starts the next order afresh after one was paid: new total in the header, new reference in its events', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { body: paidAnswer() });
    await mount();
    await payWithTypedCard();
    await view('success');
    expect(header()).to.include('₦12,787.50');

    stub.answer('/checkout/order/create', { body: createOrderAnswer(nextOrder()) });
    stub.answer('/checkout/order/fee', { body: feeAnswer(feeQuote('C', { amount: 5000, fee: 175, customerFee: 175, totalChargedAmount: 5175 })) });
    stub.answer('/checkout/order/pay', { body: declinedAnswer('51', 'Insufficient funds') });
    startNextOrder();
    await view('options');
    await waitFor(() => text().includes('Arrow of God'));
    expect(header()).to.include('₦5,000.00');
    expect(header()).not.to.include('₦12,787.50');
    expect(text()).not.to.include('Payment successful');
    expect(readyFor()).to.deep.equal([
      [REFERENCE, 'Initiated'],
      [NEXT, 'Initiated'],
    ]);

    await payWithTypedCard();
    await view('failure');
    expect(header()).to.include('₦5,175.00');
    expect((stub.requestsTo('/checkout/order/pay')[1]!.plain as { reference: string }).reference).to.equal(NEXT);
    expect(named<Event & { reference: string; code: string }>('checkout:error').map((event) => [event.reference, event.code])).to.deep.equal([[NEXT, '51']]);
    buttonByText(root(), 'Try again').focus();
    await press('Enter');
    await view('card');
  });

  it('creates the new order, not the previous one, when the customer retries after the create failed', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { body: transferAnswer() });
    await mount();
    await choose('Bank transfer');
    buttonByText(root(), 'Get account details').click();
    await view('transfer');

    stub.answer('/checkout/order/create', { networkError: true });
    startNextOrder();
    await view('error');
    expect(named<Event & { reference: string; code: string }>('checkout:error').map((event) => [event.reference, event.code])).to.deep.equal([[NEXT, 'NETWORK']]);

    stub.answer('/checkout/order/create', { body: createOrderAnswer(nextOrder()) });
    buttonByText(root(), 'Try again').focus();
    await press('Enter');
    await view('options');
    await waitFor(() => text().includes('Arrow of God'));
    expect(stub.requestsTo('/checkout/order/create').map((request) => (request.plain as { order: { reference: string } }).order.reference)).to.deep.equal([
      REFERENCE,
      NEXT,
      NEXT,
    ]);
    expect(stub.requestsTo('/checkout/order/status')).to.have.length(0);
    expect(text()).not.to.include('0123456789');
    expect(header()).to.include('₦5,000.00');
    expect(readyFor()).to.deep.equal([
      [REFERENCE, 'Initiated'],
      [NEXT, 'Initiated'],
    ]);
    expect(inputByLabel(root(), 'Bank transfer').checked).to.equal(false);
  });

  it('resumes the same order after a reload instead of creating it twice', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    await mount();
    await choose('Bank transfer');
    checkout.remove();

    stub.answer('/checkout/order/status', { body: statusAnswer({ payment_status: 1, payment_reference: null, payment_type: null }) });
    await mount();
    await view('options');
    expect(stub.requestsTo('/checkout/order/create')).to.have.length(1);
    expect(inputByLabel(root(), 'Bank transfer').checked).to.equal(true);
    expect(text()).to.include('Gift wrapping');
  });

  it('keeps each order\'s place apart when two checkouts share a tab, and resumes the first after a reload', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    await mount();
    await choose('Bank transfer');
    checkout.remove();

    // Another checkout in the same tab (a modal beside an inline one) with an order of its own.
    const other = orderData({ order: { ...orderData().order, reference: 'ORD-OTHER-2' } });
    stub.answer('/checkout/order/create', { body: createOrderAnswer(other) });
    await mount({ reference: 'ORD-OTHER-2' });
    await choose('Card');
    checkout.remove();

    stub.answer('/checkout/order/status', { body: statusAnswer({ payment_status: 1, payment_reference: null, payment_type: null }) });
    await mount();
    await view('options');
    expect(stub.requestsTo('/checkout/order/create').map((request) => (request.plain as { order: { reference: string } }).order.reference)).to.deep.equal([REFERENCE, 'ORD-OTHER-2']);
    expect(inputByLabel(root(), 'Bank transfer').checked).to.equal(true);
  });

  it('shows where an order already is when the page creates it again in a tab with no record of it', async () => {
    const paidOrder = orderData({ order: { ...orderData().order, statusId: 5, status: 'Successful' } });
    stub.answer('/checkout/order/create', { body: createOrderAnswer(paidOrder) });
    stub.answerAlways('/checkout/order/status', { body: paidStatus() });
    await mount();
    await view('success');
    expect(stub.requestsTo('/checkout/order/create')).to.have.length(1);
    expect(stub.requestsTo('/checkout/order/pay')).to.have.length(0);
    const [ready] = named<Event & { reference: string; status: string }>('checkout:ready');
    expect(ready).to.include({ reference: REFERENCE, status: 'Successful' });
  });

  it('resumes a transfer the customer already reported as sent, and keeps polling', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { body: transferAnswer() });
    stub.answerAlways('/checkout/order/status', { body: transferStatus() });
    await mount();
    await choose('Bank transfer');
    buttonByText(root(), 'Get account details').click();
    await view('transfer');
    buttonByText(root(), 'I have sent the money').click();
    await waitFor(() => stub.requestsTo('/checkout/order/status').length > 0);
    checkout.remove();

    const before = stub.requestsTo('/checkout/order/status').length;
    await mount();
    await view('transfer');
    expect(text()).to.include('Waiting for your transfer.');
    await waitFor(() => stub.requestsTo('/checkout/order/status').length >= before + 3);
  });

  it('speaks French with French number formats when the locale says so', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer(orderData()) });
    await mount({ locale: 'fr-FR' });
    await view('options');
    // The French catalog is its own chunk; it may arrive after the order does.
    await waitFor(() => text().includes('Choisissez votre moyen de paiement'));
    expect(text()).to.match(/Sous-total 12\s500,00\sNGN/);
    expect(root().querySelector('.panel')!.getAttribute('lang')).to.equal('fr');
    await expectAccessible(checkout);
  });

  it('is light unless the host asks, whatever the system prefers; auto follows the system', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    await emulateMedia({ colorScheme: 'dark' });
    try {
      await mount();
      await view('options');
      const panel = root().querySelector('.panel')!;
      expect(getComputedStyle(panel).backgroundColor).to.equal('rgb(255, 255, 255)');
      checkout.setAttribute('theme', 'auto');
      await checkout.updateComplete;
      expect(getComputedStyle(panel).backgroundColor).to.equal('rgb(15, 23, 42)');
    } finally {
      await emulateMedia({ colorScheme: 'light' });
    }
  });

  it('follows the theme attribute for light and dark, and exposes its state to host styles', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    await mount({ theme: 'dark' });
    await view('options');
    const panel = root().querySelector('.panel')!;
    expect(getComputedStyle(panel).colorScheme).to.equal('dark');
    expect(getComputedStyle(panel).backgroundColor).to.equal('rgb(15, 23, 42)');
    // A real primary button in the dark: a saturated fill with white text, not a pale one that looks disabled.
    const primary = getComputedStyle(root().querySelector('button.primary')!);
    expect([primary.backgroundColor, primary.color]).to.deep.equal(['rgb(79, 70, 229)', 'rgb(255, 255, 255)']);
    expect(checkout.matches(':state(options)')).to.equal(true);
    expect(checkout.matches(':state(loading)')).to.equal(false);
    await expectAccessible(checkout);
    checkout.setAttribute('theme', 'light');
    await checkout.updateComplete;
    expect(getComputedStyle(panel).backgroundColor).to.equal('rgb(255, 255, 255)');
  });

  it('lets the host theme it through --checkout-* custom properties and ::part', async () => {
    const style = document.createElement('style');
    style.textContent =
      'ck-checkout { --checkout-accent: rgb(0, 100, 0); } ck-checkout::part(header) { padding-top: 33px; } ck-checkout::part(option) { padding-left: 21px; }';
    document.head.append(style);
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    await mount({ theme: 'light' });
    await view('options');
    expect(getComputedStyle(deepQuery(root(), '.monogram')!).backgroundColor).to.equal('rgb(0, 100, 0)');
    expect(getComputedStyle(root().querySelector('ck-checkout-header')!).paddingTop).to.equal('33px');
    expect(getComputedStyle(deepQuery(root(), 'label[part=option]')!).paddingLeft).to.equal('21px');
    style.remove();
  });

  it('fires checkout:close from the close button when shown as a dialog', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    await mount({ closable: '' });
    await view('options');
    buttonByText(root(), 'Close checkout').focus();
    await press('Enter');
    expect(named<Event & { reference: string }>('checkout:close')[0]).to.include({ reference: REFERENCE });
    await waitFor(() => stub.trackedEvents().includes('closed'));
  });

  it('offers Done after paying where it closes something (a dialog, a page of its own), not inline in a merchant page', async () => {
    for (const [attributes, done] of [[{ embedded: '' }, false], [{ embedded: '', closable: '' }, true], [{}, true]] as const) {
      sessionStorage.clear();
      // Back from the bank's page, paid.
      const returned = new URL(window.location.href);
      returned.searchParams.set('reference', REFERENCE);
      returned.searchParams.set('status', 'successful');
      window.history.replaceState(null, '', returned);
      stub.answer('/checkout/order/create', { body: createOrderAnswer() });
      stub.answer('/checkout/order/status', { body: paidStatus() });
      await mount(attributes);
      await view('success');
      await waitFor(() => text().includes('You paid'));
      expect(root().querySelectorAll('button.primary').length, JSON.stringify(attributes)).to.equal(done ? 1 : 0);
      checkout.remove();
    }
  });

  it('keeps "Change payment method" and the Test mode badge on one line each at 320 px in French too', async () => {
    await setViewport({ width: 320, height: 640 });
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { body: transferAnswer() });
    await mount({ locale: 'fr-FR' });
    await view('options');
    inputByLabel(root(), 'Virement bancaire').click();
    await waitFor(() => text().includes('Total à payer'));
    buttonByText(root(), 'Obtenir les coordonnées du compte').click();
    await view('transfer');
    const oneLine = (element: Element) => element.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(element).lineHeight);
    expect(oneLine(deepQuery(root(), '.test-mode')!), 'Mode test badge').to.equal(true);
    expect(oneLine(buttonByText(root(), 'Autre moyen de paiement')), 'Autre moyen de paiement').to.equal(true);
    expect(deepText(root().querySelector('footer')!)).to.equal('Paiement sécurisé.');
  });

  it("takes the merchant's branding: brand colour on the main button with readable text, radius, font and compact density", async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    await mount({ 'brand-color': '#0A7C59', radius: '4', font: 'serif', density: 'compact' });
    await view('options');
    const continueButton = buttonByText(root(), /^Continue/);
    const style = getComputedStyle(continueButton);
    expect(style.backgroundColor).to.equal('rgb(10, 124, 89)');
    expect(style.color).to.equal('rgb(255, 255, 255)');
    expect(continueButton.getBoundingClientRect().height).to.equal(40);
    expect(getComputedStyle(root().querySelector('.panel')!).borderRadius).to.equal('4px');
    expect(getComputedStyle(root().querySelector('.panel')!).fontFamily).to.match(/^Charter/);
    await expectAccessible(checkout);

    // A pale brand colour gets dark text; links keep 4.5:1 on the white panel (the colour darkened for them).
    checkout.setAttribute('brand-color', '#ffd84d');
    await checkout.updateComplete;
    expect(getComputedStyle(continueButton).color).to.equal('rgb(0, 0, 0)');
    await expectAccessible(checkout);
  });

  it('ignores branding values of another shape and keeps its own look', async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    await mount({ 'brand-color': 'red', radius: '40px', font: 'Papyrus', density: 'tiny' });
    await view('options');
    const continueButton = buttonByText(root(), /^Continue/);
    expect(getComputedStyle(continueButton).backgroundColor).to.equal('rgb(67, 56, 202)');
    expect(continueButton.getBoundingClientRect().height).to.equal(44);
    expect(getComputedStyle(root().querySelector('.panel')!).borderRadius).to.equal('12px');
    expect(checkout.getAttribute('style') ?? '').to.equal('');
  });

  it("shows the merchant's logo from the order (https only) instead of its initials", async () => {
    stub.answer('/checkout/order/create', { body: createOrderAnswer(orderData({ subsidiary: { id: 7, name: 'Kola Books', country: 'NG', supportEmail: 'help@kola.test', customization: [], logo: 'https://cdn.kola.test/logo.png' } })) });
    await mount();
    await view('options');
    const logo = deepQuery(root(), '[part=logo]')!;
    expect(logo.tagName).to.equal('IMG');
    expect(logo.getAttribute('src')).to.equal('https://cdn.kola.test/logo.png');
    checkout.remove();
    sessionStorage.clear();

    stub.answer('/checkout/order/create', { body: createOrderAnswer(orderData({ subsidiary: { id: 7, name: 'Kola Books', country: 'NG', supportEmail: 'help@kola.test', customization: [], logo: 'http://cdn.kola.test/logo.png' } })) });
    await mount();
    await view('options');
    expect(deepQuery(root(), '[part=logo]')!.textContent).to.equal('KB');
  });

  it('fits a 320 px wide screen (and so 200% zoom on a 640 px one) without sideways scrolling', async () => {
    await setViewport({ width: 320, height: 640 });
    stub.answer('/checkout/order/create', { body: createOrderAnswer() });
    stub.answer('/checkout/order/pay', { body: transferAnswer() });
    await mount();
    await choose('Bank transfer');
    const fits = () => document.documentElement.scrollWidth <= 320 && checkout.getBoundingClientRect().right <= 320;
    expect(fits()).to.equal(true);
    buttonByText(root(), 'Get account details').click();
    await view('transfer');
    expect(fits()).to.equal(true);
    // One line each: the badge beside the merchant's name, and "Change payment method" starting at the left edge.
    const oneLine = (element: Element) => element.getClientRects().length === 1 && element.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(element).lineHeight);
    const badge = deepQuery(root(), '.test-mode')!;
    expect(oneLine(badge), 'Test mode badge on one line').to.equal(true);
    const back = buttonByText(root(), 'Change payment method');
    expect(getComputedStyle(back).textAlign).to.equal('start');
    expect(back.getBoundingClientRect().left - root().querySelector('.body')!.getBoundingClientRect().left).to.be.below(30);
    // Card encryption is not what a transfer screen is about.
    expect(deepText(root().querySelector('footer')!)).to.equal('Secured payment.');
    await expectAccessible(checkout);
  });
});
