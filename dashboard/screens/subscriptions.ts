import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { cancelSubscription, listSubscriptions, type SubscriptionSummary } from '../../shared/contract/subscriptions.ts';
import { SUBSCRIPTION_STATES } from '../../shared/subscriptions.ts';
import { hrefOf } from '../router.ts';
import { OperationsScreen } from './operations-base.ts';
import { operationsStyles } from './operations.styles.ts';

/**
 * Subscriptions across the merchant's links: state, plan, next charge, payments made, filtered by state; members who
 * manage customers cancel one (with a fresh second factor), after confirming.
 */
@customElement('dash-subscriptions')
export class DashSubscriptions extends OperationsScreen {
  static override styles = operationsStyles;

  @state() private stateFilter = '';
  @state() private cursor: string | undefined;
  @state() private confirming: number | undefined;

  readonly #subscriptions = new Task(this, {
    task: ([filter, cursor], { signal }) =>
      this.api.call(listSubscriptions, { query: { limit: 25, ...(filter ? { state: filter } : {}), ...(cursor ? { cursor } : {}) } as never, signal }),
    args: () => [this.stateFilter, this.cursor, this.me?.mode] as const,
  });

  async #cancel(subscription: SubscriptionSummary): Promise<void> {
    const done = await this.act(() => this.api.call(cancelSubscription, { params: { subscriptionId: subscription.id } }));
    this.confirming = undefined;
    if (!done) return;
    this.announce(this.t(done.chargeInFlight ? 'subs.cancelledInFlight' : 'subs.cancelled', { reference: subscription.reference }));
    void this.#subscriptions.run();
  }

  protected override render(): TemplateResult {
    return html`<h1>${this.t('subs.title')}</h1>
      ${this.chrome()}
      <div class="toolbar">
        <div class="field">
          <label for="state">${this.t('payments.state')}</label>
          <select id="state" @change=${(event: Event) => ((this.stateFilter = (event.target as HTMLSelectElement).value), (this.cursor = undefined))}>
            <option value="">${this.t('payments.any')}</option>
            ${SUBSCRIPTION_STATES.map((name) => html`<option value=${name} ?selected=${this.stateFilter === name}>${this.t(`subs.state.${name}`)}</option>`)}
          </select>
        </div>
      </div>
      ${this.#subscriptions.render({
        initial: () => this.loading(),
        pending: () => this.loading(),
        error: (error) => this.loadError(error),
        complete: (page) => html`${page.items.length === 0 ? html`<p>${this.t('subs.empty')}</p>` : this.#table(page.items)}
          <div class="toolbar">
            ${this.cursor ? html`<button @click=${() => (this.cursor = undefined)}>${this.t('payments.first')}</button>` : nothing}
            ${page.nextCursor ? html`<button @click=${() => (this.cursor = page.nextCursor!)}>${this.t('payments.next')}</button>` : nothing}
          </div>`,
      })}`;
  }

  #table(items: SubscriptionSummary[]): TemplateResult {
    const l = (key: Parameters<typeof this.t>[0]) => this.t(key);
    const manage = this.can('customers.manage');
    return html`<table class="responsive">
      <thead><tr>
        <th scope="col">${l('subs.customer')}</th><th scope="col">${l('links.status')}</th><th scope="col" class="num">${l('links.amount')}</th>
        <th scope="col">${l('subs.plan')}</th><th scope="col">${l('subs.nextCharge')}</th><th scope="col" class="num">${l('links.paymentsMade')}</th>
        ${manage ? html`<th scope="col">${l('common.actions')}</th>` : nothing}
      </tr></thead>
      <tbody>${items.map((sub) => {
        const running = sub.state === 'active' || sub.state === 'past_due';
        return html`<tr data-subscription=${sub.id}>
          <td data-label=${l('subs.customer')}><a href=${hrefOf.customer(sub.customer.id)}>${sub.customer.name}</a><br /><span class="muted">${sub.customer.email ?? sub.customer.mobile ?? ''}</span></td>
          <td data-label=${l('links.status')}>${this.t(`subs.state.${sub.state}`)}</td>
          <td data-label=${l('links.amount')} class="num">${this.localizer.money(sub.amount, sub.currency)}</td>
          <td data-label=${l('subs.plan')}>${this.t(`freq.${sub.plan.frequencyId as 6}`)}${sub.plan.numberOfPayments ? ` × ${sub.plan.numberOfPayments}` : ''}</td>
          <td data-label=${l('subs.nextCharge')}>${sub.nextChargeAt ? this.localizer.dateTime(sub.nextChargeAt) : '—'}</td>
          <td data-label=${l('links.paymentsMade')} class="num">${this.localizer.number(sub.paymentsMade)}</td>
          ${manage
            ? html`<td data-label=${l('common.actions')}>${running
                ? this.confirming === sub.id
                  ? html`<div class="row-actions" role="group" aria-label=${this.t('subs.confirmCancel', { reference: sub.reference })}>
                      <button class="danger" @click=${() => this.#cancel(sub)}>${this.t('subs.confirmYes')}</button>
                      <button @click=${() => (this.confirming = undefined)}>${this.t('subs.keep')}</button></div>`
                  : html`<button @click=${() => (this.confirming = sub.id)} aria-label=${this.t('subs.cancelOf', { name: sub.customer.name, reference: sub.reference })}>${this.t('subs.cancel')}</button>`
                : '—'}</td>`
            : nothing}
        </tr>`;
      })}</tbody>
    </table>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-subscriptions': DashSubscriptions;
  }
}
