import { consume } from '@lit/context';
import { html, nothing, svg, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { encode } from 'uqr';
import { SessionError, type Me, type SessionApi, type SessionFailure, type TotpSecret } from '../api/session.ts';
import { DashElement } from '../base.ts';
import { sessionContext } from '../context.ts';
import { SignedInEvent } from './events.ts';
import { styles } from './totp-enrolment.styles.ts';

/** The `otpauth://` URI as a QR code: one SVG path of dark modules (no inline style, so the strict policy allows it). */
function qrCode(uri: string): TemplateResult {
  const { data, size } = encode(uri, { ecc: 'M', border: 2 });
  let path = '';
  data.forEach((row, y) => row.forEach((dark, x) => dark && (path += `M${x} ${y}h1v1h-1z`)));
  return html`<svg viewBox="0 0 ${size} ${size}" role="img" aria-hidden="true" shape-rendering="crispEdges">${svg`<path d=${path} fill="#000"></path>`}</svg>`;
}

/**
 * Adding an authenticator app: the secret as a QR code and as text to type, a code from the app to confirm it, then
 * the backup codes, shown once, before the session goes on to `next`. Used where a sign-in or an invitation asks
 * for it (the merchant requires two factors) or offers it (a new member protects its account at once).
 */
@customElement('dash-totp-enrolment')
export class DashTotpEnrolment extends DashElement {
  static override styles = styles;

  @consume({ context: sessionContext }) session!: SessionApi;
  @property({ attribute: false }) totp: TotpSecret | undefined;
  /** Where to go once the codes are saved. */
  @property({ attribute: false }) next: string | undefined;
  /** The merchant requires it: no way to skip. */
  @property({ type: Boolean }) required = false;
  /** Signed in already (an offer): skipping keeps the session. */
  @property({ attribute: false }) skipWith: Me | undefined;

  @state() private busy = false;
  @state() private failure: SessionFailure | undefined;
  @state() private codeError = false;
  @state() private done: { me: Me; backupCodes: string[] } | undefined;

  @query('form') private form!: HTMLFormElement;

  async #confirm(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const code = String(new FormData(this.form).get('code') ?? '').replace(/\s/g, '');
    this.codeError = !/^\d{6}$/.test(code);
    if (this.codeError) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>('#totp-code')?.focus();
      return;
    }
    this.busy = true;
    this.failure = undefined;
    try {
      this.done = await this.session.confirmTotp(code);
      this.announce(this.t('enrol.saveCodes'));
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
    } catch (error) {
      this.failure = error instanceof SessionError ? error.failure : 'network';
    } finally {
      this.busy = false;
    }
  }

  protected override render(): TemplateResult {
    if (this.done) {
      const { me, backupCodes } = this.done;
      return html`<div class="codes-step">
        <h2 tabindex="-1">${this.t('enrol.codesTitle')}</h2>
        <p>${this.t('enrol.codesIntro')}</p>
        <ul class="codes" aria-label=${this.t('enrol.codesTitle')}>
          ${backupCodes.map((code) => html`<li>${code}</li>`)}
        </ul>
        <button class="primary" type="button" @click=${() => this.dispatchEvent(new SignedInEvent(me, this.next))}>${this.t('enrol.codesSaved')}</button>
      </div>`;
    }
    const totp = this.totp;
    if (!totp) return html``;
    return html`<form novalidate @submit=${this.#confirm}>
      <h2>${this.t('enrol.title')}</h2>
      <p>${this.required ? this.t('enrol.required') : this.t('enrol.offer')}</p>
      <ol>
        <li>${this.t('enrol.scan')}</li>
        <li>${this.t('enrol.enterCode')}</li>
      </ol>
      <div class="qr">${qrCode(totp.uri)}</div>
      <details>
        <summary>${this.t('enrol.cannotScan')}</summary>
        <p>${this.t('enrol.secret')} <code class="secret">${totp.secret}</code></p>
        <p class="muted">${this.t('enrol.uri')} <code class="uri">${totp.uri}</code></p>
      </details>
      <div role="alert" class="alert-region">${this.failure ? html`<p class="error-message">${this.t(`signIn.failure.${this.failure}`)}</p>` : nothing}</div>
      <div class="field">
        <label for="totp-code">${this.t('signIn.code')}</label>
        <input
          id="totp-code"
          name="code"
          inputmode="numeric"
          autocomplete="one-time-code"
          maxlength="7"
          required
          aria-invalid=${this.codeError ? 'true' : 'false'}
          aria-describedby=${this.codeError ? 'totp-code-error' : ''}
        />
        ${this.codeError ? html`<p class="field-error" id="totp-code-error">${this.t('signIn.codeInvalid')}</p>` : nothing}
      </div>
      <button class="primary" type="submit" ?disabled=${this.busy}>${this.t('enrol.confirm')}</button>
      ${!this.required && this.skipWith
        ? html`<button class="link" type="button" @click=${() => this.dispatchEvent(new SignedInEvent(this.skipWith!, this.next))}>${this.t('enrol.skip')}</button>`
        : nothing}
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-totp-enrolment': DashTotpEnrolment;
  }
}
