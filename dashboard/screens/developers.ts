import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { listOrders } from '../../shared/contract/orders.ts';
import { simulateTransfer } from '../../shared/contract/sandbox.ts';
import { getSettings, setAllowedOrigins, type MerchantSettings } from '../../shared/contract/settings.ts';
import { rotateKeys } from '../../shared/contract/team.ts';
import '../components/webhook-endpoints.ts';
import { OperationsScreen } from './operations-base.ts';
import { operationsStyles } from './operations.styles.ts';

type Rotated = { publishableKey: string; secretKey: string };
type Due = { reference: string; accountNumber: string; due: number; currency: string };

/**
 * Developers: the mode's keys (the publishable one shown; the secret one shown once, when rotated with a fresh second
 * factor), the origins allowed to embed the checkout, webhook endpoints and their deliveries, and in test mode the
 * sandbox's transfer buttons (exact, short, over) for a transfer account awaiting money.
 */
@customElement('dash-developers')
export class DashDevelopers extends OperationsScreen {
  static override styles = operationsStyles;

  @state() private settings: MerchantSettings | undefined;
  @state() private rotated: Rotated | undefined;
  @state() private confirmRotate = false;
  @state() private originError = '';
  @state() private due: Due | undefined;
  @state() private transferResult = '';
  @query('#origin') private originInput!: HTMLInputElement;
  @query('#account') private accountInput!: HTMLInputElement;

