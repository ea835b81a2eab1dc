import { html, nothing, type TemplateResult } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { TimelineEntry } from '../../shared/contract/order-detail.ts';
import { DashElement } from '../base.ts';
import type { MessageKey } from '../i18n/localizer.ts';
import { styles } from './order-timeline.styles.ts';

/**
 * An order's timeline, oldest first: who did what and when, each step with the facts a merchant investigates by
 * (codes, fees and who bears them, money expected, received and accepted, each webhook delivery and its attempts,
 * refunds, notes).
 */
@customElement('dash-order-timeline')
export class DashOrderTimeline extends DashElement {
  static override styles = styles;

  @property({ attribute: false }) entries: readonly TimelineEntry[] = [];
  @property() currency = 'NGN';

  protected override render(): TemplateResult {
    return html`<ol class="timeline">
      ${this.entries.map(
        (entry) => html`<li class=${`entry ${entry.type}`}>
          <div class="when">
            <time datetime=${entry.at}>${this.localizer.dateTime(entry.at)}</time>
            <span class="actor muted">${this.t(`actor.${entry.actor}`)}</span>
          </div>
          <div class="what">
            <p class="title">${this.t(`timeline.${entry.type}` as MessageKey)}</p>
            ${this.#details(entry)}
          </div>
        </li>`,
      )}
    </ol>`;
  }

  #money(minor: number | null): string {
    return minor === null ? '—' : this.localizer.moneyMinor(minor, this.currency);
  }

  #facts(...facts: (string | false | null | undefined)[]): TemplateResult | typeof nothing {
    const shown = facts.filter((fact): fact is string => Boolean(fact));
    return shown.length ? html`<p class="facts">${shown.join(' · ')}</p>` : nothing;
  }

  #details(entry: TimelineEntry): TemplateResult | typeof nothing {
    switch (entry.type) {
      case 'order_created':
        return this.#facts(this.localizer.money(entry.amount, entry.currency), entry.linkReference && this.t('timeline.link', { reference: entry.linkReference }));
      case 'fee_quoted':
        return this.#facts(
          this.t(`method.${entry.method}`),
          this.t('timeline.fee', { fee: this.#money(entry.feeMinor), bearer: this.t(`payment.feeBearer.${entry.bearer}`) }),
          this.t('timeline.total', { total: this.#money(entry.totalMinor) }),
        );
      case 'attempt_started':
        return this.#facts(entry.paymentReference, this.t(`method.${entry.method}`));
      case 'transfer_account_issued':
        return this.#facts(entry.account && `${entry.account}${entry.bank ? ` · ${entry.bank}` : ''}`, entry.expiresAt && this.t('timeline.until', { time: this.localizer.dateTime(entry.expiresAt) }));
      case 'money_received':
        return this.#facts(
          this.t('timeline.expected', { amount: this.#money(entry.expectedMinor) }),
          this.t('timeline.received', { amount: this.#money(entry.receivedMinor) }),
          this.t('timeline.accepted', { amount: this.#money(entry.acceptedMinor) }),
          entry.excessMinor > 0 && this.t('timeline.excess', { amount: this.#money(entry.excessMinor) }),
        );
      case 'payment_approved':
        return this.#facts(entry.paymentReference, this.t('timeline.code', { code: entry.responseCode, message: entry.message }));
      case 'payment_declined':
        return this.#facts(entry.paymentReference, this.t('timeline.code', { code: entry.responseCode, message: entry.message }), entry.reason);
      case 'attempt_expired':
        return this.#facts(entry.paymentReference, entry.reason);
      case 'refund_requested':
        return this.#facts(entry.refundReference, this.localizer.money(entry.amount, entry.currency), entry.reason && this.t('timeline.reason', { reason: entry.reason }));
      case 'refund_succeeded':
      case 'refund_failed':
        return this.#facts(entry.refundReference, entry.responseCode && this.t('timeline.code', { code: entry.responseCode, message: entry.message ?? '' }));
      case 'refund_answer_unknown':
        return this.#facts(entry.refundReference);
      case 'webhook_delivery':
        return html`${this.#facts(entry.eventType, entry.endpointUrl, this.t(`delivery.${entry.status}`), entry.resendOf && this.t('timeline.resend'))}
          ${entry.attempts.length
            ? html`<ul class="attempts">
                ${entry.attempts.map(
                  (attempt) => html`<li>
                    ${this.t('timeline.deliveryAttempt', { attempt: attempt.attempt })}:
                    ${attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : (attempt.error ?? this.t('delivery.pending'))}${attempt.latencyMs !== null ? ` · ${attempt.latencyMs} ms` : ''}
                  </li>`,
                )}
              </ul>`
            : nothing}`;
      case 'customer_event':
        return this.#facts(entry.name);
      case 'note':
        return html`<p class="note">${entry.text}</p>${this.#facts(entry.author)}`;
      default:
        return 'paymentReference' in entry ? this.#facts(entry.paymentReference) : nothing;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-order-timeline': DashOrderTimeline;
  }
}
