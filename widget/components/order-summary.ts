import { consume } from '@lit/context';
import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { describePlan, nextChargeAt } from '../../shared/plan.ts';
import type { CreateOrderData } from '../api/wire.ts';
import { CheckoutElement } from '../base.ts';
import { orderContext } from '../context.ts';
import { tokens } from '../styles/shared.styles.ts';
import { orderSummaryStyles } from './order-summary.styles.ts';

/**
 * The order's line items and subtotal, in the order's currency, formatted for the customer's locale. An order made
 * without items (`itemised` false) has one item of the whole amount, named by the server in its own words: it is
 * not listed; the order's description stands for it. An order that starts a subscription (`frequencyId` and
 * `numberOfPayments`, from a SUB link or the merchant's order) says its plan in the words the link page uses.
 * The customer the order is billed to is named under its reference.
 */
@customElement('ck-order-summary')
export class CkOrderSummary extends CheckoutElement {
  static override styles = [tokens, orderSummaryStyles];

  @consume({ context: orderContext, subscribe: true })
  @state()
  order: CreateOrderData | undefined;

  /** The merchant gave the order's items; false when the only item is the one the server made up. */
  @property({ type: Boolean }) itemised = true;

  override render() {
    const summary = this.order?.subsidiaryOrderSummary;
    if (!summary) return nothing;
    const money = (amount: number) => this.localizer.money(amount, summary.currency);
    const items = summary.orderItems;
    const itemised = this.itemised && items.length > 0;
    const description = this.order?.order.narration;
    return html`
      <section aria-label=${this.t('summaryHeading')}>
        <p class="reference">${this.t('orderReference', { reference: summary.reference })}</p>
        ${this.renderCustomer()}
        ${itemised
          ? html`<ul aria-label=${this.t('items')}>
              ${items.map((item) => html`<li><span class="name">${item.name}</span><span class="amount">${money(item.amount)}</span></li>`)}
            </ul>`
          : description
            ? html`<p class="description">${description}</p>`
            : nothing}
        <dl class="subtotal">
          <dt>${this.t('subtotal')}</dt>
          <dd class="amount">${money(summary.totalAmount)}</dd>
        </dl>
        ${this.renderPlan(money(summary.totalAmount))}
      </section>
    `;
  }

  /**
   * Whom the order is for, as the server holds it: an order the merchant's server made (a client token) is paid with
   * its customer, whatever the page's tag says, so the customer sees whose order they pay.
   */
  private renderCustomer() {
    const customer = this.order?.customer;
    if (!customer) return nothing;
    const name = [customer.firstName, customer.lastName].filter(Boolean).join(' ');
    const who = [name, customer.email].filter(Boolean).join(', ');
    return who ? html`<p class="reference customer" data-testid="customer">${this.t('billedTo', { customer: who })}</p>` : nothing;
  }

  private renderPlan(amount: string) {
    const order = this.order?.order;
    if (!order || order.frequencyId === null || order.numberOfPayments === null) return nothing;
    // Paid, the first charge is behind: the next is a period after it; before paying, a period after today.
    const next = nextChargeAt(order.frequencyId, new Date()) ?? null;
    const words = describePlan({ amount, frequencyId: order.frequencyId, numberOfPayments: order.numberOfPayments, next, language: this.localizer.language });
    return html`<p class="plan" data-testid="plan"><strong>${this.t('subscriptionPlan')}</strong> ${words}</p>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ck-order-summary': CkOrderSummary;
  }
}
