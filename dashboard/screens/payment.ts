import '../api/zod-config.ts';
import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { listOrders, type OrderSummary } from '../../shared/contract/orders.ts';
import { ApiError, type ApiClient } from '../api/client.ts';
import type { Me } from '../api/session.ts';
import { DashElement } from '../base.ts';
import '../components/state-badge.ts';
import { apiContext, meContext } from '../context.ts';
import { hrefOf } from '../router.ts';
import { styles } from './payment.styles.ts';

/**
 * One payment. Until the order timeline (`GET /checkout/orders/:reference`) joins the contract, the order is found
 * through the list's search by its exact reference, and this screen shows what the list knows of it.
 */
@customElement('dash-payment')
export class DashPayment extends DashElement {
  static override styles = styles;

  @consume({ context: apiContext }) api!: ApiClient;
  @consume({ context: meContext, subscribe: true }) me: Me | undefined;
  @property() reference = '';

  readonly #order = new Task(this, {
    task: async ([reference], { signal }) => {
      const page = await this.api.call(listOrders, { query: { q: reference, limit: 5 } as never, signal });
      return page.items.find((order) => order.reference === reference) ?? null;
    },
    args: () => [this.reference, this.me?.mode] as const,
  });

  protected override render(): TemplateResult {
    return html`<p><a href=${hrefOf.payments}>← ${this.t('payment.back')}</a></p>
      <h1>${this.t('payment.title', { reference: this.reference })}</h1>
      ${this.#order.render({
        pending: () => html`<p class="muted">${this.t('app.loading')}</p>`,
        error: (error) => html`<p class="error-message" role="alert">${error instanceof ApiError && error.code === 'NETWORK' ? this.t('error.network') : this.t('error.generic')}</p>`,
        complete: (order) => (order ? this.#details(order) : html`<p role="status">${this.t('payment.notFound')}</p>`),
      })}`;
  }

  #details(order: OrderSummary): TemplateResult {
    const payment = order.payment;
    const row = (label: string, value: TemplateResult | string) => html`<div class="row"><dt>${label}</dt><dd>${value}</dd></div>`;
    return html`<section class="panel">
      <p class="headline"><span class="amount">${this.localizer.money(order.amount, order.currency)}</span> <dash-state-badge .state=${order.state}></dash-state-badge></p>
      <dl>
        ${row(this.t('payments.customer'), [order.customer.name, order.customer.email, order.customer.mobile].filter(Boolean).join(' · '))}
        ${order.description ? row(this.t('payment.description'), order.description) : nothing}
        ${row(this.t('payment.origin'), this.t(`origin.${order.origin}`))}
        ${row(this.t('payments.method'), payment ? (payment.method === 'card' && payment.cardLast4 ? this.t('payments.cardEnding', { brand: payment.cardBrand ?? this.t('method.card'), last4: payment.cardLast4 }) : this.t(`method.${payment.method}`)) : this.t('method.none'))}
        ${payment?.transferAccount ? row(this.t('payment.transferAccount'), `${payment.transferAccount}${payment.transferBank ? ` · ${payment.transferBank}` : ''}`) : nothing}
        ${payment ? row(this.t('payment.received'), this.localizer.moneyMinor(payment.receivedMinor, order.currency)) : nothing}
        ${payment ? row(this.t('payment.fee'), `${this.localizer.moneyMinor(payment.feeMinor, order.currency)} (${this.t(`payment.feeBearer.${payment.feeBearer}`)})`) : nothing}
        ${row(this.t('payment.created'), html`<time datetime=${order.createdAt}>${this.localizer.dateTime(order.createdAt)}</time>`)}
        ${row(this.t('payment.updated'), html`<time datetime=${order.updatedAt}>${this.localizer.dateTime(order.updatedAt)}</time>`)}
      </dl>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-payment': DashPayment;
  }
}
