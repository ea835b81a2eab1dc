import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { activatePaymentLink, disablePaymentLink, editPaymentLink, getPaymentLink, listPaymentLinkOrders, type LinkSummary } from '../../shared/contract/links.ts';
import { listSubscriptions } from '../../shared/contract/subscriptions.ts';
import '../components/link-builder.ts';
import type { LinkDraftEvent } from '../components/link-builder.ts';
import '../components/qr-code.ts';
import '../components/state-badge.ts';
import { hrefOf } from '../router.ts';
import { OperationsScreen } from './operations-base.ts';
import { linkStyles } from './link.styles.ts';

/**
 * One payment link: its address with a QR code and sharing (WhatsApp, e-mail, copy), its real hosted page in a
 * sandboxed frame (no scripts, no forms: a preview, never a payment), editing, activating and disabling it, and its
 * payments (or, for a subscription link, its subscribers).
 */
@customElement('dash-link')
export class DashLink extends OperationsScreen {
  static override styles = linkStyles;

  @property() reference = '';
  @state() private link: LinkSummary | undefined;
  @state() private editing = false;
  @state() private busy = false;
  @state() private copied = false;

  readonly #load = new Task(this, {
    task: async ([reference], { signal }) => (this.link = await this.api.call(getPaymentLink, { params: { idOrReference: reference }, signal })),
    args: () => [this.reference, this.me?.mode] as const,
  });

  readonly #payments = new Task(this, {
    task: async ([link], { signal }) => {
      if (!link) return undefined;
      if (link.type === 'SUB') return { kind: 'subscribers' as const, page: await this.api.call(listSubscriptions, { query: { link: link.reference, limit: 25 }, signal }) };
      return { kind: 'orders' as const, page: await this.api.call(listPaymentLinkOrders, { params: { idOrReference: link.reference }, query: { limit: 25 }, signal }) };
    },
    args: () => [this.link] as const,
  });

  async #save(event: LinkDraftEvent): Promise<void> {
    const { Currency: _currency, ...edit } = event.draft;
    this.busy = true;
    const saved = await this.act(() => this.api.call(editPaymentLink, { params: { idOrReference: this.reference }, body: edit }));
    this.busy = false;
    if (!saved) return;
    this.link = saved;
    this.editing = false;
    this.announce(this.t('links.saved'));
  }

  async #setActive(active: boolean): Promise<void> {
    this.busy = true;
    const endpoint = active ? activatePaymentLink : disablePaymentLink;
    const saved = await this.act(() => this.api.call(endpoint, { params: { idOrReference: this.reference } }));
    this.busy = false;
    if (!saved) return;
    this.link = saved;
    this.announce(this.t(active ? 'links.activated' : 'links.disabled'));
  }

  async #copy(url: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(url);
      this.copied = true;
      this.announce(this.t('links.copied'));
    } catch {
      this.failure = this.t('links.copyFailed');
    }
  }

  protected override render(): TemplateResult {
    const link = this.link;
    if (!link) {
      return html`<p><a href=${hrefOf.links}>${this.t('links.back')}</a></p>
        ${this.#load.render({ initial: () => this.loading(), pending: () => this.loading(), error: (error) => this.loadError(error) })}`;
    }
    const message = this.t('links.shareText', { name: link.name, url: link.url });
    return html`<p><a href=${hrefOf.links}>${this.t('links.back')}</a></p>
      <h1>${link.name} <span class="badge ${link.active ? 'on' : 'off'}">${this.t(link.active ? 'links.active' : 'links.inactive')}</span></h1>
      ${this.chrome()}
      <div class="top">
        <section aria-labelledby="share-title" class="panel">
          <h2 id="share-title">${this.t('links.share')}</h2>
          <p class="mono" id="link-url">${link.url}</p>
          <div class="buttons">
            <button class="primary" @click=${() => this.#copy(link.url)}>${this.t(this.copied ? 'links.copiedButton' : 'links.copy')}</button>
            <a class="button" href="https://wa.me/?text=${encodeURIComponent(message)}" target="_blank" rel="noopener noreferrer">${this.t('links.whatsapp')}</a>
            <a class="button" href="mailto:?subject=${encodeURIComponent(link.name)}&body=${encodeURIComponent(message)}">${this.t('links.email')}</a>
          </div>
          <dash-qr-code .value=${link.url} .label=${this.t('links.qrLabel', { url: link.url })}></dash-qr-code>
          <dl>
            <dt>${this.t('links.type')}</dt><dd>${this.t(`links.type.${link.type}`)}</dd>
            <dt>${this.t('links.amount')}</dt><dd>${link.amount === null ? this.t('links.customerChooses') : this.localizer.money(link.amount, link.currency)}</dd>
            <dt>${this.t('links.paymentsMade')}</dt><dd>${this.localizer.number(link.payments)}${link.payerLimit > 0 ? ` / ${this.localizer.number(link.payerLimit)}` : ''}</dd>
            ${link.plan ? html`<dt>${this.t('links.frequency')}</dt><dd>${this.t(`freq.${(link.plan.frequencyId ?? 6) as 6}`)}${link.plan.numberOfPayments ? ` × ${link.plan.numberOfPayments}` : ''}</dd>` : nothing}
            <dt>${this.t('links.createdAt')}</dt><dd>${this.localizer.dateTime(link.createdAt)}</dd>
          </dl>
          ${this.can('links.write')
            ? html`<div class="buttons">
                <button aria-expanded=${this.editing ? 'true' : 'false'} @click=${() => (this.editing = !this.editing)}>${this.t(this.editing ? 'common.close' : 'links.edit')}</button>
                <button class=${link.active ? 'danger' : ''} ?disabled=${this.busy} @click=${() => this.#setActive(!link.active)}>${this.t(link.active ? 'links.disable' : 'links.activate')}</button>
              </div>`
            : nothing}
        </section>
        <section aria-labelledby="page-title" class="panel">
          <h2 id="page-title">${this.t('links.hostedPage')}</h2>
          <p class="hint">${this.t('links.hostedPageHint')}</p>
          <iframe src="/l/${encodeURIComponent(link.reference)}" sandbox="allow-same-origin" title=${this.t('links.hostedPageFrame', { name: link.name })} loading="lazy"></iframe>
        </section>
      </div>
      ${this.editing
        ? html`<section aria-labelledby="edit-title" class="panel"><h2 id="edit-title">${this.t('links.edit')}</h2>
            <dash-link-builder .link=${link} .busy=${this.busy} .merchantName=${this.me?.merchant.name ?? ''} @dash-link-draft=${this.#save}></dash-link-builder></section>`
        : nothing}
      ${this.#paymentsSection()}`;
  }

  #paymentsSection(): TemplateResult {
    return html`<section aria-labelledby="payments-title">
      ${this.#payments.render({
        initial: () => this.loading(),
        pending: () => this.loading(),
        error: (error) => this.loadError(error),
        complete: (found) => {
          if (!found) return nothing;
          if (found.kind === 'subscribers') {
            return html`<h2 id="payments-title">${this.t('links.subscribers')}</h2>
              ${found.page.items.length === 0 ? html`<p>${this.t('subs.empty')}</p>` : html`<ul class="cards">${found.page.items.map(
                (sub) => html`<li class="panel">${sub.customer.name} · ${this.t(`subs.state.${sub.state}`)} · ${this.localizer.money(sub.amount, sub.currency)}</li>`,
              )}</ul>`}`;
          }
          return html`<h2 id="payments-title">${this.t('links.linkPayments')}</h2>
            ${found.page.items.length === 0 ? html`<p>${this.t('payments.empty')}</p>` : html`<ul class="cards">${found.page.items.map(
              (order) => html`<li class="panel"><a href=${hrefOf.payment(order.reference)}>${order.reference}</a> · ${order.customer.name} · ${this.localizer.money(order.amount, order.currency)}
                <dash-state-badge .state=${order.state}></dash-state-badge></li>`,
            )}</ul>`}`;
        },
      })}
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-link': DashLink;
  }
}
