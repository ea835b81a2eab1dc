import { expect } from 'chai';
import { resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import { CheckoutApi } from '../../../widget/api/client.ts';
import type { CkCardForm } from '../../../widget/components/card-form.ts';
import '../../../widget/components/card-form.ts';
import { Localizer } from '../../../widget/i18n/localizer.ts';
import { PaymentOutcomeEvent } from '../../../widget/internal-events.ts';
import { API_KEY, ApiStub } from '../support/api-stub.ts';
import { expectAccessible } from '../support/axe.ts';
import { activeElement, buttonByText, deepQuery, deepText, inputByLabel, press, typeInto, waitFor } from '../support/dom.ts';
import { authenticateAnswer, declinedAnswer, feeQuote, orderData, paidAnswer, REFERENCE } from '../support/fixtures.ts';

const nextYear = String((new Date().getFullYear() + 3) % 100).padStart(2, '0');

describe('ck-card-form', () => {
  let stub: ApiStub;
  let form: CkCardForm;

  async function mount(order = orderData()): Promise<CkCardForm> {
    form = document.createElement('ck-card-form');
    form.api = new CheckoutApi({ apiKey: API_KEY, baseUrl: window.location.origin });
    form.order = order;
    form.quote = feeQuote('C');
    form.localizer = new Localizer('en-NG');
    document.body.append(form);
    await form.updateComplete;
    return form;
  }

  const field = (label: string) => inputByLabel(form.shadowRoot!, label);
  const liveRegion = () => deepQuery(form.shadowRoot!, '[role=status][aria-live=polite]')!;

  async function fillValidCard(number = '4242424242424242'): Promise<void> {
    await typeInto(field('Card number'), number);
    await typeInto(field('Expiry date'), `12${nextYear}`);
    await typeInto(field('Security code'), number.startsWith('37') ? '1234' : '123');
    await typeInto(field('Name on card'), 'Ada Obi');
  }

  beforeEach(async () => {
    stub = await ApiStub.install();
  });

  afterEach(async () => {
    form?.remove();
    stub.restore();
    await resetMouse();
  });

  /** Puts the caret after `position` characters with the keyboard, the way a customer moves it. */
  async function caretTo(input: HTMLInputElement, position: number): Promise<void> {
    input.focus();
    await press('Home');
    for (let step = 0; step < position; step += 1) await press('ArrowRight');
  }

  it('groups the number as the brand prints it and names the brand while the customer types', async () => {
    await mount();
    const cases: [string, string, string][] = [
      ['4242424242424242', '4242 4242 4242 4242', 'Visa'],
      ['378282246310005', '3782 822463 10005', 'American Express'],
      ['5123450000784608', '5123 4500 0078 4608', 'Mastercard'],
      ['5061460410120223210', '5061 4604 1012 0223 210', 'Verve'],
    ];
    for (const [typed, shown, brand] of cases) {
      const number = field('Card number');
      number.select();
      await press('Backspace');
      await typeInto(number, typed);
      await form.updateComplete;
      expect(number.value).to.equal(shown);
      expect(deepText(form.shadowRoot!)).to.include(`${brand} card`);
      // The scheme's mark is drawn inline beside its name.
      const mark = form.shadowRoot!.querySelector('.badge svg.brand-mark')!;
      expect(mark.getAttribute('data-brand')).to.equal({ Visa: 'visa', 'American Express': 'amex', Mastercard: 'mastercard', Verve: 'verve' }[brand]);
      expect(mark.getBoundingClientRect().width).to.be.greaterThan(0);
    }
  });

  it('uses the autofill tokens and numeric keyboards that browsers and phones expect', async () => {
    await mount();
    expect(field('Card number').autocomplete).to.equal('cc-number');
    expect(field('Card number').inputMode).to.equal('numeric');
    expect(field('Expiry date').autocomplete).to.equal('cc-exp');
    expect(field('Expiry date').inputMode).to.equal('numeric');
    expect(field('Security code').autocomplete).to.equal('cc-csc');
    expect(field('Security code').inputMode).to.equal('numeric');
    expect(field('Name on card').autocomplete).to.equal('cc-name');
  });

  it('says "MM / YY" once for the expiry, in its hint, not again as a placeholder', async () => {
    await mount();
    expect(field('Expiry date').placeholder).to.equal('');
    expect(deepText(form.shadowRoot!).match(/MM \/ YY/g)).to.have.length(1);
  });

  it('says nothing while the customer types, then flags a number that fails the Luhn check once they leave the field', async () => {
    await mount();
    const number = field('Card number');
    await typeInto(number, '4242424242424241');
    await form.updateComplete;
    expect(number.getAttribute('aria-invalid')).to.equal('false');
    expect(deepText(form.shadowRoot!)).not.to.include('not valid');

    await press('Tab');
    await form.updateComplete;
    expect(number.getAttribute('aria-invalid')).to.equal('true');
    const errorId = number.getAttribute('aria-describedby')!.split(' ').find((id) => id.endsWith('-error'))!;
    const message = form.shadowRoot!.getElementById(errorId)!.textContent!;
    expect(message).to.include('This card number is not valid');
    expect(liveRegion().textContent).to.include('This card number is not valid');
    await expectAccessible(form);

    // Fixing the number clears the message as they type.
    number.focus();
    await press('Backspace');
    await sendKeys({ type: '2' });
    await form.updateComplete;
    expect(number.getAttribute('aria-invalid')).to.equal('false');
  });

  it('writes the expiry as MM / YY, and rejects a card that has already expired', async () => {
    await mount();
    const expiry = field('Expiry date');
    await typeInto(expiry, '7');
    expect(expiry.value).to.equal('07 / ');
    await sendKeys({ type: '20' });
    expect(expiry.value).to.equal('07 / 20');
    await press('Tab');
    await form.updateComplete;
    expect(expiry.getAttribute('aria-invalid')).to.equal('true');
    expect(deepText(form.shadowRoot!)).to.include('This card has expired');

    expiry.select();
    await press('Backspace');
    await typeInto(expiry, `12${nextYear}`);
    await form.updateComplete;
    expect(expiry.value).to.equal(`12 / ${nextYear}`);
    expect(expiry.getAttribute('aria-invalid')).to.equal('false');
  });

  it('takes the first mouse click on Pay even when leaving an invalid field shows its message', async () => {
    await mount();
    await typeInto(field('Card number'), '4242424242424242');
    await typeInto(field('Expiry date'), `12${nextYear}`);
    await typeInto(field('Name on card'), 'Ada Obi');
    await typeInto(field('Security code'), '12');
    // Where the button is before the security code field loses focus; the press lands near its top edge.
    const before = buttonByText(form.shadowRoot!, 'Pay').getBoundingClientRect();
    await sendMouse({ type: 'click', position: [Math.round(before.left + before.width / 2), Math.round(before.top + 6)] });
    await waitFor(() => liveRegion().textContent?.includes('1 field needs your attention.'));
    expect(activeElement()).to.equal(field('Security code'));
    expect(deepText(form.shadowRoot!)).to.include('Enter the 3-digit code.');
    expect(buttonByText(form.shadowRoot!, 'Pay').getBoundingClientRect().top).to.equal(before.top);
  });

  it('keeps room for each field message, so a message appearing does not move the Pay button', async () => {
    await mount();
    const before = buttonByText(form.shadowRoot!, 'Pay').getBoundingClientRect().top;
    await typeInto(field('Card number'), '4242424242424241');
    await press('Tab');
    await form.updateComplete;
    expect(deepText(form.shadowRoot!)).to.include('This card number is not valid');
    expect(buttonByText(form.shadowRoot!, 'Pay').getBoundingClientRect().top).to.equal(before);
  });

  describe('messages on one line, evenly spaced', () => {
    const far = String((new Date().getFullYear() + 30) % 100).padStart(2, '0');
    // Each case shows a set of messages at once (after a press on Pay); together they are every field message.
    const cases: { number: string; expiry: string; cvv: string }[] = [
      { number: '', expiry: '', cvv: '' },
      { number: '4242424242424241', expiry: '13', cvv: '12' },
      { number: '42424242', expiry: '0120', cvv: '1' },
      { number: '4242424242424242', expiry: `12${far}`, cvv: '1' },
    ];

    async function mountIn(width: number, locale: string): Promise<void> {
      const frame = document.createElement('div');
      frame.style.width = `${width}px`;
      form = document.createElement('ck-card-form');
      form.api = new CheckoutApi({ apiKey: API_KEY, baseUrl: window.location.origin });
      form.order = orderData();
      form.quote = feeQuote('C');
      form.localizer = await Localizer.load(locale);
      frame.append(form);
      document.body.append(frame);
      await form.updateComplete;
    }

    /** The gap between each control and the next field's label: the same everywhere when the spacing is even. */
    function gapsBelowControls(): number[] {
      const fields = [...form.shadowRoot!.querySelectorAll<HTMLElement>('.field')];
      return fields.flatMap((item) => {
        const control = item.querySelector('input')!.getBoundingClientRect();
        const below = fields
          .map((other) => other.querySelector('label')!.getBoundingClientRect())
          .filter((label) => label.top >= control.bottom)
          .sort((a, b) => a.top - b.top)[0];
        return below ? [Math.round(below.top - control.bottom)] : [];
      });
    }

    for (const locale of ['en-NG', 'fr-FR']) {
      for (const width of [440, 256]) {
        it(`keeps each message to its one line and the fields evenly spaced (${locale}, ${width} px)`, async () => {
          for (const typed of cases) {
            await mountIn(width, locale);
            const labels = locale === 'fr-FR' ? ['Numéro de carte', 'Date d’expiration', 'Code de sécurité'] : ['Card number', 'Expiry date', 'Security code'];
            const values = [typed.number, typed.expiry, typed.cvv];
            for (const [index, label] of labels.entries()) if (values[index]) await typeInto(field(label), values[index]!);
            const gapsBefore = gapsBelowControls();
            const payBefore = buttonByText(form.shadowRoot!, /Pay|Payer/).getBoundingClientRect().top;
            buttonByText(form.shadowRoot!, /Pay|Payer/).click();
            await waitFor(() => form.shadowRoot!.querySelectorAll('.error').length >= 3);
            await form.updateComplete;
            for (const error of form.shadowRoot!.querySelectorAll<HTMLElement>('.message .error')) {
              const lineHeight = parseFloat(getComputedStyle(error).lineHeight);
              expect(error.getBoundingClientRect().height, `"${error.textContent}" takes more than one line`).to.be.at.most(lineHeight + 1);
            }
            const gaps = gapsBelowControls();
            expect(new Set(gaps).size, `gaps under the fields: ${gaps.join(', ')}`).to.equal(1);
            expect(gaps).to.deep.equal(gapsBefore);
            expect(buttonByText(form.shadowRoot!, /Pay|Payer/).getBoundingClientRect().top).to.equal(payBefore);
            form.parentElement!.remove();
          }
        });
      }
    }
  });

  it('pads a single month digit when the customer types the separator, so 1/26 is January', async () => {
    await mount();
    const expiry = field('Expiry date');
    await typeInto(expiry, '1/');
    expect(expiry.value).to.equal('01 / ');
    await sendKeys({ type: nextYear });
    expect(expiry.value).to.equal(`01 / ${nextYear}`);
    await press('Tab');
    await form.updateComplete;
    expect(expiry.getAttribute('aria-invalid')).to.equal('false');
  });

  it('accepts a four-digit year typed as MM/YYYY and writes it as MM / YY', async () => {
    await mount();
    const expiry = field('Expiry date');
    await typeInto(expiry, `12/20${nextYear}`);
    expect(expiry.value).to.equal(`12 / ${nextYear}`);
    await press('Tab');
    await form.updateComplete;
    expect(expiry.getAttribute('aria-invalid')).to.equal('false');
  });

  it('keeps the caret where the customer edits the expiry and leaves the other digits alone', async () => {
    await mount();
    const expiry = field('Expiry date');
    await typeInto(expiry, '1230');
    expect(expiry.value).to.equal('12 / 30');

    // Backspace after the first month digit removes it, and does not turn the month into February.
    await caretTo(expiry, 1);
    await press('Backspace');
    expect(expiry.value).to.equal('2 / 30');
    expect(expiry.selectionStart).to.equal(0);
    await sendKeys({ type: '1' });
    expect(expiry.value).to.equal('12 / 30');
    expect(expiry.selectionStart).to.equal(1);

    // Changing the year's first digit keeps the caret in the year.
    await caretTo(expiry, 6);
    await press('Backspace');
    expect(expiry.value).to.equal('12 / 0');
    expect(expiry.selectionStart).to.equal(5);
    await sendKeys({ type: '4' });
    expect(expiry.value).to.equal('12 / 40');
    expect(expiry.selectionStart).to.equal(6);
  });

  it('says the month is wrong as soon as month 00 is left, before any year is typed', async () => {
    await mount();
    await typeInto(field('Expiry date'), '00');
    await press('Tab');
    await form.updateComplete;
    expect(deepText(form.shadowRoot!)).to.include('Enter a month, 01 to 12.');
    expect(deepText(form.shadowRoot!)).not.to.include('Enter it as MM / YY.');
  });

  it('deletes the digit beyond a group space with Delete and Backspace, keeping the caret beside it', async () => {
    await mount();
    const number = field('Card number');
    await typeInto(number, '4242424242424242');
    await caretTo(number, 4);
    await press('Delete');
    expect(number.value).to.equal('4242 2424 2424 242');
    expect(number.selectionStart).to.equal(4);
    await press('Delete');
    expect(number.value).to.equal('4242 4242 4242 42');
    expect(number.selectionStart).to.equal(4);

    await caretTo(number, 5);
    await press('Backspace');
    expect(number.value).to.equal('4244 2424 2424 2');
    expect(number.selectionStart).to.equal(3);
  });

  it('keeps American Express grouped 4-6-5 when deleting across its spaces', async () => {
    await mount();
    const number = field('Card number');
    await typeInto(number, '378282246310005');
    expect(number.value).to.equal('3782 822463 10005');
    await caretTo(number, 11);
    await press('Delete');
    expect(number.value).to.equal('3782 822463 0005');
    expect(number.selectionStart).to.equal(11);
    await caretTo(number, 12);
    await press('Backspace');
    expect(number.value).to.equal('3782 822460 005');
    expect(number.selectionStart).to.equal(10);
  });

  it('inserts a digit in the middle of the number and keeps the caret after it', async () => {
    await mount();
    const number = field('Card number');
    await typeInto(number, '424242424242424');
    await caretTo(number, 4);
    await sendKeys({ type: '9' });
    expect(number.value).to.equal('4242 9424 2424 2424');
    expect(number.selectionStart).to.equal(6);
  });

  it('offers no amount and does not pay until the fee is quoted', async () => {
    await mount();
    form.quote = undefined;
    await form.updateComplete;
    const pay = buttonByText(form.shadowRoot!, 'Pay');
    expect(pay.textContent!.trim()).to.equal('Pay');
    expect(pay.getAttribute('aria-disabled')).to.equal('true');
    const note = form.shadowRoot!.getElementById(pay.getAttribute('aria-describedby')!)!;
    expect(note.textContent).to.include('You can pay once the total, fee included, is known.');
    await expectAccessible(form);
    await fillValidCard();
    await press('Enter');
    await waitFor(() => liveRegion().textContent?.includes('You can pay once the total'));
    expect(stub.requestsTo('/checkout/order/pay')).to.have.length(0);

    form.quote = feeQuote('C');
    await form.updateComplete;
    expect(pay.textContent).to.match(/Pay\s+₦12,787\.50/);
    expect(pay.getAttribute('aria-disabled')).to.equal('false');
  });

  it('asks for a four-digit security code on American Express and three on other brands', async () => {
    await mount();
    await typeInto(field('Card number'), '378282246310005');
    await typeInto(field('Security code'), '123');
    await press('Tab');
    await form.updateComplete;
    expect(deepText(form.shadowRoot!)).to.include('Enter the 4-digit code');
    field('Security code').focus();
    await sendKeys({ type: '4' });
    await form.updateComplete;
    expect(field('Security code').getAttribute('aria-invalid')).to.equal('false');
    // Once the message goes, its line shows the hint again.
    expect(deepText(form.shadowRoot!)).to.include('4 digits, on the front');
  });

  it('moves focus to the first field to fix and announces how many need attention when submitted incomplete', async () => {
    await mount();
    await typeInto(field('Card number'), '4242424242424242');
    buttonByText(form.shadowRoot!, 'Pay').click();
    await waitFor(() => activeElement() === field('Expiry date'));
    expect(liveRegion().textContent).to.include('3 fields need your attention.');
    expect(stub.requestsTo('/checkout/order/pay')).to.have.length(0);
    await expectAccessible(form);
  });

  it('encrypts the card as a JWE for the published key and reports only the outcome', async () => {
    await mount();
    stub.answer('/checkout/order/pay', { body: paidAnswer() });
    const outcomes: PaymentOutcomeEvent[] = [];
    form.addEventListener(PaymentOutcomeEvent.eventName, (event) => outcomes.push(event));
    await fillValidCard();
    await press('Enter');
    await waitFor(() => outcomes.length === 1);

    const [request] = stub.requestsTo('/checkout/order/pay');
    expect(request!.jweHeader).to.include({ alg: 'ECDH-ES+A256KW', enc: 'A256GCM', kid: stub.kid });
    expect(request!.headers.get('api-key')).to.equal(API_KEY);
    expect(request!.plain).to.deep.include({ reference: REFERENCE, paymentoption: 'C', country: 'NG' });
    expect((request!.plain as { card: object }).card).to.deep.include({
      cardnumber: '4242424242424242',
      expirymonth: 12,
      expiryyear: 2000 + Number(nextYear),
      cvv: '123',
      name: 'Ada Obi',
    });
    expect(outcomes[0]!.outcome).to.deep.equal({ kind: 'paid', paymentReference: 'PAY-5521', amount: 12787.5, currency: 'NGN' });
    expect(JSON.stringify(outcomes[0]!.outcome)).not.to.include('4242424242424242');
    // The card number leaves no trace in the event, and the security code is cleared from the form.
    expect(field('Security code').value).to.equal('');
  });

  it('shows the total from the fee quote on the pay button', async () => {
    await mount();
    expect(buttonByText(form.shadowRoot!, 'Pay').textContent).to.match(/Pay\s+NGN\s?12,787\.50|Pay\s+₦12,787\.50/);
  });

  it('passes a 3-D Secure answer on as an authentication outcome', async () => {
    await mount();
    stub.answer('/checkout/order/pay', { body: authenticateAnswer() });
    const outcomes: PaymentOutcomeEvent[] = [];
    form.addEventListener(PaymentOutcomeEvent.eventName, (event) => outcomes.push(event));
    await fillValidCard('5123450000784608');
    await press('Enter');
    await waitFor(() => outcomes.length === 1);
    expect(outcomes[0]!.outcome.kind).to.equal('authenticate');
  });

  it("accepts the gateway's own test card, which fails the Luhn check, only with a test key", async () => {
    await mount();
    await typeInto(field('Card number'), '5123450000784608');
    await press('Tab');
    await form.updateComplete;
    expect(field('Card number').getAttribute('aria-invalid')).to.equal('false');

    form.api = new CheckoutApi({ apiKey: 'pk_live_widget', baseUrl: window.location.origin });
    await form.updateComplete;
    expect(field('Card number').getAttribute('aria-invalid')).to.equal('true');
  });

  it('reports a decline with its response code', async () => {
    await mount();
    stub.answer('/checkout/order/pay', { body: declinedAnswer('51', 'Insufficient funds') });
    const outcomes: PaymentOutcomeEvent[] = [];
    form.addEventListener(PaymentOutcomeEvent.eventName, (event) => outcomes.push(event));
    await fillValidCard();
    await press('Enter');
    await waitFor(() => outcomes.length === 1);
    expect(outcomes[0]!.outcome).to.deep.equal({ kind: 'declined', code: '51', message: 'Insufficient funds' });
  });

  it('says what happened to the order by the refusal\'s reason, one sentence each, never one sentence for every conflict', async () => {
    const refusals: [string, string][] = [
      ['order_already_paid', 'This order has already been paid.'],
      ['link_capacity_reached', 'This payment link is used up.'],
      ['transfer_partly_received', 'Part of the money has already arrived by bank transfer.'],
      ['transfer_account_expired', 'The account for this bank transfer has expired.'],
    ];
    const shown: string[] = [];
    for (const [reason, sentence] of refusals) {
      await mount();
      stub.answer('/checkout/order/pay', { status: 409, body: { status: 'failed', statusCode: 'CON409', message: 'Refused.', reason } });
      await fillValidCard();
      await press('Enter');
      const alert = await waitFor(() => deepQuery(form.shadowRoot!, '[role=alert]'));
      expect(alert.textContent, reason).to.include(sentence);
      shown.push(alert.textContent!.trim());
      form.remove();
    }
    expect(new Set(shown).size).to.equal(refusals.length);
  });

  it('keeps what was typed and says what to do when the network fails', async () => {
    await mount();
    stub.answer('/checkout/order/pay', { networkError: true });
    await fillValidCard();
    await press('Enter');
    const alert = await waitFor(() => deepQuery(form.shadowRoot!, '[role=alert]'));
    expect(alert.textContent).to.include('Check your internet connection');
    expect(field('Card number').value).to.equal('4242 4242 4242 4242');
    await expectAccessible(form);
  });

  describe('Idempotency-Key', () => {
    const payKeys = () => stub.requestsTo('/checkout/order/pay').map((request) => request.headers.get('idempotency-key'));

    async function submitAndWaitForAnswer(): Promise<void> {
      const before = stub.requestsTo('/checkout/order/pay').length;
      await press('Enter');
      await waitFor(() => stub.requestsTo('/checkout/order/pay').length === before + 1 && !form.matches(':state(pending)'));
    }

    it('pays again after a lost answer with the key of the first try, and makes the next payment with a new key', async () => {
      await mount();
      stub.answer('/checkout/order/pay', { networkError: true });
      stub.answer('/checkout/order/pay', { body: declinedAnswer('51', 'Insufficient funds') });
      stub.answer('/checkout/order/pay', { body: paidAnswer() });
      await fillValidCard();
      await submitAndWaitForAnswer();
      expect(deepQuery(form.shadowRoot!, '[role=alert]')!.textContent).to.include('Check your internet connection');
      // Pressing Pay again after a lost answer is the same payment: if the first went through, the server answers it.
      await submitAndWaitForAnswer();
      // The decline settled that payment; the security code is typed again for a new one.
      await typeInto(field('Security code'), '123');
      await submitAndWaitForAnswer();

      const [first, retried, next] = payKeys();
      expect(first).to.match(/^[0-9a-f-]{36}$/);
      expect(retried).to.equal(first);
      expect(next).to.match(/^[0-9a-f-]{36}$/);
      expect(next).not.to.equal(first);
    });

    it('makes a payment with other card details after a lost answer with a new key', async () => {
      await mount();
      stub.answer('/checkout/order/pay', { networkError: true });
      stub.answer('/checkout/order/pay', { body: paidAnswer() });
      await fillValidCard();
      await submitAndWaitForAnswer();
      const number = field('Card number');
      number.select();
      await press('Backspace');
      await typeInto(number, '5555555555554444');
      await submitAndWaitForAnswer();
      const [first, changed] = payKeys();
      expect(changed).not.to.equal(first);
    });

    it('keeps the key while the server says the first try is still running, and takes a new one after a stored error', async () => {
      await mount();
      const running = { status: 'failed', statusCode: 'CON409', message: 'A request with this Idempotency-Key is still being processed. Retry shortly to get its answer.' };
      stub.answer('/checkout/order/pay', { status: 409, body: running, headers: { 'retry-after': '1' } });
      stub.fail('/checkout/order/pay', 'ERR500', 'An unexpected error occurred. Quote request id r-1 to support.', 'r-1');
      stub.answer('/checkout/order/pay', { body: paidAnswer() });
      await fillValidCard();
      await submitAndWaitForAnswer();
      await submitAndWaitForAnswer();
      await submitAndWaitForAnswer();
      const [first, whileRunning, afterError] = payKeys();
      expect(whileRunning).to.equal(first);
      // The server stored its 500 under the key: trying again with it would only replay that answer.
      expect(afterError).not.to.equal(first);
    });
  });

  it('can be filled in and submitted with the keyboard alone, in a logical tab order', async () => {
    await mount();
    stub.answer('/checkout/order/pay', { body: paidAnswer() });
    const outcomes: PaymentOutcomeEvent[] = [];
    form.addEventListener(PaymentOutcomeEvent.eventName, (event) => outcomes.push(event));
    field('Card number').focus();
    await sendKeys({ type: '4242424242424242' });
    await press('Tab');
    expect(activeElement()).to.equal(field('Expiry date'));
    await sendKeys({ type: `12${nextYear}` });
    await press('Tab');
    expect(activeElement()).to.equal(field('Security code'));
    await sendKeys({ type: '123' });
    await press('Tab');
    expect(activeElement()).to.equal(field('Name on card'));
    await sendKeys({ type: 'Ada Obi' });
    await press('Tab');
    expect((activeElement() as HTMLInputElement).type).to.equal('checkbox');
    await press('Space');
    await press('Tab');
    expect(activeElement()).to.equal(buttonByText(form.shadowRoot!, 'Pay'));
    await press('Enter');
    await waitFor(() => outcomes.length === 1);
    expect((stub.requestsTo('/checkout/order/pay')[0]!.plain as { card: { save: boolean } }).card.save).to.equal(true);
  });

  it('does not offer to save the card when the order has no customer session to save it for', async () => {
    await mount(orderData({ canSaveCard: false }));
    expect(form.shadowRoot!.querySelector('input[type="checkbox"][name="save"]')).to.equal(null);
    await mount(orderData({ canSaveCard: true }));
    expect(form.shadowRoot!.querySelector('input[type="checkbox"][name="save"]')).to.not.equal(null);
  });

  describe('with saved cards', () => {
    const savedOrder = () =>
      orderData({
        savedCards: [
          { token: 'tok_visa', brand: 'visa', first6: '424242', last4: '4242', expiry: '12/30' },
          { token: 'tok_amex', brand: 'amex', first6: '378282', last4: '0005', expiry: '01/29' },
        ],
      });

    it('offers the saved cards by brand and last four, and pays with the token and the security code only', async () => {
      await mount(savedOrder());
      stub.answer('/checkout/order/pay', { body: paidAnswer() });
      const text = deepText(form.shadowRoot!);
      expect(text).to.include('Visa ending in 4242');
      expect(text).to.include('American Express ending in 0005');
      expect(() => field('Card number')).to.throw();
      await expectAccessible(form);

      await typeInto(field('Security code'), '321');
      await press('Enter');
      await waitFor(() => stub.requestsTo('/checkout/order/pay').length === 1);
      const plain = stub.requestsTo('/checkout/order/pay')[0]!.plain as { cardToken: string; card: object };
      expect(plain.cardToken).to.equal('tok_visa');
      expect(plain.card).to.deep.equal({ cvv: '321' });
    });

    it('flags an expired saved card and does not let the customer choose it', async () => {
      const order = savedOrder();
      await mount(orderData({ savedCards: [{ token: 'tok_old', brand: 'visa', first6: '424242', last4: '1111', expiry: '01/20' }, ...order.savedCards] }));
      expect(deepText(form.shadowRoot!)).to.include('Expired 01/20: choose another card');
      const expired = inputByLabel(form.shadowRoot!, 'Visa ending in 1111');
      expect(expired.disabled).to.equal(true);
      expect(expired.checked).to.equal(false);
      expect(inputByLabel(form.shadowRoot!, 'Visa ending in 4242').checked).to.equal(true);
      await expectAccessible(form);
    });

    it('asks for a new card when every saved card has expired', async () => {
      await mount(orderData({ savedCards: [{ token: 'tok_old', brand: 'visa', first6: '424242', last4: '1111', expiry: '01/20' }] }));
      expect(field('Card number')).to.be.instanceOf(HTMLInputElement);
      expect(inputByLabel(form.shadowRoot!, 'Use a new card').checked).to.equal(true);
    });

    it('switches to the full card form when the customer chooses a new card', async () => {
      await mount(savedOrder());
      const newCard = inputByLabel(form.shadowRoot!, 'Use a new card');
      newCard.focus();
      await press('Space');
      await form.updateComplete;
      expect(field('Card number')).to.be.instanceOf(HTMLInputElement);
      expect(field('Name on card')).to.be.instanceOf(HTMLInputElement);
    });

    it('asks for four digits when the saved card is an American Express', async () => {
      await mount(savedOrder());
      const amex = inputByLabel(form.shadowRoot!, 'American Express ending in 0005');
      amex.focus();
      await press('Space');
      await form.updateComplete;
      expect(field('Security code').maxLength).to.equal(4);
    });
  });
});
