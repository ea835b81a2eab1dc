import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { listCustomers, type CustomerSummary } from '../../shared/contract/customers.ts';
import { hrefOf } from '../router.ts';
import { OperationsScreen } from './operations-base.ts';
import { operationsStyles } from './operations.styles.ts';

/** Customers: one row per e-mail (or mobile number), with orders, paid orders and totals; search by e-mail or phone. */
@customElement('dash-customers')
export class DashCustomers extends OperationsScreen {
  static override styles = operationsStyles;

  @state() private search = '';
  @state() private cursor: string | undefined;
  @query('#customer-search') private input!: HTMLInputElement;

  readonly #customers = new Task(this, {
    task: ([q, cursor], { signal }) => this.api.call(listCustomers, { query: { limit: 25, ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) }, signal }),
    args: () => [this.search, this.cursor, this.me?.mode] as const,
  });

  protected override render(): TemplateResult {
    return html`<h1>${this.t('customers.title')}</h1>
      <form class="toolbar" role="search" @submit=${(event: Event) => (event.preventDefault(), (this.search = this.input.value.trim()), (this.cursor = undefined))}>
        <div class="field">
          <label for="customer-search">${this.t('customers.search')}</label>
          <input id="customer-search" type="search" maxlength="120" .value=${this.search} />
        </div>
        <button class="primary" type="submit">${this.t('payments.searchButton')}</button>
      </form>
      ${this.#customers.render({
        initial: () => this.loading(),
        pending: () => this.loading(),
        error: (error) => this.loadError(error),
        complete: (page) => html`${page.items.length === 0 ? html`<p>${this.t('customers.empty')}</p>` : this.#table(page.items)}
          <div class="toolbar">
            ${this.cursor ? html`<button @click=${() => (this.cursor = undefined)}>${this.t('payments.first')}</button>` : nothing}
            ${page.nextCursor ? html`<button @click=${() => (this.cursor = page.nextCursor!)}>${this.t('payments.next')}</button>` : nothing}
          </div>`,
      })}`;
  }

  #table(items: CustomerSummary[]): TemplateResult {
    const l = (key: Parameters<typeof this.t>[0]) => this.t(key);
    return html`<table class="responsive">
      <thead><tr><th scope="col">${l('subs.customer')}</th><th scope="col" class="num">${l('customers.orders')}</th><th scope="col" class="num">${l('customers.paid')}</th><th scope="col" class="num">${l('customers.total')}</th><th scope="col">${l('customers.lastOrder')}</th></tr></thead>
      <tbody>${items.map(
        (customer) => html`<tr data-customer=${customer.id}>
          <td data-label=${l('subs.customer')}><a href=${hrefOf.customer(customer.id)}>${customer.name}</a><br /><span class="muted">${customer.email ?? customer.mobile ?? ''}</span></td>
          <td data-label=${l('customers.orders')} class="num">${this.localizer.number(customer.ordersCount)}</td>
          <td data-label=${l('customers.paid')} class="num">${this.localizer.number(customer.paidCount)}</td>
          <td data-label=${l('customers.total')} class="num">${customer.totalPaid.map((total) => this.localizer.money(total.amount, total.currency)).join(' · ') || '—'}</td>
          <td data-label=${l('customers.lastOrder')}>${this.localizer.dateTime(customer.lastOrderAt)}</td>
        </tr>`,
      )}</tbody>
    </table>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-customers': DashCustomers;
  }
}
