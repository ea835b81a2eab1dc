import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { AUDIT_ACTIONS } from '../../shared/contract/audit-actions.ts';
import { listAudit, type auditEntrySchema } from '../../shared/contract/team.ts';
import type { z } from 'zod';
import { OperationsScreen } from './operations-base.ts';
import { operationsStyles } from './operations.styles.ts';

type Entry = z.infer<typeof auditEntrySchema>;

/**
 * The audit log: who (e-mail and role), from where (IP), did what to what, when; newest first, by date range, and on
 * the page shown by action and actor.
 */
@customElement('dash-audit')
export class DashAudit extends OperationsScreen {
  static override styles = operationsStyles;

  @state() private from = '';
  @state() private to = '';
  @state() private action = '';
  @state() private actor = '';
  @state() private cursor: string | undefined;

  readonly #entries = new Task(this, {
    task: ([from, to, cursor], { signal }) =>
      this.api.call(listAudit, { query: { limit: 50, ...(from ? { from } : {}), ...(to ? { to } : {}), ...(cursor ? { cursor } : {}) } as never, signal }),
    args: () => [this.from, this.to, this.cursor] as const,
  });

  #filter(event: Event): void {
    const target = event.target as HTMLInputElement | HTMLSelectElement;
    if (target.name === 'from' || target.name === 'to') this.cursor = undefined;
    if (target.name === 'from' || target.name === 'to' || target.name === 'action' || target.name === 'actor') this[target.name] = target.value;
  }

  protected override render(): TemplateResult {
    return html`<h1>${this.t('audit.title')}</h1>
      <form class="grid" @change=${this.#filter} @input=${this.#filter} @submit=${(event: Event) => event.preventDefault()}>
        <div class="field"><label for="from">${this.t('payments.from')}</label><input id="from" name="from" type="date" .value=${this.from} /></div>
        <div class="field"><label for="to">${this.t('audit.to')}</label><input id="to" name="to" type="date" .value=${this.to} /></div>
        <div class="field"><label for="action">${this.t('audit.action')}</label>
          <select id="action" name="action"><option value="">${this.t('payments.any')}</option>${AUDIT_ACTIONS.map((action) => html`<option value=${action} ?selected=${this.action === action}>${this.t(`audit.${action}`)}</option>`)}</select></div>
        <div class="field"><label for="actor">${this.t('audit.actor')}</label><input id="actor" name="actor" type="search" .value=${this.actor} /></div>
      </form>
      ${this.#entries.render({
        initial: () => this.loading(),
        pending: () => this.loading(),
        error: (error) => this.loadError(error),
        complete: (page) => {
          const shown = page.items.filter((entry) => (!this.action || entry.action === this.action) && (!this.actor || (entry.actor.email ?? '').toLowerCase().includes(this.actor.toLowerCase())));
          return html`${shown.length === 0 ? html`<p>${this.t('audit.empty')}</p>` : this.#table(shown)}
            <div class="toolbar">
              ${this.cursor ? html`<button @click=${() => (this.cursor = undefined)}>${this.t('payments.first')}</button>` : nothing}
              ${page.nextCursor ? html`<button @click=${() => (this.cursor = page.nextCursor!)}>${this.t('payments.next')}</button>` : nothing}
            </div>`;
        },
      })}`;
  }

  #table(entries: Entry[]): TemplateResult {
    const l = (key: Parameters<typeof this.t>[0]) => this.t(key);
    return html`<table class="responsive">
      <thead><tr><th scope="col">${l('audit.when')}</th><th scope="col">${l('audit.actor')}</th><th scope="col">${l('team.role')}</th><th scope="col">${l('audit.ip')}</th><th scope="col">${l('audit.action')}</th><th scope="col">${l('audit.target')}</th></tr></thead>
      <tbody>${entries.map(
        (entry) => html`<tr>
          <td data-label=${l('audit.when')}>${this.localizer.dateTime(entry.at)}</td>
          <td data-label=${l('audit.actor')}>${entry.actor.email ?? '—'}</td>
          <td data-label=${l('team.role')}>${entry.actor.role ? this.t(`role.${entry.actor.role}`) : '—'}</td>
          <td data-label=${l('audit.ip')} class="mono">${entry.ip ?? '—'}</td>
          <td data-label=${l('audit.action')}>${this.t(`audit.${entry.action}`)}</td>
          <td data-label=${l('audit.target')} class="mono">${entry.target ?? '—'}</td>
        </tr>`,
      )}</tbody>
    </table>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-audit': DashAudit;
  }
}
