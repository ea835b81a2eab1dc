import '../api/zod-config.ts';
import { consume } from '@lit/context';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { refundOrder, type OrderDetail } from '../../shared/contract/order-detail.ts';
import { ApiError, type ApiClient, type DataOf } from '../api/client.ts';
import { DashElement } from '../base.ts';
import { apiContext } from '../context.ts';
import { styles } from './refund-form.styles.ts';
import { SteppedUpEvent, StepUpCancelledEvent } from './step-up.ts';
import './step-up.ts';

/** A refund went to the processor: the screen reads the order again. */
export class RefundedEvent extends Event {
  static readonly eventName = 'dash-refunded';
  constructor(readonly answer: DataOf<typeof refundOrder>) {
    super(RefundedEvent.eventName, { bubbles: true, composed: true });
  }
}

const AMOUNT = /^\d+(\.\d{1,2})?$/;

/**
 * Refunding an order, in full or in part: what is left to refund (after refunds still being confirmed), an amount
 * within it, a reason. When the server asks for a fresh second factor (`step_up_required`) the step-up form comes
 * in its place, and the refund is sent again once it is proved.
 */
@customElement('dash-refund-form')
export class DashRefundForm extends DashElement {
  static override styles = styles;

  @consume({ context: apiContext }) api!: ApiClient;
  @property({ attribute: false }) order: OrderDetail | undefined;

  @state() private kind: 'full' | 'partial' = 'full';
  @state() private busy = false;
  @state() private error: string | undefined;
  @state() private amountError: string | undefined;
  @state() private steppingUp = false;
  #pending: { amount?: number; reason?: string } | undefined;

  @query('form') private form!: HTMLFormElement;

  constructor() {
    super();
    this.addEventListener(SteppedUpEvent.eventName, () => {
      this.steppingUp = false;
      if (this.#pending) void this.#send(this.#pending);
    });
    this.addEventListener(StepUpCancelledEvent.eventName, () => {
      this.steppingUp = false;
      this.#pending = undefined;
    });
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const order = this.order!;
    const data = new FormData(this.form);
    const reason = String(data.get('reason') ?? '').trim() || undefined;
    let amount: number | undefined;
    this.amountError = undefined;
    if (this.kind === 'partial') {
      const raw = String(data.get('amount') ?? '').trim().replace(/,/g, '');
      const value = Number(raw);
      if (!AMOUNT.test(raw) || value <= 0) this.amountError = this.t('payments.amountInvalid');
      else if (value > Number(order.refundable.amount)) this.amountError = this.t('refund.tooMuch', { left: this.localizer.money(order.refundable.amount, order.currency) });
      else amount = value;
      if (this.amountError) {
        await this.updateComplete;
        this.renderRoot.querySelector<HTMLInputElement>('#refund-amount')?.focus();
        return;
      }
    }
    await this.#send({ ...(amount !== undefined ? { amount } : {}), ...(reason ? { reason } : {}) });
  }

  async #send(body: { amount?: number; reason?: string }): Promise<void> {
    this.busy = true;
    this.error = undefined;
    try {
      const answer = await this.api.call(refundOrder, { params: { reference: this.order!.reference }, body });
      this.#pending = undefined;
      this.announce(this.t(answer.refund.state === 'failed' ? 'refund.failed' : 'refund.sent', { amount: this.localizer.money(answer.refund.amount, answer.refund.currency) }));
      this.form?.reset();
      this.kind = 'full';
      this.dispatchEvent(new RefundedEvent(answer));
    } catch (error) {
      if (error instanceof ApiError && error.reason === 'step_up_required') {
        this.#pending = body;
        this.steppingUp = true;
        return;
      }
      this.error =
        error instanceof ApiError && error.code === 'CON409'
          ? this.t('refund.conflict')
          : error instanceof ApiError && error.reason === 'permission_denied'
            ? this.t('refund.notAllowed')
            : error instanceof ApiError && error.code === 'NETWORK'
              ? this.t('error.network')
              : this.t('error.generic');
    } finally {
      this.busy = false;
    }
  }

  protected override render(): TemplateResult {
    const order = this.order;
    if (!order) return html``;
    const left = this.localizer.money(order.refundable.amount, order.currency);
    if (order.refundable.amountMinor <= 0) return html`<p class="muted">${this.t('refund.nothingLeft')}</p>`;
    if (this.steppingUp) return html`<dash-step-up></dash-step-up>`;
    return html`<form novalidate @submit=${this.#submit}>
      <p>${this.t('refund.left', { left })}</p>
      <div role="alert" class="alert-region">${this.error ? html`<p class="error-message">${this.error}</p>` : nothing}</div>
      <fieldset>
        <legend>${this.t('refund.how')}</legend>
        <label class="choice"><input type="radio" name="kind" value="full" .checked=${this.kind === 'full'} @change=${() => (this.kind = 'full')} /> ${this.t('refund.full', { left })}</label>
        <label class="choice"><input type="radio" name="kind" value="partial" .checked=${this.kind === 'partial'} @change=${() => (this.kind = 'partial')} /> ${this.t('refund.partial')}</label>
      </fieldset>
      ${this.kind === 'partial'
        ? html`<div class="field">
            <label for="refund-amount">${this.t('refund.amount', { currency: order.currency })}</label>
            <input id="refund-amount" name="amount" inputmode="decimal" autocomplete="off" required aria-invalid=${this.amountError ? 'true' : 'false'} aria-describedby=${this.amountError ? 'refund-amount-error' : ''} />
            ${this.amountError ? html`<p class="field-error" id="refund-amount-error">${this.amountError}</p>` : nothing}
          </div>`
        : nothing}
      <div class="field">
        <label for="refund-reason">${this.t('refund.reason')}</label>
        <input id="refund-reason" name="reason" maxlength="255" autocomplete="off" />
      </div>
      <button class="primary" type="submit" ?disabled=${this.busy}>${this.busy ? this.t('refund.sending') : this.t('refund.submit')}</button>
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-refund-form': DashRefundForm;
  }
  interface GlobalEventHandlersEventMap {
    'dash-refunded': RefundedEvent;
  }
}
