import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { createPaymentLink, listPaymentLinks, type LinkSummary } from '../../shared/contract/links.ts';
import '../components/link-builder.ts';
import type { LinkDraftEvent } from '../components/link-builder.ts';
import { hrefOf } from '../router.ts';
import { OperationsScreen } from './operations-base.ts';
import { operationsStyles } from './operations.styles.ts';

/**
 * Payment links: the list (name, type, amount, payments, active or not) with keyset pages, and the builder of a new
 * link for members whose role may write links. A saved link opens its own page (address, QR code, sharing, preview).
 */
@customElement('dash-links')
export class DashLinks extends OperationsScreen {
  static override styles = operationsStyles;

  @state() private cursor: string | undefined;
  @state() private building = false;
  @state() private saving = false;

  readonly #links = new Task(this, {
    task: ([cursor], { signal }) => this.api.call(listPaymentLinks, { query: { limit: 25, ...(cursor ? { cursor } : {}) }, signal }),
    args: () => [this.cursor, this.me?.mode] as const,
  });

  async #create(event: LinkDraftEvent): Promise<void> {
    this.saving = true;
    const link = await this.act(() => this.api.call(createPaymentLink, { body: event.draft }));
    this.saving = false;
    if (!link) return;
    this.announce(this.t('links.created', { name: link.name }));
    location.hash = hrefOf.link(link.reference);
  }

  protected override render(): TemplateResult {
    return html`<h1>${this.t('links.title')}</h1>
      ${this.chrome()}
      ${this.can('links.write')
        ? html`<div class="toolbar">
            <button class=${this.building ? '' : 'primary'} aria-expanded=${this.building ? 'true' : 'false'} aria-controls="builder" @click=${() => (this.building = !this.building)}>
              ${this.t(this.building ? 'common.close' : 'links.new')}
            </button>
          </div>`
        : nothing}
      ${this.building
        ? html`<section id="builder" aria-labelledby="builder-title" class="panel">
            <h2 id="builder-title">${this.t('links.new')}</h2>
            <dash-link-builder .busy=${this.saving} .merchantName=${this.me?.merchant.name ?? ''} @dash-link-draft=${this.#create}></dash-link-builder>
          </section>`
        : nothing}
      <section aria-labelledby="list-title">
        <h2 id="list-title">${this.t('links.list')}</h2>
        ${this.#links.render({
          initial: () => this.loading(),
          pending: () => this.loading(),
          error: (error) => this.loadError(error),
          complete: (page) => html`${page.items.length === 0 ? html`<p>${this.t('links.empty')}</p>` : this.#table(page.items)}
            <div class="toolbar">
              ${this.cursor ? html`<button @click=${() => (this.cursor = undefined)}>${this.t('payments.first')}</button>` : nothing}
              ${page.nextCursor ? html`<button @click=${() => (this.cursor = page.nextCursor!)}>${this.t('payments.next')}</button>` : nothing}
            </div>`,
        })}
      </section>`;
  }

  #table(links: LinkSummary[]): TemplateResult {
    const label = (key: Parameters<typeof this.t>[0]) => this.t(key);
    return html`<table class="responsive">
      <thead><tr><th scope="col">${label('links.name')}</th><th scope="col">${label('links.type')}</th><th scope="col" class="num">${label('links.amount')}</th><th scope="col" class="num">${label('links.paymentsMade')}</th><th scope="col">${label('links.status')}</th></tr></thead>
      <tbody>
        ${links.map(
          (link) => html`<tr data-reference=${link.reference}>
            <td data-label=${label('links.name')}><a href=${hrefOf.link(link.reference)}>${link.name}</a></td>
            <td data-label=${label('links.type')}>${this.t(`links.type.${link.type}`)}</td>
            <td data-label=${label('links.amount')} class="num">${link.amount === null ? this.t('links.customerChooses') : this.localizer.money(link.amount, link.currency)}</td>
            <td data-label=${label('links.paymentsMade')} class="num">${link.payerLimit > 0 ? `${this.localizer.number(link.payments)} / ${this.localizer.number(link.payerLimit)}` : this.localizer.number(link.payments)}</td>
            <td data-label=${label('links.status')}><span class="badge ${link.active ? 'on' : 'off'}">${this.t(link.active ? 'links.active' : 'links.inactive')}</span></td>
          </tr>`,
        )}
      </tbody>
    </table>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-links': DashLinks;
  }
}
