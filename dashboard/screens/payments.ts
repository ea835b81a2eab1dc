import '../api/zod-config.ts';
import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { exportOrders, listOrders, ORDER_STATES, PAYMENT_METHODS, type OrderSummary } from '../../shared/contract/orders.ts';
import { ApiError, type ApiClient } from '../api/client.ts';
import type { Me } from '../api/session.ts';
import { DashElement } from '../base.ts';
import '../components/state-badge.ts';
import { apiContext, meContext } from '../context.ts';
import { hrefOf } from '../router.ts';
import { EMPTY_FILTERS, loadViews, storeViews, type PaymentFilters, type SavedView } from '../saved-views.ts';
import { activeFilters, AMOUNT, filterQuery, PAGE_SIZE } from './payments-query.ts';
import { styles } from './payments.styles.ts';

/** Currencies offered in the filter: the ones the checkout's merchants take. */
const CURRENCIES = ['NGN', 'USD', 'GHS', 'KES', 'ZAR', 'EUR', 'GBP'];
/** Wide enough for the table; narrower, each payment is a card. */
const TABLE_MIN_WIDTH = 640;

/**
 * The payments list: one search box (`q`), filters (state, method, currency, dates, amounts), keyset pages (the
 * API's `nextCursor`), saved views (localStorage) and the CSV export of the current filters. A table when there is
 * room, cards when not; states are badges with words, amounts in each order's currency.
 */
@customElement('dash-payments')
export class DashPayments extends DashElement {
  static override styles = styles;

  @consume({ context: apiContext }) api!: ApiClient;
  @consume({ context: meContext, subscribe: true }) me: Me | undefined;

  @state() private filters: PaymentFilters = { ...EMPTY_FILTERS };
  /** The cursors of the pages shown so far: the last is this page's (undefined for the first). */
  @state() private cursor: string | undefined;
  @state() private page = 1;
  @state() private views: SavedView[] = loadViews();
  @state() private wide = false;
  @state() private amountErrors: { amountMin?: boolean; amountMax?: boolean } = {};
  @state() private viewName = '';

  @query('#search') private searchInput!: HTMLInputElement;
  @query('h2#results') private resultsHeading!: HTMLElement;

