import '../api/zod-config.ts';
import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { addOrderNote, getOrder, type OrderDetail, type TimelineEntry } from '../../shared/contract/order-detail.ts';
import { ApiError, type ApiClient } from '../api/client.ts';
import type { Me } from '../api/session.ts';
import { DashElement } from '../base.ts';
import '../components/order-timeline.ts';
import '../components/refund-form.ts';
import { RefundedEvent } from '../components/refund-form.ts';
import '../components/state-badge.ts';
import { apiContext, meContext } from '../context.ts';
import { hrefOf } from '../router.ts';
import { styles } from './payment.styles.ts';

/**
 * One payment (`GET /checkout/orders/:reference`): the order, its attempts with their fees, a refund (for a role
 * that may refund), the timeline of everything that happened to it, and the team's notes.
 */
@customElement('dash-payment')
export class DashPayment extends DashElement {
  static override styles = styles;

  @consume({ context: apiContext }) api!: ApiClient;
  @consume({ context: meContext, subscribe: true }) me: Me | undefined;
  @property() reference = '';

  @state() private noteBusy = false;
  @state() private noteError: string | undefined;
  @query('#note') private noteField: HTMLTextAreaElement | undefined;

  readonly #order = new Task(this, {
    task: async ([reference], { signal }) => {
      try {
        return await this.api.call(getOrder, { params: { reference }, signal });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    args: () => [this.reference, this.me?.mode] as const,
  });

  constructor() {
    super();
    this.addEventListener(RefundedEvent.eventName, () => void this.#order.run());
  }

  #can(permission: string): boolean {
    return (this.me?.permissions as readonly string[] | undefined)?.includes(permission) ?? false;
  }

