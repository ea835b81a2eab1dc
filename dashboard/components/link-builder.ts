import '../api/zod-config.ts';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { createLinkRequestSchema } from '../../shared/links.ts';
import type { LinkSummary } from '../../shared/contract/links.ts';
import { DashElement } from '../base.ts';
import { builderStyles } from './link-builder.styles.ts';

export const LINK_CURRENCIES = ['NGN', 'USD', 'GHS', 'KES', 'ZAR', 'EUR', 'GBP'];
export const FREQUENCY_IDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] as const;

/** What the builder sends: the body of `POST /checkout/payment-links` (the gateway's link request). */
export type LinkDraft = {
  Name: string;
  Description: string;
  PaymentType: 'SC' | 'MC' | 'SUB';
  Currency: string;
  AuthOption: 'AUTH' | 'NOAUTH';
  Amount?: string;
  Limit?: number;
  FrequencyId?: number;
  NumberOfPayments?: number;
  BackgroundImage?: string;
  Website?: string;
};

/** The builder's answer: a draft the contract's schema accepted. */
export class LinkDraftEvent extends Event {
  static readonly eventName = 'dash-link-draft';
  constructor(readonly draft: LinkDraft) {
    super(LinkDraftEvent.eventName, { bubbles: true, composed: true });
  }
}

type Values = {
  name: string; description: string; type: 'SC' | 'MC' | 'SUB'; currency: string; amountMode: 'fixed' | 'customer'; amount: string;
  limit: string; frequency: string; payments: string; background: string; website: string; auth: 'AUTH' | 'NOAUTH';
};

/** The form's fields in the order they appear: the first with an error is focused. */
const FIELD_ORDER: readonly (keyof Values)[] = ['name', 'description', 'amount', 'limit', 'payments', 'background', 'website'];

const FIELD_OF: Record<string, keyof Values> = {
  Name: 'name', Description: 'description', Amount: 'amount', Limit: 'limit', FrequencyId: 'frequency', NumberOfPayments: 'payments', BackgroundImage: 'background', Website: 'website',
};

/**
 * The payment-link builder: type (single, multiple, subscription), a fixed or customer-chosen amount, how many
 * payments, a subscription's frequency and number of payments, a background image and where the customer goes
 * after paying, with a live preview of the hosted page beside it. Fields are checked by the contract's own schema
 * when the form is sent; each error is shown under its field and the first is focused.
 */
@customElement('dash-link-builder')
export class DashLinkBuilder extends DashElement {
  static override styles = builderStyles;

  /** The link being edited (its type and currency stay); none: a new link. */
  @property({ attribute: false }) link: LinkSummary | undefined;
  @property({ type: Boolean }) busy = false;
  @property() merchantName = '';
  @state() private values: Values = this.#initial(undefined);
  @state() private errors: Partial<Record<keyof Values, string>> = {};

