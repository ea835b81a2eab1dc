import { expect } from 'chai';
import type { CkPaymentOptions } from '../../../widget/components/payment-options.ts';
import '../../../widget/components/payment-options.ts';
import { Localizer } from '../../../widget/i18n/localizer.ts';
import { OptionSelectEvent } from '../../../widget/internal-events.ts';
import { expectAccessible } from '../support/axe.ts';
import { activeElement, deepQueryAll, inputByLabel, press } from '../support/dom.ts';
import { orderData } from '../support/fixtures.ts';

describe('ck-payment-options', () => {
  let options: CkPaymentOptions;
  let selected: string[];

  beforeEach(async () => {
    options = document.createElement('ck-payment-options');
    options.order = orderData({
      otherPaymentOptions: [
        { code: 'C', name: 'Card Payment', currency: 'NGN' },
        { code: 'bank-transfer', name: 'Pay With Bank Transfer', currency: 'NGN' },
        { code: 'USSD', name: 'USSD', currency: 'NGN' },
      ],
    });
    options.localizer = new Localizer('en');
    selected = [];
    options.addEventListener(OptionSelectEvent.eventName, (event) => selected.push(event.code));
    document.body.append(options);
    await options.updateComplete;
  });

  afterEach(() => options.remove());

  it('offers the supported methods of the order as one named radio group', async () => {
    const radios = deepQueryAll<HTMLInputElement>(options.shadowRoot!, 'input[type=radio]');
    expect(radios.map((radio) => radio.value)).to.deep.equal(['C', 'bank-transfer']);
    expect(new Set(radios.map((radio) => radio.name)).size).to.equal(1);
    expect(options.shadowRoot!.querySelector('legend')!.textContent).to.equal('Choose how to pay');
    await expectAccessible(options);
  });

  it('selects with the keyboard: Space picks the focused method and arrow keys move between methods', async () => {
    inputByLabel(options.shadowRoot!, 'Card').focus();
    await press('Space');
    expect(selected).to.deep.equal(['C']);
    await press('ArrowDown');
    expect(selected).to.deep.equal(['C', 'bank-transfer']);
    expect(activeElement()).to.equal(inputByLabel(options.shadowRoot!, 'Bank transfer'));
    expect(inputByLabel(options.shadowRoot!, 'Bank transfer').checked).to.equal(true);
    await expectAccessible(options);
  });

  it('describes each method beside its name', async () => {
    const card = inputByLabel(options.shadowRoot!, 'Card');
    const hint = options.shadowRoot!.getElementById(card.getAttribute('aria-describedby')!)!;
    expect(hint.textContent).to.equal('Visa, Mastercard, Verve or American Express');
  });
});
