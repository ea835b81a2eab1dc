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
import '../i18n/payment-messages.ts';
import { apiContext, orderContext } from '../context.ts';
import { describeError } from '../flow/errors.ts';
import { outcomeOf } from '../flow/outcome.ts';
import type { MessageKey } from '../i18n/localizer.ts';
import { PaymentOutcomeEvent, SavedCardSelectEvent } from '../internal-events.ts';
import { brandMarks, buttons, fields, spinner, tokens, visuallyHidden } from '../styles/shared.styles.ts';
import { brandMark, brandName, isAmex, savedCardExpired } from './brand.ts';
import { cardFormStyles } from './card-form.styles.ts';
import './saved-cards.ts';

type Field = 'number' | 'expiry' | 'cvv' | 'name';
const FIELD_ORDER: Field[] = ['number', 'expiry', 'cvv', 'name'];

/**
 * The month and year digits of an expiry as typed: `12 / 30`, `1/2030`, `1230`. With a separator the digits on
 * each side belong to that side (so deleting the first month digit leaves `2 / 30`, not another month); without
 * one, the first two digits are the month.
 */
export function splitExpiry(value: string): { month: string; year: string; separator: boolean } {
  const slash = value.indexOf('/');
  if (slash >= 0) return { month: digitsOnly(value.slice(0, slash)), year: digitsOnly(value.slice(slash + 1)), separator: true };
  const digits = digitsOnly(value);
  return { month: digits.slice(0, 2), year: digits.slice(2), separator: digits.length > 2 };
}

/** A year typed or pasted with four digits (`2030`) becomes two (`30`); `203` is one on its way there. */
function normaliseYear(year: string): string {
  if (year.startsWith('20') && year.length >= 4) return year.slice(2, 4);
  if (year.length === 3 && year.startsWith('20')) return year;
  return year.slice(0, 2);
}

/** The caret position just after the `count`-th digit of `formatted` (0 for none). */
function afterDigits(formatted: string, count: number): number {
  if (count <= 0) return 0;
  let seen = 0;
  for (let position = 0; position < formatted.length; position += 1) {
    if (/\d/.test(formatted[position]!)) seen += 1;
    if (seen === count) return position + 1;
  }
  return formatted.length;
}

/**
 * Card entry: the number is grouped as the brand prints it while the customer types, the brand is named (not
 * only shown by colour), and each field is checked with the shared rules once the customer has left it. On
 * submit the card is encrypted (JWE) and sent to pay; only the outcome leaves this component.
 */
@customElement('ck-card-form')
export class CkCardForm extends CheckoutElement {
  static override styles = [tokens, visuallyHidden, buttons, fields, spinner, brandMarks, cardFormStyles];

  @consume({ context: apiContext, subscribe: true })
  @state()
  api: CheckoutApi | undefined;

  @consume({ context: orderContext, subscribe: true })
  @state()
  order: CreateOrderData | undefined;

  /** The name on the card the customer typed for an earlier attempt: the form starts with it. */
  @property({ attribute: false }) holderName = '';
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