  async #addNote(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const text = this.noteField?.value.trim() ?? '';
    if (!text) {
      this.noteError = this.t('note.required');
      this.noteField?.focus();
      return;
    }
    this.noteBusy = true;
    this.noteError = undefined;
    try {
      await this.api.call(addOrderNote, { params: { reference: this.reference }, body: { text } });
      this.noteField!.value = '';
      this.announce(this.t('note.added'));
      await this.#order.run();
    } catch (error) {
      this.noteError = error instanceof ApiError && error.code === 'NETWORK' ? this.t('error.network') : this.t('error.generic');
    } finally {
      this.noteBusy = false;
    }
  }

  protected override render(): TemplateResult {
    return html`<p><a href=${hrefOf.payments}>← ${this.t('payment.back')}</a></p>
      <h1>${this.t('payment.title', { reference: this.reference })}</h1>
      ${this.#order.render({
        pending: () => (this.#order.value ? this.#page(this.#order.value.order, this.#order.value.timeline) : html`<p class="muted">${this.t('app.loading')}</p>`),
        error: (error) => html`<p class="error-message" role="alert">${error instanceof ApiError && error.code === 'NETWORK' ? this.t('error.network') : this.t('error.generic')}</p>`,
        complete: (answer) => (answer ? this.#page(answer.order, answer.timeline) : html`<p role="status">${this.t('payment.notFound')}</p>`),
      })}`;
  }

  #page(order: OrderDetail, timeline: readonly TimelineEntry[]): TemplateResult {
    return html`${this.#summary(order)} ${this.#attempts(order)}
      ${this.#can('refunds.create') && order.attempts.some((attempt) => attempt.statusId === 5 || attempt.statusId === 6)
        ? html`<section class="panel" aria-labelledby="refund-title">
            <h2 id="refund-title">${this.t('refund.title')}</h2>
            <dash-refund-form .order=${order}></dash-refund-form>
          </section>`
        : nothing}
      ${this.#timeline(timeline, order.currency)} ${this.#can('customers.manage') ? this.#noteForm() : nothing}`;
  }

  #timeline(timeline: readonly TimelineEntry[], currency: string): TemplateResult {
    return html`<section class="panel" aria-labelledby="timeline-title">
      <h2 id="timeline-title">${this.t('timeline.title')}</h2>
      <dash-order-timeline .entries=${timeline} .currency=${currency}></dash-order-timeline>
    </section>`;
  }

  #summary(order: OrderDetail): TemplateResult {
    const payment = order.payment;
    const row = (label: string, value: TemplateResult | string) => html`<div class="row"><dt>${label}</dt><dd>${value}</dd></div>`;
    const refunded = order.refunds.filter((refund) => refund.state === 'succeeded').reduce((sum, refund) => sum + refund.amountMinor, 0);
    const pending = order.refunds.filter((refund) => refund.state === 'processing').reduce((sum, refund) => sum + refund.amountMinor, 0);
    return html`<section class="panel" aria-labelledby="summary-title">
      <h2 id="summary-title" class="visually-hidden">${this.t('payment.summary')}</h2>
      <p class="headline"><span class="amount">${this.localizer.money(order.amount, order.currency)}</span> <dash-state-badge .state=${order.state}></dash-state-badge></p>
      <dl>
        ${row(this.t('payments.customer'), [order.customer.name, order.customer.email, order.customer.mobile].filter(Boolean).join(' · '))}
        ${order.description ? row(this.t('payment.description'), order.description) : nothing}
        ${row(this.t('payment.origin'), this.t(`origin.${order.origin}`))}
        ${row(this.t('payments.method'), payment ? (payment.method === 'card' && payment.cardLast4 ? this.t('payments.cardEnding', { brand: payment.cardBrand ?? this.t('method.card'), last4: payment.cardLast4 }) : this.t(`method.${payment.method}`)) : this.t('method.none'))}
        ${payment?.transferAccount ? row(this.t('payment.transferAccount'), `${payment.transferAccount}${payment.transferBank ? ` · ${payment.transferBank}` : ''}`) : nothing}
        ${payment?.method === 'bank_transfer' ? row(this.t('payment.received'), this.localizer.moneyMinor(payment.receivedMinor, order.currency)) : nothing}
        ${payment ? row(this.t('payment.fee'), `${this.localizer.moneyMinor(payment.feeMinor, order.currency)} (${this.t(`payment.feeBearer.${payment.feeBearer}`)})`) : nothing}
        ${order.refunds.length ? row(this.t('payment.refunded'), this.localizer.moneyMinor(refunded, order.currency)) : nothing}
        ${pending > 0 ? row(this.t('payment.refundPending'), this.localizer.moneyMinor(pending, order.currency)) : nothing}
        ${order.refunds.length ? row(this.t('payment.refundable'), this.localizer.money(order.refundable.amount, order.currency)) : nothing}
        ${row(this.t('payment.created'), html`<time datetime=${order.createdAt}>${this.localizer.dateTime(order.createdAt)}</time>`)}
        ${row(this.t('payment.updated'), html`<time datetime=${order.updatedAt}>${this.localizer.dateTime(order.updatedAt)}</time>`)}
      </dl>
    </section>`;
  }

  #attempts(order: OrderDetail): TemplateResult | typeof nothing {
    if (order.attempts.length === 0) return nothing;
    const money = (minor: number) => this.localizer.moneyMinor(minor, order.currency);
    return html`<section class="panel" aria-labelledby="attempts-title">
      <h2 id="attempts-title">${this.t('attempts.title')}</h2>
      <div class="table-wrap" tabindex="0" role="group" aria-labelledby="attempts-title">
        <table>
          <thead>
            <tr>
              <th scope="col">${this.t('payments.reference')}</th>
              <th scope="col">${this.t('payments.method')}</th>
              <th scope="col">${this.t('attempts.result')}</th>
              <th scope="col" class="number">${this.t('payments.amount')}</th>
              <th scope="col" class="number">${this.t('payment.fee')}</th>
              <th scope="col" class="number">${this.t('attempts.total')}</th>
            </tr>
          </thead>
          <tbody>
            ${order.attempts.map(
              (attempt) => html`<tr>
                <td>${attempt.reference}</td>
                <td>${attempt.method === 'card' && attempt.cardLast4 ? this.t('payments.cardEnding', { brand: attempt.cardBrand ?? this.t('method.card'), last4: attempt.cardLast4 }) : this.t(`method.${attempt.method}`)}</td>
                <td>${attempt.responseCode} · ${attempt.message}</td>
                <td class="number">${money(attempt.amountMinor)}</td>
                <td class="number">${money(attempt.feeMinor)} <span class="muted">(${this.t(`payment.feeBearer.${attempt.feeBearer}`)})</span></td>
                <td class="number">${money(attempt.totalMinor)}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </section>`;
  }

  #noteForm(): TemplateResult {
    return html`<section class="panel" aria-labelledby="note-title">
      <h2 id="note-title">${this.t('note.title')}</h2>
      <form class="note-form" novalidate @submit=${this.#addNote}>
        <div class="field">
          <label for="note">${this.t('note.label')}</label>
          <p class="hint" id="note-hint">${this.t('note.hint')}</p>
          <textarea id="note" name="text" rows="3" maxlength="2000" aria-invalid=${this.noteError ? 'true' : 'false'} aria-describedby="note-hint ${this.noteError ? 'note-error' : ''}"></textarea>
          ${this.noteError ? html`<p class="field-error" id="note-error" role="alert">${this.noteError}</p>` : nothing}
        </div>
        <button type="submit" ?disabled=${this.noteBusy}>${this.t('note.submit')}</button>
      </form>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-payment': DashPayment;
  }
}
