import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { CheckoutElement } from '../base.ts';
import type { MessageKey } from '../i18n/localizer.ts';
import { CustomerDetailsEvent, type CustomerDetails, type CustomerField } from '../internal-events.ts';
import { buttons, fields, tokens, visuallyHidden } from '../styles/shared.styles.ts';
import { customerFormStyles } from './customer-form.styles.ts';

/** Label, browser autofill and input kind of each field; `mobile` is the only optional one. */
const FIELDS: Record<CustomerField, { label: MessageKey; error: MessageKey; autocomplete: string; type: string }> = {
  firstname: { label: 'firstName', error: 'errorFirstName', autocomplete: 'given-name', type: 'text' },
  lastname: { label: 'lastName', error: 'errorLastName', autocomplete: 'family-name', type: 'text' },
  email: { label: 'email', error: 'errorEmail', autocomplete: 'email', type: 'email' },
  mobile: { label: 'mobile', error: 'errorMobile', autocomplete: 'tel', type: 'tel' },
};

/** What the backend accepts (shared/orders.ts): an address with one @ and a dot after it; a phone of 7 to 15 digits. */
const VALID: Record<CustomerField, (value: string) => boolean> = {
  firstname: (value) => value !== '' && value.length <= 100,
  lastname: (value) => value !== '' && value.length <= 100,
  email: (value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) && value.length <= 254,
  mobile: (value) => value === '' || (/^\+?[\d ().-]+$/.test(value) && value.length <= 20 && /^(\D*\d){7,15}\D*$/.test(value)),
};

/**
 * The customer's details the merchant did not give (names, e-mail, a phone number when there is no way to reach
 * the customer): asked before the order is made, each checked once the customer leaves it, with the message under
 * the field, tied to it and read out politely. A submit with mistakes moves focus to the first and says how many.
 */
@customElement('ck-customer-form')
export class CkCustomerForm extends CheckoutElement {
  static override styles = [tokens, visuallyHidden, buttons, fields, customerFormStyles];

  /** The fields to ask for, in order. */
  @property({ attribute: false }) fields: CustomerField[] = [];

  @state() private values: Partial<Record<CustomerField, string>> = {};
  @state() private touched = new Set<CustomerField>();
  @state() private submitted = false;
  @state() private announcement = '';

  override render() {
    return html`
      <form novalidate @submit=${this.#onSubmit} aria-label=${this.t('detailsHeading')}>
        ${this.fields.map((field) => this.#field(field))}
        <button type="submit" class="primary" part="primary-button">${this.t('continue')}</button>
        <div class="visually-hidden" role="status" aria-live="polite">${this.announcement}</div>
      </form>
    `;
  }

  #field(field: CustomerField) {
    const { label, autocomplete, type } = FIELDS[field];
    const error = this.touched.has(field) || this.submitted ? this.#error(field) : undefined;
    return html`<div class="field" part="field">
      <label for=${field}>${this.t(label)}</label>
      <input
        id=${field}
        name=${field}
        part="input"
        type=${type}
        autocomplete=${autocomplete}
        maxlength=${field === 'mobile' ? 20 : field === 'email' ? 254 : 100}
        .value=${this.values[field] ?? ''}
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${error ? `${field}-error` : nothing}
        @input=${(event: Event) => (this.values = { ...this.values, [field]: (event.target as HTMLInputElement).value })}
        @blur=${() => this.#leave(field)}
      />
      <div class="message">${error ? html`<p class="error" id="${field}-error">${error}</p>` : nothing}</div>
    </div>`;
  }

  #value(field: CustomerField): string {
    return (this.values[field] ?? '').trim();
  }

  #error(field: CustomerField): string | undefined {
    return VALID[field](this.#value(field)) ? undefined : this.t(FIELDS[field].error);
  }

  #leave(field: CustomerField): void {
    if (!this.touched.has(field) && this.#value(field) === '' && !this.submitted) return;
    this.touched = new Set(this.touched).add(field);
    const error = this.#error(field);
    if (error) this.announcement = error;
  }

  async #onSubmit(event: Event): Promise<void> {
    event.preventDefault();
    this.submitted = true;
    const invalid = this.fields.filter((field) => this.#error(field) !== undefined);
    if (invalid.length > 0) {
      this.announcement = this.localizer.plural(invalid.length, 'fixFieldsOne', 'fixFieldsOther');
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>(`#${invalid[0]}`)?.focus();
      return;
    }
    const details: CustomerDetails = {};
    for (const field of this.fields) if (this.#value(field)) details[field] = this.#value(field);
    this.dispatchEvent(new CustomerDetailsEvent(details));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ck-customer-form': CkCustomerForm;
  }
}
