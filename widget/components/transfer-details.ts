import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { parseTimestamp } from '../../shared/timestamps.ts';
import type { BankTransferDetails } from '../api/wire.ts';
import { CheckoutElement } from '../base.ts';
import '../i18n/payment-messages.ts';
import { TransferExpiredEvent, TransferSentEvent } from '../internal-events.ts';
import { buttons, spinner, tokens, visuallyHidden } from '../styles/shared.styles.ts';
import { transferDetailsStyles } from './transfer-details.styles.ts';

/** Minutes before expiry at which the countdown is read out; a timer that speaks every second is unusable. */
const ANNOUNCE_AT_MINUTES = [10, 5, 1];

/**
 * The one-time account to transfer to: bank, number, name and exact amount with copy buttons, a countdown to
 * the account's expiry that is announced politely at 10, 5 and 1 minutes, and "I have sent the money".
 */
@customElement('ck-transfer-details')
export class CkTransferDetails extends CheckoutElement {
  static override styles = [tokens, visuallyHidden, buttons, spinner, transferDetailsStyles];

  @property({ attribute: false }) details: BankTransferDetails | undefined;
  @property() currency = 'NGN';
  /** Set once the customer says they have sent the money: the shell is polling. */
  @property({ type: Boolean }) waiting = false;
  /** What is still to send, from the latest status answer (less than the amount after a short payment). */
  @property({ type: Number, attribute: false }) amountDue: number | undefined;

  @state() private now = Date.now();
  @state() private announcement = '';
  /** The value whose copy button says "Copied" right now: the confirmation shows on the button that was pressed. */
  @state() private copiedValue: string | undefined;
  /** The value that could not be copied: the row says so under its button. */
  @state() private copyFailedValue: string | undefined;
  #copiedTimer: ReturnType<typeof setTimeout> | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #announced = new Set<number>();
  #expiredSent = false;
  /** Set by "I have sent the money": once the wait shows, focus goes to it (the button that had focus is gone). */
  #focusWaiting = false;