  protected override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('link')) this.values = this.#initial(this.link);
  }

  #initial(link: LinkSummary | undefined): Values {
    return {
      name: link?.name ?? '',
      description: link?.description ?? '',
      type: link?.type ?? 'SC',
      currency: link?.currency ?? 'NGN',
      amountMode: link && link.amount === null ? 'customer' : 'fixed',
      amount: link?.amount ?? '',
      limit: link && link.payerLimit > 0 ? String(link.payerLimit) : '',
      frequency: String(link?.plan?.frequencyId ?? 6),
      payments: link?.plan?.numberOfPayments ? String(link.plan.numberOfPayments) : '',
      background: '',
      website: '',
      auth: 'AUTH',
    };
  }

  #changed(event: Event): void {
    const target = event.target as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
    if (!target.name) return;
    this.values = { ...this.values, [target.name]: target.value };
  }

  #draft(): LinkDraft {
    const v = this.values;
    const text = (value: string) => (value.trim() === '' ? undefined : value.trim());
    return {
      Name: v.name.trim(),
      Description: v.description.trim(),
      PaymentType: v.type,
      Currency: v.currency,
      AuthOption: v.auth,
      ...(v.amountMode === 'fixed' && text(v.amount) ? { Amount: v.amount.trim() } : {}),
      ...(v.type === 'MC' && text(v.limit) ? { Limit: Number(v.limit) } : {}),
      ...(v.type === 'SC' ? { Limit: 1 } : {}),
      ...(v.type === 'SUB' ? { FrequencyId: Number(v.frequency), ...(text(v.payments) ? { NumberOfPayments: Number(v.payments) } : {}) } : {}),
      ...(text(v.background) ? { BackgroundImage: v.background.trim() } : {}),
      ...(text(v.website) ? { Website: v.website.trim() } : {}),
    };
  }

  #submit(event: SubmitEvent): void {
    event.preventDefault();
    const draft = this.#draft();
    const errors: Partial<Record<keyof Values, string>> = {};
    if (this.values.amountMode === 'fixed' && !draft.Amount) errors.amount = this.t('links.amountRequired');
    const parsed = createLinkRequestSchema.safeParse(draft);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = FIELD_OF[String(issue.path[0])];
        if (field && !errors[field]) errors[field] = this.t('links.fieldInvalid', { message: issue.message });
      }
    }
    this.errors = errors;
    const first = FIELD_ORDER.find((field) => errors[field]);
    if (first) {
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`[name=${first}]`)?.focus());
      return;
    }
    this.dispatchEvent(new LinkDraftEvent(draft));
  }

  #field(name: keyof Values, label: string, input: TemplateResult, hint?: string): TemplateResult {
    const error = this.errors[name];
    return html`<div class="field">
      <label for=${name}>${label}</label>
      ${hint ? html`<p class="hint" id="${name}-hint">${hint}</p>` : nothing} ${input}
      ${error ? html`<p class="field-error" id="${name}-error">${error}</p>` : nothing}
    </div>`;
  }

  #described(name: keyof Values, hint: boolean): string {
    return [hint ? `${name}-hint` : '', this.errors[name] ? `${name}-error` : ''].filter(Boolean).join(' ');
  }

  protected override render(): TemplateResult {
    const v = this.values;
    const editing = this.link !== undefined;
    const input = (name: keyof Values, attrs: { type?: string; inputmode?: string; hint?: boolean } = {}) =>
      html`<input id=${name} name=${name} type=${attrs.type ?? 'text'} inputmode=${attrs.inputmode ?? nothing} .value=${v[name]}
        aria-invalid=${this.errors[name] ? 'true' : 'false'} aria-describedby=${this.#described(name, attrs.hint ?? false) || nothing} />`;
    return html`<div class="builder">
      <form @input=${this.#changed} @change=${this.#changed} @submit=${this.#submit} novalidate>
        ${this.#field('name', this.t('links.name'), input('name'))}
        ${this.#field('description', this.t('links.description'), html`<textarea id="description" name="description" rows="3" .value=${v.description}
          aria-invalid=${this.errors.description ? 'true' : 'false'} aria-describedby=${this.#described('description', false) || nothing}></textarea>`)}
        <fieldset ?disabled=${editing}>
          <legend>${this.t('links.type')}</legend>
          ${(['SC', 'MC', 'SUB'] as const).map((type) => html`<label class="check"><input type="radio" name="type" value=${type} .checked=${v.type === type} />${this.t(`links.type.${type}`)}</label>`)}
        </fieldset>
        <div class="grid">
          <div class="field">
            <label for="currency">${this.t('links.currency')}</label>
            <select id="currency" name="currency" ?disabled=${editing}>${LINK_CURRENCIES.map((code) => html`<option ?selected=${v.currency === code}>${code}</option>`)}</select>
          </div>
          <fieldset>
            <legend>${this.t('links.amountMode')}</legend>
            <label class="check"><input type="radio" name="amountMode" value="fixed" .checked=${v.amountMode === 'fixed'} />${this.t('links.amountFixed')}</label>
            <label class="check"><input type="radio" name="amountMode" value="customer" .checked=${v.amountMode === 'customer'} ?disabled=${editing} />${this.t('links.amountCustomer')}</label>
          </fieldset>
        </div>
        ${v.amountMode === 'fixed' ? this.#field('amount', this.t('links.amount'), input('amount', { inputmode: 'decimal', hint: true }), this.t('links.amountHint', { currency: v.currency })) : nothing}
        ${v.type === 'MC' ? this.#field('limit', this.t('links.limit'), input('limit', { inputmode: 'numeric', hint: true }), this.t('links.limitHint')) : nothing}
        ${v.type === 'SUB'
          ? html`<div class="grid">
              <div class="field">
                <label for="frequency">${this.t('links.frequency')}</label>
                <select id="frequency" name="frequency">${FREQUENCY_IDS.map((id) => html`<option value=${id} ?selected=${v.frequency === String(id)}>${this.t(`freq.${id}`)}</option>`)}</select>
              </div>
              ${this.#field('payments', this.t('links.payments'), input('payments', { inputmode: 'numeric', hint: true }), this.t('links.paymentsHint'))}
            </div>`
          : nothing}
        ${this.#field('background', this.t('links.background'), input('background', { type: 'url', hint: true }), this.t('links.backgroundHint'))}
        ${this.#field('website', this.t('links.website'), input('website', { type: 'url', hint: true }), this.t('links.websiteHint'))}
        <div class="field">
          <label for="auth">${this.t('links.auth')}</label>
          <select id="auth" name="auth"><option value="AUTH" ?selected=${v.auth === 'AUTH'}>${this.t('links.auth.AUTH')}</option><option value="NOAUTH" ?selected=${v.auth === 'NOAUTH'}>${this.t('links.auth.NOAUTH')}</option></select>
        </div>
        <div class="buttons"><button class="primary" type="submit" ?disabled=${this.busy}>${this.t(editing ? 'links.saveChanges' : 'links.create')}</button><slot name="actions"></slot></div>
      </form>
      ${this.#preview()}
    </div>`;
  }

  /** The hosted page as the customer will see it, from the fields as they are now. */
  #preview(): TemplateResult {
    const v = this.values;
    const amount = v.amountMode === 'fixed' && /^\d+(\.\d{1,2})?$/.test(v.amount.trim()) ? this.localizer.money(v.amount.trim(), v.currency) : undefined;
    return html`<aside class="preview" aria-labelledby="preview-title">
      <h3 id="preview-title">${this.t('links.preview')}</h3>
      <div class="page">
        ${v.background.trim() ? html`<p class="hint">${this.t('links.previewBackground')}</p>` : nothing}
        <p class="merchant">${this.merchantName}</p>
        <p class="title">${v.name.trim() || this.t('links.previewName')}</p>
        ${v.description.trim() ? html`<p class="description">${v.description.trim()}</p>` : nothing}
        <p class="amount">${amount ?? this.t('links.previewCustomerAmount', { currency: v.currency })}</p>
        ${v.type === 'SUB' ? html`<p class="plan">${this.t('links.previewPlan', { frequency: this.t(`freq.${Number(v.frequency) as 6}`), payments: v.payments.trim() || '∞' })}</p>` : nothing}
        <p class="fee">${this.t('links.previewFee')}</p>
        <span class="pay" aria-hidden="true">${this.t('links.previewPay')}</span>
      </div>
    </aside>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-link-builder': DashLinkBuilder;
  }
  interface GlobalEventHandlersEventMap {
    'dash-link-draft': LinkDraftEvent;
  }
}
