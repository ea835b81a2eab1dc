import { consume } from '@lit/context';
import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { CreateOrderData } from '../api/wire.ts';
import { CheckoutElement } from '../base.ts';
import { orderContext } from '../context.ts';
import type { MessageKey } from '../i18n/localizer.ts';
import { OptionSelectEvent } from '../internal-events.ts';
import { choiceGroup, tokens } from '../styles/shared.styles.ts';
import { paymentOptionsStyles } from './payment-options.styles.ts';

/** Localized names for the methods this checkout knows; others keep the name the server sent. */
const KNOWN_OPTIONS: Record<string, { name: MessageKey; hint: MessageKey }> = {
  C: { name: 'methodCard', hint: 'methodCardHint' },
  'bank-transfer': { name: 'methodTransfer', hint: 'methodTransferHint' },
};

export const SUPPORTED_OPTIONS = Object.keys(KNOWN_OPTIONS);

/**
 * The payment methods of `otherPaymentOptions` as a native radio group (fieldset + legend): arrow keys move and
 * select, Tab leaves the group, and screen readers announce "1 of 2".
 */
@customElement('ck-payment-options')
export class CkPaymentOptions extends CheckoutElement {
  static override styles = [tokens, choiceGroup, paymentOptionsStyles];

  @consume({ context: orderContext, subscribe: true })
  @state()
  order: CreateOrderData | undefined;

  /** The selected option code. */
  @property() value = '';

  override render() {
    const options = (this.order?.otherPaymentOptions ?? []).filter((option) => SUPPORTED_OPTIONS.includes(option.code));
    if (options.length === 0) return nothing;
    return html`
      <fieldset>
        <legend>${this.t('chooseMethod')}</legend>
        ${options.map((option) => {
          const known = KNOWN_OPTIONS[option.code];
          const hintId = `hint-${option.code}`;
          return html`
            <label part="option">
              <input
                type="radio"
                name="payment-option"
                .value=${option.code}
                .checked=${option.code === this.value}
                aria-describedby=${hintId}
                @change=${this.#onChange}
              />
              <span class="name">${known ? this.t(known.name) : option.name}</span>
              <span class="hint" id=${hintId}>${known ? this.t(known.hint) : option.currency}</span>
            </label>
          `;
        })}
      </fieldset>
    `;
  }

  #onChange(event: Event): void {
    const input = event.target as HTMLInputElement;
    this.value = input.value;
    this.dispatchEvent(new OptionSelectEvent(input.value));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ck-payment-options': CkPaymentOptions;
  }
}