  override connectedCallback(): void {
    super.connectedCallback();
    this.#timer = setInterval(() => this.#tick(), 1000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.#timer);
    clearTimeout(this.#copiedTimer);
  }

  override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('details')) {
      this.#announced.clear();
      this.#expiredSent = false;
      // Thresholds already behind us when the view opens are not read out late.
      const minutes = this.#remaining() / 60_000;
      for (const threshold of ANNOUNCE_AT_MINUTES) if (minutes <= threshold) this.#announced.add(threshold);
    }
  }

  override updated(): void {
    this.setStates({ waiting: this.waiting, 'short-paid': this.#shortBy() > 0 });
    if (this.#focusWaiting && this.waiting) {
      this.#focusWaiting = false;
      this.renderRoot.querySelector<HTMLElement>('.waiting')?.focus();
    }
  }

  #remaining(): number {
    return this.details ? parseTimestamp(this.details.expiresAt).getTime() - this.now : 0;
  }

  #shortBy(): number {
    if (!this.details || this.amountDue === undefined) return 0;
    return this.amountDue > 0 && this.amountDue < this.details.amount ? this.amountDue : 0;
  }

  #tick(): void {
    this.now = Date.now();
    const remaining = this.#remaining();
    if (!this.details) return;
    if (remaining <= 0) {
      if (!this.#expiredSent) {
        this.#expiredSent = true;
        this.dispatchEvent(new TransferExpiredEvent());
      }
      return;
    }
    for (const threshold of ANNOUNCE_AT_MINUTES) {
      if (remaining <= threshold * 60_000 && !this.#announced.has(threshold)) {
        this.#announced.add(threshold);
        this.announcement = this.localizer.plural(threshold, 'minutesLeftOne', 'minutesLeftOther');
      }
    }
  }

  override render() {
    const details = this.details;
    if (!details) return nothing;
    const money = (amount: number) => this.localizer.money(amount, this.currency);
    const shortBy = this.#shortBy();
    const toSend = shortBy > 0 ? shortBy : details.amount;
    const remaining = this.#remaining();
    return html`
      <div class="stack">
        <p>${this.t('transferInstructions', { amount: money(toSend) })}</p>
        ${shortBy > 0
          ? html`<p class="notice" role="status">${this.t('shortPayment', { paid: money(details.amount - shortBy), due: money(shortBy) })}</p>`
          : nothing}
        <dl>
          <div class="row"><dt>${this.t('bank')}</dt><dd><span>${details.bankName}</span></dd></div>
          <div class="row">
            <dt>${this.t('accountNumber')}</dt>
            <dd><span class="account">${details.bankAccount}</span>${this.#copyButton(this.t('accountNumber'), details.bankAccount)}</dd>
            ${this.#copyFailure(details.bankAccount)}
          </div>
          <div class="row"><dt>${this.t('accountName')}</dt><dd><span>${details.accountName}</span></dd></div>
          <div class="row">
            <dt>${this.t('amount')}</dt>
            <dd><span>${money(toSend)}</span>${this.#copyButton(this.t('amount'), String(toSend))}</dd>
            ${this.#copyFailure(String(toSend))}
          </div>
        </dl>
        <div class="timer ${remaining < 5 * 60_000 ? 'urgent' : ''}">
          <span>${this.t('expiresIn')} <strong role="timer">${this.localizer.countdown(remaining)}</strong></span>
          <span class="until">${this.t('expiresAt', { time: this.localizer.time(parseTimestamp(details.expiresAt)) })}</span>
        </div>
        ${this.waiting
          ? html`<p class="waiting" role="status" tabindex="-1"><span class="spinner" aria-hidden="true"></span>${this.t('waitingTransfer')}</p>`
          : html`<button type="button" class="primary" part="primary-button" @click=${this.#onSent}>${this.t('sentMoney')}</button>`}
        <p class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</p>
      </div>
    `;
  }

  /**
   * The confirmation is drawn on the button itself ("Copied", with a tick) for a few seconds, where the customer is
   * looking; a screen reader hears it from the polite live region.
   */
  #copyButton(label: string, value: string) {
    const copied = this.copiedValue === value;
    return html`<button
      type="button"
      class="secondary copy ${copied ? 'copied' : ''}"
      aria-label=${copied ? this.t('copied', { label }) : this.t('copyLabel', { label })}
      @click=${() => this.#copy(label, value)}
    >
      ${copied
        ? html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M5 12.5l4.5 4.5L19 7.5" /></svg>${this.t('copiedShort')}`
        : this.t('copy')}
    </button>`;
  }

  #copyFailure(value: string) {
    return this.copyFailedValue === value ? html`<p class="copy-failed">${this.t('copyFailed')}</p>` : nothing;
  }

  async #copy(label: string, value: string): Promise<void> {
    clearTimeout(this.#copiedTimer);
    try {
      await writeToClipboard(value);
      this.copyFailedValue = undefined;
      this.copiedValue = value;
      this.announcement = this.t('copied', { label });
      this.#copiedTimer = setTimeout(() => (this.copiedValue = undefined), 3000);
    } catch {
      this.copiedValue = undefined;
      this.copyFailedValue = value;
      this.announcement = this.t('copyFailed');
    }
  }

  #onSent(): void {
    this.#focusWaiting = true;
    this.dispatchEvent(new TransferSentEvent());
  }
}

/**
 * The Clipboard API, else the older copy command on a selection (which the browser allows on the press of a button
 * where a page that frames the checkout did not grant `clipboard-write`); throws when neither copied.
 */
async function writeToClipboard(value: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(value);
    return;
  } catch (error) {
    const field = document.createElement('textarea');
    field.value = value;
    field.setAttribute('readonly', '');
    field.style.position = 'fixed';
    field.style.opacity = '0';
    document.body.append(field);
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    try {
      field.focus();
      field.select();
      if (!document.execCommand('copy')) throw error;
    } finally {
      field.remove();
      if (active instanceof HTMLElement) active.focus();
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ck-transfer-details': CkTransferDetails;
  }
}