  readonly #resize = new ResizeObserver(([entry]) => {
    const wide = (entry?.contentRect.width ?? 0) >= TABLE_MIN_WIDTH;
    if (wide !== this.wide) this.wide = wide;
  });

  readonly #orders = new Task(this, {
    task: async ([filters, cursor], { signal }) => {
      const page = await this.api.call(listOrders, { query: { ...filterQuery(filters), limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } as never, signal });
      this.announce(page.items.length === 0 ? this.t('payments.empty') : this.localizer.plural(page.items.length, 'payments.count.one', 'payments.count.other'));
      return page;
    },
    // The mode is part of the key: switching test/live lists the other mode's payments.
    args: () => [this.filters, this.cursor, this.me?.mode] as const,
  });

  override connectedCallback(): void {
    super.connectedCallback();
    this.#resize.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#resize.disconnect();
  }

  #setFilters(filters: PaymentFilters): void {
    this.filters = filters;
    this.cursor = undefined;
    this.page = 1;
  }

  #search(event: SubmitEvent): void {
    event.preventDefault();
    this.#setFilters({ ...this.filters, q: this.searchInput.value });
  }

  #filterChanged(event: Event): void {
    const target = event.target as HTMLInputElement | HTMLSelectElement;
    const name = target.name as keyof PaymentFilters;
    if (name === 'state') {
      const checked = [...this.renderRoot.querySelectorAll<HTMLInputElement>('input[name=state]:checked')].map((box) => box.value);
      this.#setFilters({ ...this.filters, state: checked });
      return;
    }
    if (name === 'amountMin' || name === 'amountMax') {
      const value = target.value.trim();
      const invalid = value !== '' && !AMOUNT.test(value);
      this.amountErrors = { ...this.amountErrors, [name]: invalid };
      if (invalid) return;
    }
    if (name in EMPTY_FILTERS) this.#setFilters({ ...this.filters, [name]: target.value });
  }

  #nextPage(cursor: string): void {
    this.cursor = cursor;
    this.page += 1;
    this.resultsHeading?.focus();
  }

  #firstPage(): void {
    this.cursor = undefined;
    this.page = 1;
    this.resultsHeading?.focus();
  }

  #saveView(event: SubmitEvent): void {
    event.preventDefault();
    const name = this.viewName.trim();
    if (!name) return;
    this.views = [...this.views.filter((view) => view.name !== name), { name, filters: this.filters }];
    storeViews(this.views);
    this.viewName = '';
    this.announce(this.t('views.saved', { name }));
  }

  #deleteView(name: string): void {
    this.views = this.views.filter((view) => view.name !== name);
    storeViews(this.views);
  }

  #clear(): void {
    this.amountErrors = {};
    this.#setFilters({ ...EMPTY_FILTERS, q: this.filters.q });
  }

  protected override render(): TemplateResult {
    const exportHref = this.api.href(exportOrders, { query: filterQuery(this.filters) as never });
    return html`
      <h1>${this.t('payments.title')}</h1>
      <form class="search" role="search" @submit=${this.#search}>
        <div class="field">
          <label for="search">${this.t('payments.search')}</label>
          <p class="hint" id="search-hint">${this.t('payments.searchHint')}</p>
          <div class="search-row">
            <input id="search" name="q" type="search" maxlength="120" autocomplete="off" aria-describedby="search-hint" .value=${this.filters.q} />
            <button class="primary" type="submit">${this.t('payments.searchButton')}</button>
          </div>
        </div>
      </form>
      ${this.#filtersForm()} ${this.#savedViews()}
      <div class="actions">
        <a class="button" href=${exportHref} download aria-describedby="export-hint">${this.t('payments.export')}</a>
        <span class="hint" id="export-hint">${this.t('payments.exportHint')}</span>
      </div>
      <h2 id="results" tabindex="-1">${this.t('payments.results')}</h2>
      ${this.#orders.render({
        initial: () => this.#loading(),
        pending: () => this.#loading(),
        error: (error) => html`<p class="error-message" role="alert">${this.#errorText(error)}</p>`,
        complete: (page) => html`
          ${page.items.length === 0 ? html`<p>${this.t('payments.empty')}</p>` : this.wide ? this.#table(page.items) : this.#cards(page.items)}
          <div class="pager">
            ${this.page > 1 ? html`<button @click=${this.#firstPage}>${this.t('payments.first')}</button>` : nothing}
            ${page.nextCursor ? html`<button @click=${() => this.#nextPage(page.nextCursor!)}>${this.t('payments.next')}</button>` : nothing}
          </div>
        `,
      })}
    `;
  }

  #loading(): TemplateResult {
    return html`<p class="muted">${this.t('payments.loading')}</p>`;
  }

  #errorText(error: unknown): string {
    if (error instanceof ApiError && error.code === 'NETWORK') return this.t('error.network');
    if (error instanceof ApiError && error.code === 'VAL400') return this.t('error.invalid', { message: error.message });
    return this.t('error.generic');
  }

  #filtersForm(): TemplateResult {
    const f = this.filters;
    const count = activeFilters(f);
    return html`<details class="filters panel" ?open=${count > 0}>
      <summary>${this.t('payments.filters')}${count > 0 ? ` (${count})` : ''}</summary>
      <form @change=${this.#filterChanged} @submit=${(event: Event) => event.preventDefault()}>
        <fieldset class="states">
          <legend>${this.t('payments.state')}</legend>
          ${ORDER_STATES.map(
            (name) => html`<label class="check"><input type="checkbox" name="state" value=${name} .checked=${f.state.includes(name)} />${this.t(`state.${name}`)}</label>`,
          )}
        </fieldset>
        <div class="grid">
          <div class="field">
            <label for="method">${this.t('payments.method')}</label>
            <select id="method" name="method">
              <option value="" ?selected=${!f.method}>${this.t('payments.any')}</option>
              ${PAYMENT_METHODS.map((method) => html`<option value=${method} ?selected=${f.method === method}>${this.t(`method.${method}`)}</option>`)}
            </select>
          </div>
          <div class="field">
            <label for="from">${this.t('payments.from')}</label>
            <input id="from" name="from" type="date" .value=${f.from} />
          </div>
          <div class="field">
            <label for="to">${this.t('payments.to')}</label>
            <input id="to" name="to" type="date" .value=${f.to} />
          </div>
        </div>
        <fieldset class="grid amounts">
          <legend>${this.t('payments.amount')}</legend>
          <div class="field">
            <label for="currency">${this.t('payments.currency')}</label>
            <select id="currency" name="currency">
              <option value="" ?selected=${!f.currency}>${this.t('payments.any')}</option>
              ${CURRENCIES.map((code) => html`<option value=${code} ?selected=${f.currency === code}>${code}</option>`)}
            </select>
          </div>
          ${(['amountMin', 'amountMax'] as const).map(
            (name) => html`<div class="field">
              <label for=${name}>${this.t(`payments.${name}`)}</label>
              <input
                id=${name}
                name=${name}
                inputmode="decimal"
                autocomplete="off"
                .value=${f[name]}
                aria-invalid=${this.amountErrors[name] ? 'true' : 'false'}
                aria-describedby="amount-hint ${this.amountErrors[name] ? `${name}-error` : ''}"
              />
              ${this.amountErrors[name] ? html`<p class="field-error" id="${name}-error" role="alert">${this.t('payments.amountInvalid')}</p>` : nothing}
            </div>`,
          )}
          <p class="hint" id="amount-hint">${this.t('payments.amountHint')}</p>
        </fieldset>
        <button type="button" class="link" @click=${this.#clear}>${this.t('payments.clear')}</button>
      </form>
    </details>`;
  }

  #savedViews(): TemplateResult {
    return html`<section class="views" aria-labelledby="views-title">
      <h2 id="views-title">${this.t('views.title')}</h2>
      ${this.views.length === 0
        ? html`<p class="muted">${this.t('views.none')}</p>`
        : html`<ul>
            ${this.views.map(
              (view) => html`<li>
                <button class="view" aria-label=${this.t('views.apply', { name: view.name })} @click=${() => this.#setFilters({ ...view.filters })}>${view.name}</button>
                <button class="delete" aria-label=${this.t('views.delete', { name: view.name })} @click=${() => this.#deleteView(view.name)}>✕</button>
              </li>`,
            )}
          </ul>`}
      <form class="save-view" @submit=${this.#saveView}>
        <label for="view-name" class="visually-hidden">${this.t('views.name')}</label>
        <input id="view-name" maxlength="40" placeholder=${this.t('views.name')} .value=${this.viewName} @input=${(event: Event) => (this.viewName = (event.target as HTMLInputElement).value)} />
        <button type="submit">${this.t('views.save')}</button>
      </form>
    </section>`;
  }

  #method(order: OrderSummary): string {
    const payment = order.payment;
    if (!payment) return this.t('method.none');
    if (payment.method === 'card' && payment.cardLast4) return this.t('payments.cardEnding', { brand: payment.cardBrand ?? this.t('method.card'), last4: payment.cardLast4 });
    return this.t(`method.${payment.method}`);
  }

  #customer(order: OrderSummary): string {
    return order.customer.email ?? order.customer.mobile ?? order.customer.name;
  }

  #table(items: OrderSummary[]): TemplateResult {
    return html`<div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">${this.t('payments.reference')}</th>
            <th scope="col">${this.t('payments.customer')}</th>
            <th scope="col" class="amount">${this.t('payments.amount')}</th>
            <th scope="col">${this.t('payments.state')}</th>
            <th scope="col">${this.t('payments.method')}</th>
            <th scope="col">${this.t('payments.date')}</th>
          </tr>
        </thead>
        <tbody>
          ${items.map(
            (order) => html`<tr data-reference=${order.reference}>
              <th scope="row"><a href=${hrefOf.payment(order.reference)}>${order.reference}</a></th>
              <td>${this.#customer(order)}</td>
              <td class="amount">${this.localizer.money(order.amount, order.currency)}</td>
              <td><dash-state-badge .state=${order.state}></dash-state-badge></td>
              <td>${this.#method(order)}</td>
              <td><time datetime=${order.createdAt}>${this.localizer.dateTime(order.createdAt)}</time></td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  #cards(items: OrderSummary[]): TemplateResult {
    return html`<ul class="cards">
      ${items.map(
        (order) => html`<li class="card panel" data-reference=${order.reference}>
          <div class="card-top">
            <span class="card-amount">${this.localizer.money(order.amount, order.currency)}</span>
            <dash-state-badge .state=${order.state}></dash-state-badge>
          </div>
          <a href=${hrefOf.payment(order.reference)}>${order.reference}</a>
          <span>${this.#customer(order)}</span>
          <span class="muted">${this.#method(order)} · <time datetime=${order.createdAt}>${this.localizer.dateTime(order.createdAt)}</time></span>
        </li>`,
      )}
    </ul>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-payments': DashPayments;
  }
}
