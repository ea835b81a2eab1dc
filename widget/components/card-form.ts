import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import {
  allowedLengths,
  checkCardNumber,
  checkExpiry,
  cvvLength,
  detectBrand,
  digitsOnly,
  formatCardNumber,
  normaliseExpiryYear,
} from '../../shared/card.ts';
import type { CheckoutApi } from '../api/client.ts';
import type { CreateOrderData, FeeQuote } from '../api/wire.ts';
import { CheckoutElement } from '../base.ts';
import { apiContext, orderContext } from '../context.ts';
import { describeError } from '../flow/errors.ts';
import { outcomeOf } from '../flow/outcome.ts';
import type { MessageKey } from '../i18n/localizer.ts';
import { PaymentOutcomeEvent, SavedCardSelectEvent } from '../internal-events.ts';
import { buttons, fields, spinner, tokens, visuallyHidden } from '../styles/shared.styles.ts';
import { brandName, isAmex } from './brand.ts';
import { cardFormStyles } from './card-form.styles.ts';
import './saved-cards.ts';

type Field = 'number' | 'expiry' | 'cvv' | 'name';
const FIELD_ORDER: Field[] = ['number', 'expiry', 'cvv', 'name'];

/**
 * Card entry: the number is grouped as the brand prints it while the customer types, the brand is named (not
 * only shown by colour), and each field is checked with the shared rules once the customer has left it. On
 * submit the card is encrypted (JWE) and sent to pay; only the outcome leaves this component.
 */
@customElement('ck-card-form')
export class CkCardForm extends CheckoutElement {
  static override styles = [tokens, visuallyHidden, buttons, fields, spinner, cardFormStyles];

  @consume({ context: apiContext, subscribe: true })
  @state()
  api: CheckoutApi | undefined;

  @consume({ context: orderContext, subscribe: true })
  @state()
  order: CreateOrderData | undefined;

  /** The fee quote for card payments, for the amount on the pay button. */
  @property({ attribute: false }) quote: FeeQuote | undefined;

  @state() private number = '';
  @state() private expiry = '';
  @state() private cvv = '';
  @state() private name = '';
  @state() private save = false;
  @state() private savedToken: string | null = null;
  @state() private touched = new Set<Field>();
  @state() private submitted = false;
  @state() private announcement = '';

  @query('form') private form!: HTMLFormElement;

  readonly payTask = new Task(this, {
    autoRun: false,
    task: async ([payload]: [Parameters<CheckoutApi['pay']>[0]], { signal }) => {
      if (!this.api) throw new Error('The checkout is not configured.');
      const answer = await this.api.pay(payload, signal);
      const outcome = outcomeOf(answer);
      this.cvv = '';
      this.dispatchEvent(new PaymentOutcomeEvent(outcome));
      return outcome;
    },
  });

  override connectedCallback(): void {
    super.connectedCallback();
    this.savedToken = this.order?.savedCards[0]?.token ?? null;
  }

