import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { homeFigures, PERIODS, rangeOf, ReportsUnavailable, type HomeFigures, type Interval, type Period, type ReportsSource } from '../api/reports.ts';
import type { Me } from '../api/session.ts';
import { DashElement } from '../base.ts';
import '../components/setup-checklist.ts';
import '../components/volume-chart.ts';
import { meContext, reportsContext } from '../context.ts';
import { styles } from './home.styles.ts';

/**
 * Home: what came in today, over 7 or 30 days (collected, fees, refunds, net, success by method, volume, pending
 * transfers, failed and abandoned orders), one currency at a time, and the setup checklist.
 */
@customElement('dash-home')
export class DashHome extends DashElement {
  static override styles = styles;

  @consume({ context: reportsContext }) reports!: ReportsSource;
  @consume({ context: meContext, subscribe: true }) me: Me | undefined;

  @state() private period: Period = 'today';
  @state() private currency: string | undefined;

  readonly #figures = new Task(this, {
    task: async ([period], { signal }) => {
      const range = rangeOf(period);
      const figures = homeFigures(await this.reports.summary(range, signal));
      this.announce(this.t('home.loaded', { period: this.t(`period.${period}`) }));
      return { figures, interval: range.interval };
    },
    args: () => [this.period, this.me?.mode] as const,
  });

  protected override render(): TemplateResult {
    return html`<h1>${this.t('home.title')}</h1>
      <div class="periods" role="group" aria-label=${this.t('home.period')}>
        ${PERIODS.map((period) => html`<button aria-pressed=${this.period === period ? 'true' : 'false'} @click=${() => (this.period = period)}>${this.t(`period.${period}`)}</button>`)}
      </div>
      ${this.#figures.render({
        initial: () => html`<p class="muted">${this.t('home.loading')}</p>`,
        pending: () => html`<p class="muted">${this.t('home.loading')}</p>`,
        error: (error) => html`<p class=${error instanceof ReportsUnavailable ? 'muted' : 'error-message'} role="status">${error instanceof ReportsUnavailable ? this.t('home.unavailable') : this.t('error.generic')}</p>`,
        complete: ({ figures, interval }) => this.#dashboard(figures, interval),
      })}
      <section class="panel setup" aria-labelledby="setup-title">
        <dash-setup-checklist .setup=${this.me?.setup}></dash-setup-checklist>
      </section>`;
  }

  #dashboard(all: HomeFigures[], interval: Interval): TemplateResult {
    if (all.length === 0) return html`<p>${this.t('home.noPayments')}</p>`;
    const figures = all.find((each) => each.currency === this.currency) ?? all[0]!;
    const money = (minor: number) => this.localizer.moneyMinor(minor, figures.currency);
    const stat = (label: string, value: string, extra?: string) =>
      html`<div class="stat panel"><dt>${label}</dt><dd><span class="value">${value}</span>${extra ? html`<span class="extra muted">${extra}</span>` : nothing}</dd></div>`;
    return html`
      ${all.length > 1
        ? html`<label class="currency">${this.t('home.currency')}
            <select @change=${(event: Event) => (this.currency = (event.target as HTMLSelectElement).value)}>
              ${all.map((each) => html`<option ?selected=${each.currency === figures.currency}>${each.currency}</option>`)}
            </select></label
          >`
        : nothing}
      <dl class="stats">
        ${stat(this.t('home.collected'), money(figures.collected))} ${stat(this.t('home.fees'), money(figures.fees))}
        ${stat(this.t('home.refunds'), money(figures.refunds))} ${stat(this.t('home.net'), money(figures.net))}
        ${stat(
          this.t('home.paidOrders'),
          figures.successRate === null ? this.t('home.noOrders') : this.localizer.percent(figures.successRate),
          this.t('home.paidOfOrders', { paid: figures.paidOrders, orders: figures.orders }),
        )}
        ${stat(this.t('home.abandoned'), this.localizer.number(figures.abandoned))}
      </dl>
      <div class="columns">
        <section class="panel" aria-labelledby="volume-title">
          <h2 id="volume-title">${this.t('home.volume')}</h2>
          <dash-volume-chart .volume=${figures.volume} .currency=${figures.currency} .interval=${interval}></dash-volume-chart>
        </section>
        <section class="panel" aria-labelledby="success-title">
          <h2 id="success-title">${this.t('home.success')}</h2>
          <ul class="rates">
            ${figures.successByMethod.map(
              (method) => html`<li>
                <span class="method">${this.t(method.method === 'card' || method.method === 'bank_transfer' ? `method.${method.method}` : 'method.none')}</span>
                <span class="rate">${method.rate === null ? this.t('home.noAttempts') : this.localizer.percent(method.rate)}</span>
                <span class="muted attempts">${this.localizer.plural(method.attempts, 'home.attempts.one', 'home.attempts.other')}</span>
                ${method.rate === null ? nothing : html`<meter min="0" max="1" .value=${method.rate} aria-hidden="true"></meter>`}
              </li>`,
            )}
          </ul>
        </section>
      </div>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-home': DashHome;
  }
}