  /**
   * While a mouse button or finger is down, a field left by that press keeps its message until the press ends:
   * a message appearing between press and release would move the Pay button out from under the pointer.
   */
  #pressing = false;
  #submittedBefore = false;
  #leftWhilePressing = new Set<Field>();
  readonly #onPointerDown = (): void => {
    this.#pressing = true;
    this.#submittedBefore = this.submitted;
  };
  readonly #onPointerUp = (): void => {
    if (!this.#pressing) return;
    this.#pressing = false;
    // After the click that this release makes has been dispatched.
    setTimeout(() => {
      const fields = [...this.#leftWhilePressing];
      this.#leftWhilePressing.clear();
      // A press that submitted the form has already said how many fields need attention: that stays the message.
      const announce = this.submitted === this.#submittedBefore;
      for (const field of fields) this.#touch(field, announce);
    }, 0);
  };

  readonly payTask = new Task(this, {
    autoRun: false,
    task: async ([payload]: [Parameters<CheckoutApi['pay']>[0]], { signal }) => {
      if (!this.api) throw new Error('The checkout is not configured.');
      const answer = await this.api.pay(payload, signal);
      const outcome = outcomeOf(answer);
      this.cvv = '';
      this.dispatchEvent(new PaymentOutcomeEvent(outcome, this.name.trim()));
      return outcome;
    },
  });

  override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('holderName') && this.name === '') this.name = this.holderName;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.savedToken = this.order?.savedCards.find((card) => !savedCardExpired(card.expiry))?.token ?? null;
    window.addEventListener('pointerdown', this.#onPointerDown, true);
    window.addEventListener('pointerup', this.#onPointerUp, true);
    window.addEventListener('pointercancel', this.#onPointerUp, true);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('pointerdown', this.#onPointerDown, true);
    window.removeEventListener('pointerup', this.#onPointerUp, true);
    window.removeEventListener('pointercancel', this.#onPointerUp, true);
  }

  override updated(): void {
    this.setStates({ pending: this.payTask.status === 1, invalid: this.submitted && this.#invalidFields().length > 0 });
  }

  override render() {
    const pending = this.payTask.status === 1;
    const saved = this.order?.savedCards ?? [];
    const useSaved = this.savedToken !== null && saved.some((card) => card.token === this.savedToken);
    // Only the quoted total (what the server will charge, fee included) is ever offered; without it, no paying.
    const quoted = this.#quoted();
    const blocked = !pending && !quoted;
    return html`
      <form novalidate @submit=${this.#onSubmit} aria-label=${this.t('cardHeading')}>
        ${saved.length > 0
          ? html`<ck-saved-cards .cards=${saved} .selected=${this.savedToken} @ck-saved-card-select=${this.#onSavedCard}></ck-saved-cards>`
          : nothing}
        <fieldset ?disabled=${pending}>
          ${useSaved ? nothing : this.#numberField()}
          <div class="row">${useSaved ? nothing : this.#expiryField()} ${this.#cvvField()}</div>
          ${useSaved ? nothing : this.#nameField()}
          ${useSaved || !this.order?.canSaveCard
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
        <button
          type="submit"
          class="primary"
          part="primary-button"
          ?disabled=${pending}
          aria-disabled=${pending || blocked ? 'true' : 'false'}
          aria-describedby=${blocked ? 'quote-needed' : nothing}
        >
          ${pending
            ? html`<span class="spinner" aria-hidden="true"></span>${this.t('paying')}`
            : quoted
              ? this.t('payAmount', { amount: this.localizer.money(quoted.totalChargedAmount, quoted.currency) })
              : this.t('pay')}
        </button>
        ${blocked ? html`<p class="note" id="quote-needed">${this.t('quoteNeeded')}</p>` : nothing}
        <div class="visually-hidden" role="status" aria-live="polite">${this.announcement}</div>
      </form>
    `;
  }

  #numberField(): TemplateResult {
    const brand = detectBrand(this.number);
    const error = this.#visibleError('number');
    const maxLength = Math.max(...allowedLengths(this.number));
    // The scheme's mark beside its name, as on a card terminal; screen readers hear the name from the hint.
    const badge = brand === 'unknown' ? nothing : html`<span class="badge" data-brand=${brand} aria-hidden="true">${brandMark(brand)}${brandName(brand)}</span>`;
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
          @beforeinput=${(event: InputEvent) => this.#deleteAcrossSeparator(event, (input, raw, caret) => this.#formatNumber(input, raw, caret))}
          @input=${(event: InputEvent) => {
            const input = event.target as HTMLInputElement;
            this.#formatNumber(input, input.value, input.selectionStart ?? input.value.length);
          }}
          @blur=${() => this.#leave('number')}
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
        maxlength="9"
        .value=${this.expiry}
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${this.#describedBy('expiry', error, true)}
        @beforeinput=${(event: InputEvent) =>
          this.#deleteAcrossSeparator(event, (input, raw, caret) => this.#formatExpiry(input, raw, caret, { deleting: true, separatorTyped: false }))}
        @input=${this.#onExpiryInput}
        @blur=${() => this.#leave('expiry')}
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
        @blur=${() => this.#leave('cvv')}
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
        @blur=${() => this.#leave('name')}
      />
    `);
  }

  /**
   * Under each control one line holds the hint or, once there is one, the error (every error says what the hint
   * says, and more), so every field has the same rhythm and a message never moves what is below it. The number's
   * brand is shown as a badge beside its label; its hint is then for screen readers only.
   */
  #field(
    id: Field,
    label: MessageKey,
    error: string | undefined,
    hint: string | undefined,
    control: TemplateResult,
    badge: TemplateResult | typeof nothing = nothing,
  ): TemplateResult {
    const hiddenHint = badge !== nothing;
    return html`
      <div class="field" part="field">
        <div class="label-row"><label for=${id}>${this.t(label)}</label>${badge}</div>
        ${control}
        <div class="message">
          ${error
            ? html`<p class="error" id="${id}-error">${error}</p>`
            : hint && !hiddenHint
              ? html`<span class="hint" id="${id}-hint">${hint}</span>`
              : nothing}
        </div>
        ${hint && hiddenHint && !error ? html`<span class="visually-hidden" id="${id}-hint">${hint}</span>` : nothing}
      </div>
    `;
  }

  /** The message line's one occupant: the error when there is one, else the hint. */
  #describedBy(id: Field, error: string | undefined, hasHint: boolean): string {
    return error ? `${id}-error` : hasHint ? `${id}-hint` : '';
  }

  #savedCard() {
    return this.order?.savedCards.find((card) => card.token === this.savedToken && !savedCardExpired(card.expiry));
  }

  /** The card quote, when it is for this order's amount and currency. */
  #quoted(): FeeQuote | undefined {
    const quote = this.quote;
    if (!quote || quote.paymentOption !== 'C') return undefined;
    if (this.order && (quote.amount !== this.order.order.amount || quote.currency !== this.order.order.currency)) return undefined;
    return quote;
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
        const { month, year } = splitExpiry(this.expiry);
        const monthKnown = month.length === 2 || (month.length === 1 && year !== '');
        if (monthKnown && (Number(month) < 1 || Number(month) > 12)) return this.t('errorExpiryMonth');
        if (month === '' || year.length !== 2) return this.t('errorExpiryEmpty');
        const problem = checkExpiry(Number(month), normaliseExpiryYear(Number(year)));
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

  #leave(field: Field): void {
    if (this.#pressing) this.#leftWhilePressing.add(field);
    else this.#touch(field);
  }

  /** Messages appear once the customer leaves a field; the live region reads the new one out. */
  #touch(field: Field, announce = true): void {
    if (!this.isConnected) return;
    if (field === 'expiry') {
      // Leaving `2 / 30` (after an edit of the month) writes the month in full.
      const { month, year } = splitExpiry(this.expiry);
      if (month.length === 1 && month !== '0' && year.length === 2) this.expiry = `0${month} / ${year}`;
    }
    const value = { number: this.number, expiry: this.expiry, cvv: this.cvv, name: this.name }[field];
    if (!this.touched.has(field) && value === '' && !this.submitted) return;
    this.touched = new Set(this.touched).add(field);
    const error = this.#error(field);
    if (error && announce) this.announcement = error;
  }

  /**
   * Backspace just after a group separator (`4242 |4242`), or Delete just before one (`4242| 4242`), removes the
   * digit beyond it: the separator is only formatting, and deleting it alone would be put straight back.
   */
  #deleteAcrossSeparator(event: InputEvent, reformat: (input: HTMLInputElement, raw: string, caret: number) => void): void {
    const forward = event.inputType === 'deleteContentForward';
    if (!forward && event.inputType !== 'deleteContentBackward') return;
    const input = event.target as HTMLInputElement;
    const { selectionStart: start, selectionEnd: end, value } = input;
    if (start === null || start !== end) return;
    const index = forward ? start : start - 1;
    if (index < 0 || index >= value.length || /\d/.test(value[index]!)) return;
    let first = index;
    let last = index;
    while (first > 0 && !/\d/.test(value[first - 1]!)) first -= 1;
    while (last < value.length - 1 && !/\d/.test(value[last + 1]!)) last += 1;
    // Only a separator between digits: a trailing `12 / ` is removed by the browser as usual.
    if (first === 0 || last === value.length - 1) return;
    event.preventDefault();
    const removed = forward ? last + 1 : first - 1;
    reformat(input, value.slice(0, removed) + value.slice(removed + 1), forward ? start : removed);
  }

  #formatNumber(input: HTMLInputElement, raw: string, caret: number): void {
    const digitsBeforeCaret = digitsOnly(raw.slice(0, caret)).length;
    const digits = digitsOnly(raw);
    const formatted = formatCardNumber(digits.slice(0, Math.max(...allowedLengths(digits))));
    input.value = formatted;
    this.number = formatted;
    // Keep the caret after the same digit, so editing in the middle does not jump to the end.
    const position = afterDigits(formatted, digitsBeforeCaret);
    input.setSelectionRange(position, position);
  }

  #onExpiryInput(event: InputEvent): void {
    const input = event.target as HTMLInputElement;
    const inserted = event.data ?? '';
    this.#formatExpiry(input, input.value, input.selectionStart ?? input.value.length, {
      deleting: event.inputType?.startsWith('delete') ?? false,
      // A typed `/`, or a paste or autofill (`1/26`, `12/2030`), says where the month ends.
      separatorTyped: inserted.includes('/') || (event.inputType !== undefined && event.inputType !== 'insertText'),
    });
  }

  /**
   * Writes the expiry as `MM / YY` while keeping the caret where the customer is editing. A single month digit is
   * padded when a separator follows it (`1/` → `01 / `) or when it cannot start a two-digit month (`7` → `07 / `);
   * a four-digit year is shortened (`12/2030` → `12 / 30`).
   */
  #formatExpiry(input: HTMLInputElement, raw: string, caret: number, how: { deleting: boolean; separatorTyped: boolean }): void {
    const atEnd = caret >= raw.length;
    const slash = raw.indexOf('/');
    const caretInYear = slash >= 0 ? caret > slash : digitsOnly(raw.slice(0, caret)).length > 2;
    let { month, year, separator } = splitExpiry(raw);
    let digitsBefore = digitsOnly(raw.slice(0, caret)).length;
    if (month.length > 2) {
      // A digit typed into a full month pushes the rest along into the year.
      year = month.slice(2) + year;
      month = month.slice(0, 2);
      separator = true;
    }
    if (!how.deleting && month.length === 1 && month !== '0' && ((separator && how.separatorTyped) || (!separator && /^[2-9]$/.test(month)))) {
      month = `0${month}`;
      separator = true;
      if (digitsBefore > 0) digitsBefore += 1;
    }
    const typedYear = year;
    year = normaliseYear(year);
    if (caretInYear && typedYear.length > year.length) digitsBefore = Math.min(digitsBefore, month.length + year.length);
    // Backspace over the separator of `12 / ` leaves `12`; removing the last year digit keeps `12 / `.
    const withSeparator = (month.length === 2 || (separator && month !== '')) && (year !== '' || !how.deleting || raw.includes(' / '));
    const formatted = withSeparator ? `${month} / ${year}` : month + year;
    input.value = formatted;
    this.expiry = formatted;
    let position = atEnd ? formatted.length : afterDigits(formatted, digitsBefore);
    if (!atEnd && withSeparator && caretInYear && position <= month.length) position = month.length + 3;
    input.setSelectionRange(position, position);
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
    if (!this.#quoted()) {
      this.announcement = this.t('quoteNeeded');
      return;
    }
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
    const { month, year } = splitExpiry(this.expiry);
    const payload = saved
      ? { reference, paymentoption: 'C' as const, country, cardToken: saved.token, card: { cvv: this.cvv } }
      : {
          reference,
          paymentoption: 'C' as const,
          country,
          card: {
            cardnumber: digitsOnly(this.number),
            expirymonth: Number(month),
            expiryyear: normaliseExpiryYear(Number(year)),
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