  readonly #settings = new Task(this, {
    task: async ([], { signal }) => (this.settings = await this.api.call(getSettings, { signal })),
    args: () => [this.me?.mode] as const,
  });

  async #rotate(): Promise<void> {
    this.confirmRotate = false;
    const keys = await this.act(() => this.api.call(rotateKeys));
    if (!keys) return;
    this.rotated = keys;
    if (this.settings) this.settings = { ...this.settings, publishableKey: keys.publishableKey };
    this.announce(this.t('dev.rotated'));
  }

  async #saveOrigins(origins: string[]): Promise<boolean> {
    const saved = await this.act(() => this.api.call(setAllowedOrigins, { body: { origins } }));
    if (!saved) return false;
    this.settings = saved;
    this.announce(this.t('dev.originsSaved'));
    return true;
  }

  async #addOrigin(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const value = this.originInput.value.trim();
    let origin: string | undefined;
    try {
      const url = new URL(value);
      if (url.protocol === 'https:' || url.protocol === 'http:') origin = url.origin;
    } catch {
      origin = undefined;
    }
    if (!origin) {
      this.originError = this.t('dev.originInvalid');
      this.originInput.focus();
      return;
    }
    this.originError = '';
    if (await this.#saveOrigins([...(this.settings?.allowedOrigins ?? []), origin])) this.originInput.value = '';
  }

  async #findTransfer(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const account = this.accountInput.value.trim();
    this.transferResult = '';
    const page = await this.act(() => this.api.call(listOrders, { query: { q: account, limit: 1 } }));
    const order = page?.items.find((item) => item.payment?.transferAccount === account);
    if (!order?.payment) {
      this.due = undefined;
      this.transferResult = this.t('dev.noTransfer');
      return;
    }
    // Bank transfer is for NGN orders only: kobo to naira.
    this.due = { reference: order.reference, accountNumber: account, due: Math.max(0, order.amountMinor - order.payment.receivedMinor) / 100, currency: order.currency };
  }

  async #simulate(kind: 'exact' | 'short' | 'over'): Promise<void> {
    const due = this.due;
    if (!due) return;
    const amount = kind === 'exact' ? due.due : kind === 'short' ? Math.max(1, Math.floor(due.due / 2)) : due.due + 1000;
    const result = await this.act(() => this.api.call(simulateTransfer, { body: { accountNumber: due.accountNumber, amount } }));
    if (!result) return;
    this.transferResult = this.t('dev.transferDone', { amount: this.localizer.money(amount, due.currency), due: this.localizer.money(result.amountDue, due.currency), message: result.message });
    this.announce(this.transferResult);
    this.due = { ...due, due: result.amountDue };
  }

  protected override render(): TemplateResult {
    return html`<h1>${this.t('dev.title')}</h1>
      ${this.chrome()}
      ${this.#settings.render({ initial: () => this.loading(), pending: () => (this.settings ? nothing : this.loading()), error: (error) => this.loadError(error) })}
      ${this.settings ? html`${this.#keys(this.settings)} ${this.#origins(this.settings)}` : nothing}
      ${this.can('webhooks.write') ? html`<dash-webhook-endpoints></dash-webhook-endpoints>` : nothing}
      ${this.me?.mode === 'test' && this.can('webhooks.write') ? this.#sandbox() : nothing}`;
  }

  #keys(settings: MerchantSettings): TemplateResult {
    return html`<section aria-labelledby="keys-title" class="panel">
      <h2 id="keys-title">${this.t('dev.keys')}</h2>
      <dl>
        <dt>${this.t('dev.publishable')}</dt><dd class="mono">${settings.publishableKey ?? '—'}</dd>
        <dt>${this.t('dev.secret')}</dt><dd>${this.t('dev.secretHidden')}</dd>
      </dl>
      ${this.rotated
        ? html`<div class="secret" role="alert"><p><strong>${this.t('dev.secretOnce')}</strong></p><p class="mono">${this.rotated.secretKey}</p></div>`
        : nothing}
      ${this.can('keys.rotate')
        ? this.confirmRotate
          ? html`<div class="row-actions" role="group" aria-labelledby="rotate-warning"><p id="rotate-warning">${this.t('dev.rotateWarning')}</p>
              <button class="danger" @click=${this.#rotate}>${this.t('dev.rotateConfirm')}</button><button @click=${() => (this.confirmRotate = false)}>${this.t('common.cancel')}</button></div>`
          : html`<button @click=${() => (this.confirmRotate = true)}>${this.t('dev.rotate')}</button>`
        : nothing}
    </section>`;
  }

  #origins(settings: MerchantSettings): TemplateResult {
    const write = this.can('settings.write');
    return html`<section aria-labelledby="origins-title" class="panel">
      <h2 id="origins-title">${this.t('dev.origins')}</h2>
      <p class="hint">${this.t('dev.originsHint')}</p>
      ${settings.allowedOrigins.length === 0 ? html`<p>${this.t('dev.noOrigins')}</p>` : html`<ul class="cards">${settings.allowedOrigins.map(
        (origin) => html`<li class="row-actions"><span class="mono">${origin}</span>${write
          ? html`<button @click=${() => this.#saveOrigins(settings.allowedOrigins.filter((each) => each !== origin))} aria-label=${this.t('dev.removeOrigin', { origin })}>${this.t('common.remove')}</button>`
          : nothing}</li>`,
      )}</ul>`}
      ${write
        ? html`<form class="toolbar" @submit=${this.#addOrigin} novalidate>
            <div class="field">
              <label for="origin">${this.t('dev.addOrigin')}</label>
              <input id="origin" type="url" placeholder="https://shop.example" aria-invalid=${this.originError ? 'true' : 'false'} aria-describedby=${this.originError ? 'origin-error' : nothing} />
              ${this.originError ? html`<p class="field-error" id="origin-error">${this.originError}</p>` : nothing}
            </div>
            <button type="submit">${this.t('common.add')}</button>
          </form>`
        : nothing}
    </section>`;
  }

  #sandbox(): TemplateResult {
    return html`<section aria-labelledby="sandbox-title" class="panel">
      <h2 id="sandbox-title">${this.t('dev.sandbox')}</h2>
      <p class="hint">${this.t('dev.sandboxHint')}</p>
      <form class="toolbar" @submit=${this.#findTransfer}>
        <div class="field"><label for="account">${this.t('dev.account')}</label><input id="account" inputmode="numeric" maxlength="10" autocomplete="off" /></div>
        <button type="submit">${this.t('dev.findTransfer')}</button>
      </form>
      ${this.due
        ? html`<p>${this.t('dev.due', { reference: this.due.reference, due: this.localizer.money(this.due.due, this.due.currency) })}</p>
            <div class="buttons">
              <button @click=${() => this.#simulate('exact')}>${this.t('dev.exact')}</button>
              <button @click=${() => this.#simulate('short')}>${this.t('dev.short')}</button>
              <button @click=${() => this.#simulate('over')}>${this.t('dev.over')}</button>
            </div>`
        : nothing}
      ${this.transferResult ? html`<p role="status">${this.transferResult}</p>` : nothing}
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-developers': DashDevelopers;
  }
}
