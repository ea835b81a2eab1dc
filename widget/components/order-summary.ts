import { consume } from '@lit/context';
import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import type { CreateOrderData } from '../api/wire.ts';
import { CheckoutElement } from '../base.ts';
import { orderContext } from '../context.ts';
import { tokens } from '../styles/shared.styles.ts';
import { orderSummaryStyles } from './order-summary.styles.ts';

/** The order's line items and subtotal, in the order's currency, formatted for the customer's locale. */
@customElement('ck-order-summary')
export class CkOrderSummary extends CheckoutElement {
  static override styles = [tokens, orderSummaryStyles];

  @consume({ context: orderContext, subscribe: true })
  @state()
  order: CreateOrderData | undefined;

  override render() {
    const summary = this.order?.subsidiaryOrderSummary;
    if (!summary) return nothing;
    const money = (amount: number) => this.localizer.money(amount, summary.currency);
    return html`
      <section aria-label=${this.t('summaryHeading')}>
        <p class="reference">${this.t('orderReference', { reference: summary.reference })}</p>
        <ul aria-label=${this.t('items')}>
          ${summary.orderItems.map(
            (item) => html`<li><span class="name">${item.name}</span><span class="amount">${money(item.amount)}</span></li>`,
          )}
        </ul>
        <dl class="subtotal">
          <dt>${this.t('subtotal')}</dt>
          <dd class="amount">${money(summary.totalAmount)}</dd>
        </dl>
      </section>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ck-order-summary': CkOrderSummary;
  }
}