  override updated(): void {
    this.setStates({ pending: this.payTask.status === 1, invalid: this.submitted && this.#invalidFields().length > 0 });
  }

  override render() {
    const pending = this.payTask.status === 1;
    const saved = this.order?.savedCards ?? [];
    const useSaved = this.savedToken !== null && saved.some((card) => card.token === this.savedToken);
    const total = this.quote
      ? this.localizer.money(this.quote.totalChargedAmount, this.quote.currency)
      : this.order
        ? this.localizer.money(this.order.order.amount, this.order.order.currency)
        : '';
    return html`
      <form novalidate @submit=${this.#onSubmit} aria-label=${this.t('cardHeading')}>
        ${saved.length > 0
          ? html`<ck-saved-cards .cards=${saved} .selected=${this.savedToken} @ck-saved-card-select=${this.#onSavedCard}></ck-saved-cards>`
          : nothing}
        <fieldset ?disabled=${pending}>
          ${useSaved ? nothing : this.#numberField()}
          <div class="row">${useSaved ? nothing : this.#expiryField()} ${this.#cvvField()}</div>
          ${useSaved ? nothing : this.#nameField()}
          ${useSaved
            ? nothing
            : html`<label class="check">
                <input type="checkbox" name="save" .checked=${this.save} @change=${(event: Event) => (this.save = (event.target as HTMLInputElement).checked)} />
                <span>${this.t('saveCard')}</span>
              </label>`}
        </fieldset>
        ${this.payTask.render({
          error: (error) =>
            html`<p class="error" role="alert">${describeError(error, this.localizer, this.order?.subsidiary.name ?? this.t('theMerchant'))}</p>`,
        })}
        <button type="submit" class="primary" part="primary-button" ?disabled=${pending} aria-disabled=${pending ? 'true' : 'false'}>
          ${pending ? html`<span class="spinner" aria-hidden="true"></span>${this.t('paying')}` : this.t('payAmount', { amount: total })}
        </button>
        <div class="visually-hidden" role="status" aria-live="polite">${this.announcement}</div>
      </form>
    `;
  }

  #numberField(): TemplateResult {
    const brand = detectBrand(this.number);
    const error = this.#visibleError('number');
    const maxLength = Math.max(...allowedLengths(this.number));
    const badge = brand === 'unknown' ? nothing : html`<span class="badge" data-brand=${brand} aria-hidden="true">${brandName(brand)}</span>`;
    return this.#field(
      'number',
      'cardNumber',
      error,
      brand === 'unknown' ? undefined : this.t('detectedBrand', { brand: brandName(brand) }),
      html`
        <input
          id="number"
          name="cardnumber"
          part="input"
          autocomplete="cc-number"
          inputmode="numeric"
          autocorrect="off"
          spellcheck="false"
          maxlength=${maxLength + 4}
          .value=${this.number}
          aria-invalid=${error ? 'true' : 'false'}
          aria-describedby=${this.#describedBy('number', error, brand !== 'unknown')}
          @input=${this.#onNumberInput}
          @blur=${() => this.#touch('number')}
        />
      `,
      badge,
    );
  }

  #expiryField(): TemplateResult {
    const error = this.#visibleError('expiry');
    return this.#field('expiry', 'expiry', error, this.t('expiryHint'), html`
      <input
        id="expiry"
        name="cc-exp"
        part="input"
        autocomplete="cc-exp"
        inputmode="numeric"
        maxlength="7"
        placeholder=${this.t('expiryHint')}
        .value=${this.expiry}
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${this.#describedBy('expiry', error, true)}
        @input=${this.#onExpiryInput}
        @blur=${() => this.#touch('expiry')}
      />
    `);
  }

  #cvvField(): TemplateResult {
    const error = this.#visibleError('cvv');
    const length = this.#cvvLength();
    const amex = this.#savedCard() ? isAmex(this.#savedCard()!.brand) : detectBrand(this.number) === 'amex';
    const hint = amex ? this.t('securityCodeHintAmex') : this.t('securityCodeHint', { length });
    return this.#field('cvv', 'securityCode', error, hint, html`
      <input
        id="cvv"
        name="cvc"
        part="input"
        autocomplete="cc-csc"
        inputmode="numeric"
        maxlength=${length}
        .value=${this.cvv}
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${this.#describedBy('cvv', error, true)}
        @input=${(event: Event) => this.#onDigitsInput(event, 'cvv', length)}
        @blur=${() => this.#touch('cvv')}
      />
    `);
  }

  #nameField(): TemplateResult {
    const error = this.#visibleError('name');
    return this.#field('name', 'nameOnCard', error, undefined, html`
      <input
        id="name"
        name="ccname"
        part="input"
        autocomplete="cc-name"
        autocapitalize="words"
        spellcheck="false"
        maxlength="100"
        .value=${this.name}
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${this.#describedBy('name', error, false)}
        @input=${(event: Event) => (this.name = (event.target as HTMLInputElement).value)}
        @blur=${() => this.#touch('name')}
      />
    `);
  }

  /** The number's brand is shown as a badge beside its label; its hint is then for screen readers only. */
  #field(
    id: Field,
    label: MessageKey,
    error: string | undefined,
    hint: string | undefined,
    control: TemplateResult,
    badge: TemplateResult | typeof nothing = nothing,
  ): TemplateResult {
    return html`
      <div class="field" part="field">
        <div class="label-row"><label for=${id}>${this.t(label)}</label>${badge}</div>
        ${control}
        ${hint ? html`<span class="hint ${badge === nothing ? '' : 'visually-hidden'}" id="${id}-hint">${hint}</span>` : nothing}
        ${error ? html`<p class="error" id="${id}-error">${error}</p>` : nothing}
      </div>
    `;
  }

  #describedBy(id: Field, error: string | undefined, hasHint: boolean): string {
    return [hasHint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  }

  #savedCard() {
    return this.order?.savedCards.find((card) => card.token === this.savedToken);
  }

  #cvvLength(): number {
    const saved = this.#savedCard();
    if (saved) return isAmex(saved.brand) ? 4 : 3;
    return cvvLength(this.number);
  }

  #activeFields(): Field[] {
    return this.#savedCard() ? ['cvv'] : FIELD_ORDER;
  }

  /** The message for a field's current value, whether or not it is shown yet. */
  #error(field: Field): string | undefined {
    switch (field) {
      case 'number': {
        const problem = checkCardNumber(this.number, { testMode: this.api?.testMode ?? false });
        const keys = { empty: 'errorNumberEmpty', length: 'errorNumberLength', luhn: 'errorNumberLuhn' } as const;
        return problem ? this.t(keys[problem]) : undefined;
      }
      case 'expiry': {
        const digits = digitsOnly(this.expiry);
        if (digits.length < 4) return this.t(digits.length >= 2 && Number(digits.slice(0, 2)) > 12 ? 'errorExpiryMonth' : 'errorExpiryEmpty');
        const problem = checkExpiry(Number(digits.slice(0, 2)), normaliseExpiryYear(Number(digits.slice(2, 4))));
        const keys = { month: 'errorExpiryMonth', year: 'errorExpiryFar', past: 'errorExpiryPast', 'too-far': 'errorExpiryFar' } as const;
        return problem ? this.t(keys[problem]) : undefined;
      }
      case 'cvv': {
        const length = this.#cvvLength();
        return new RegExp(`^\\d{${length}}$`).test(this.cvv) ? undefined : this.t('errorCvv', { length });
      }
      case 'name':
        return this.name.trim() === '' ? this.t('errorName') : undefined;
    }
  }

  #visibleError(field: Field): string | undefined {
    return this.touched.has(field) || this.submitted ? this.#error(field) : undefined;
  }

  #invalidFields(): Field[] {
    return this.#activeFields().filter((field) => this.#error(field) !== undefined);
  }

  /** Messages appear once the customer leaves a field; the live region reads the new one out. */
  #touch(field: Field): void {
    const value = { number: this.number, expiry: this.expiry, cvv: this.cvv, name: this.name }[field];
    if (!this.touched.has(field) && value === '' && !this.submitted) return;
    this.touched = new Set(this.touched).add(field);
    const error = this.#error(field);
    if (error) this.announcement = error;
  }

  #onNumberInput(event: Event): void {
    const input = event.target as HTMLInputElement;
    const caret = input.selectionStart ?? input.value.length;
    const digitsBeforeCaret = digitsOnly(input.value.slice(0, caret)).length;
    const digits = digitsOnly(input.value);
    const formatted = formatCardNumber(digits.slice(0, Math.max(...allowedLengths(digits))));
    input.value = formatted;
    this.number = formatted;
    // Keep the caret after the same digit, so editing in the middle does not jump to the end.
    let position = 0;
    for (let seen = 0; position < formatted.length && seen < digitsBeforeCaret; position += 1) {
      if (formatted[position] !== ' ') seen += 1;
    }
    input.setSelectionRange(position, position);
  }

  #onExpiryInput(event: InputEvent): void {
    const input = event.target as HTMLInputElement;
    // Autofill may give a four-digit year (`12/2030`).
    const fourDigitYear = /^\s*(\d{1,2})\s*\/\s*\d{2}(\d{2})\s*$/.exec(input.value);
    let digits = fourDigitYear ? fourDigitYear[1]!.padStart(2, '0') + fourDigitYear[2] : digitsOnly(input.value);
    if (/^[2-9]/.test(digits)) digits = `0${digits}`;
    digits = digits.slice(0, 4);
    const deleting = event.inputType?.startsWith('delete') ?? false;
    const formatted = digits.length > 2 || (digits.length === 2 && !deleting) ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
    input.value = formatted;
    this.expiry = formatted;
  }

  #onDigitsInput(event: Event, field: 'cvv', maxLength: number): void {
    const input = event.target as HTMLInputElement;
    const digits = digitsOnly(input.value).slice(0, maxLength);
    input.value = digits;
    this[field] = digits;
  }

  #onSavedCard(event: SavedCardSelectEvent): void {
    event.stopPropagation();
    this.savedToken = event.token;
    this.cvv = '';
    this.touched = new Set();
    this.submitted = false;
  }

  async #onSubmit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this.payTask.status === 1 || !this.order) return;
    this.submitted = true;
    const invalid = this.#invalidFields();
    if (invalid.length > 0) {
      this.announcement = this.localizer.plural(invalid.length, 'fixFieldsOne', 'fixFieldsOther');
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>(`#${invalid[0]}`)?.focus();
      return;
    }
    this.announcement = this.t('paying');
    const { reference } = this.order.order;
    const country = this.order.customer.country ?? undefined;
    const saved = this.#savedCard();
    const digits = digitsOnly(this.expiry);
    const payload = saved
      ? { reference, paymentoption: 'C' as const, country, cardToken: saved.token, card: { cvv: this.cvv } }
      : {
          reference,
          paymentoption: 'C' as const,
          country,
          card: {
            cardnumber: digitsOnly(this.number),
            expirymonth: Number(digits.slice(0, 2)),
            expiryyear: normaliseExpiryYear(Number(digits.slice(2, 4))),
            cvv: this.cvv,
            name: this.name.trim(),
            save: this.save,
          },
        };
    await this.payTask.run([payload]);
    if (this.payTask.status === 3) this.form.querySelector<HTMLButtonElement>('button[type=submit]')?.focus();
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ck-card-form': CkCardForm;
  }
}
