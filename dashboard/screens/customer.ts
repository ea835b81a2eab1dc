import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { getCustomer, revokeCustomerCard } from '../../shared/contract/customers.ts';
import '../components/state-badge.ts';
import { hrefOf } from '../router.ts';
import { OperationsScreen } from './operations-base.ts';
import { operationsStyles } from './operations.styles.ts';

/** One customer: its orders, subscriptions and saved cards; members who manage customers revoke a card. */
@customElement('dash-customer')
export class DashCustomer extends OperationsScreen {
  static override styles = operationsStyles;

  @property() customerId = '';
  @state() private confirming: string | undefined;

  readonly #customer = new Task(this, {
    task: ([customerId], { signal }) => this.api.call(getCustomer, { params: { customerId }, signal }),
    args: () => [this.customerId, this.me?.mode] as const,
  });

  async #revoke(cardId: string, label: string): Promise<void> {
    const done = await this.act(() => this.api.call(revokeCustomerCard, { params: { customerId: this.customerId, cardId } }));
    this.confirming = undefined;
    if (!done) return;
    this.announce(this.t('customer.revoked', { card: label }));
    void this.#customer.run();
  }

  protected override render(): TemplateResult {
    return html`<p><a href=${hrefOf.customers}>${this.t('customer.back')}</a></p>
      ${this.chrome()}
      ${this.#customer.render({
        initial: () => this.loading(),
        pending: () => this.loading(),
        error: (error) => this.loadError(error),
        complete: (customer) => html`<h1>${customer.name}</h1>
          <dl>
            <dt>${this.t('customer.email')}</dt><dd>${customer.email ?? '—'}</dd>
            <dt>${this.t('customer.mobile')}</dt><dd>${customer.mobile ?? '—'}</dd>
            <dt>${this.t('customers.orders')}</dt><dd>${this.localizer.number(customer.ordersCount)}</dd>
            <dt>${this.t('customers.total')}</dt><dd>${customer.totalPaid.map((total) => this.localizer.money(total.amount, total.currency)).join(' · ') || '—'}</dd>
          </dl>
          <section aria-labelledby="orders-title">
            <h2 id="orders-title">${this.t('customers.orders')}</h2>
            ${customer.orders.items.length === 0 ? html`<p>${this.t('payments.empty')}</p>` : html`<ul class="cards">${customer.orders.items.map(
              (order) => html`<li class="panel"><a href=${hrefOf.payment(order.reference)}>${order.reference}</a> · ${this.localizer.money(order.amount, order.currency)} · ${this.localizer.dateTime(order.createdAt)}
                <dash-state-badge .state=${order.state}></dash-state-badge></li>`,
            )}</ul>`}
          </section>
          <section aria-labelledby="subs-title">
            <h2 id="subs-title">${this.t('subs.title')}</h2>
            ${customer.subscriptions.length === 0 ? html`<p>${this.t('subs.empty')}</p>` : html`<ul class="cards">${customer.subscriptions.map(
              (sub) => html`<li class="panel">${sub.reference} · ${this.t(`subs.state.${sub.state}`)} · ${this.localizer.money(sub.amount, sub.currency)} · ${this.t('subs.nextCharge')}: ${sub.nextChargeAt ? this.localizer.dateTime(sub.nextChargeAt) : '—'}</li>`,
            )}</ul>`}
          </section>
          <section aria-labelledby="cards-title">
            <h2 id="cards-title">${this.t('customer.cards')}</h2>
            ${customer.cards.length === 0 ? html`<p>${this.t('customer.noCards')}</p>` : html`<ul class="cards">${customer.cards.map((card) => {
              const label = this.t('customer.card', { brand: card.brand, last4: card.last4, expiry: card.expiry });
              return html`<li class="panel row-actions" data-card=${card.id}><span>${label}</span>
                ${this.can('customers.manage')
                  ? this.confirming === card.id
                    ? html`<button class="danger" @click=${() => this.#revoke(card.id, label)}>${this.t('customer.confirmRevoke')}</button><button @click=${() => (this.confirming = undefined)}>${this.t('common.cancel')}</button>`
                    : html`<button @click=${() => (this.confirming = card.id)} aria-label=${this.t('customer.revokeOf', { card: label })}>${this.t('customer.revoke')}</button>`
                  : nothing}</li>`;
            })}</ul>`}
          </section>`,
      })}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-customer': DashCustomer;
  }
}
