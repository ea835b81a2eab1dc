import { consume } from '@lit/context';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { SessionError, type Me, type SessionApi, type SessionFailure, type TotpSecret } from '../api/session.ts';
import { DashElement } from '../base.ts';
import { SignedInEvent } from '../components/events.ts';
import '../components/totp-enrolment.ts';
import { sessionContext } from '../context.ts';
import { hrefOf } from '../router.ts';
import { styles } from './auth.styles.ts';

const MIN_PASSWORD = 12;

/**
 * Accepting a team invitation (`#/accept?token=…`): the new member's password, then an authenticator app: required
 * when the merchant requires two factors, else offered at once (refunds and other sensitive actions need a second
 * factor), with its backup codes shown once.
 */
@customElement('dash-accept')
export class DashAccept extends DashElement {
  static override styles = styles;

  @consume({ context: sessionContext }) session!: SessionApi;
  @property({ attribute: false }) token: string | undefined;

  @state() private busy = false;
  @state() private failure: SessionFailure | undefined;
  @state() private errors: Record<string, string> = {};
  @state() private enrolment: { totp: TotpSecret; required: boolean; me?: Me } | undefined;

  @query('form') private form!: HTMLFormElement;

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const password = String(new FormData(this.form).get('password') ?? '');
    const errors: Record<string, string> = {};
    if (password.length < MIN_PASSWORD) errors['password'] = this.t('signIn.failure.weak_password');
    this.errors = errors;
    const first = Object.keys(errors)[0];
    if (first) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>(`#${first}`)?.focus();
      return;
    }
    this.busy = true;
    this.failure = undefined;
    try {
      const step = await this.session.acceptInvitation(this.token!, password);
      if (step.step === 'enrol_totp') this.enrolment = { totp: step.totp, required: true };
      else if (step.step === 'second_factor') location.hash = hrefOf.signIn();
      else if (step.me.twoFactor.totp || step.me.twoFactor.passkeys.length > 0) this.dispatchEvent(new SignedInEvent(step.me, hrefOf.home));
      else {
        // Signed in with a password only: offer the app now, while the password is at hand.
        const totp = await this.session.startTotp(password).catch(() => undefined);
        if (totp) this.enrolment = { totp, required: false, me: step.me };
        else this.dispatchEvent(new SignedInEvent(step.me, hrefOf.home));
      }
    } catch (error) {
      this.failure = error instanceof SessionError ? error.failure : 'network';
    } finally {
      this.busy = false;
    }
  }

  protected override render(): TemplateResult {
    if (!this.token) return html`<section class="panel"><h1>${this.t('accept.title')}</h1><p class="error-message">${this.t('accept.missing')}</p></section>`;
    if (this.enrolment) {
      return html`<section class="panel">
        <h1>${this.t('enrol.heading')}</h1>
        <dash-totp-enrolment .totp=${this.enrolment.totp} .next=${hrefOf.home} ?required=${this.enrolment.required} .skipWith=${this.enrolment.me}></dash-totp-enrolment>
      </section>`;
    }
    const invalid = (id: string) => (this.errors[id] ? 'true' : 'false');
    return html`<section class="panel">
      <h1>${this.t('accept.title')}</h1>
      <p class="muted">${this.t('accept.intro')}</p>
      <div role="alert" class="alert-region">${this.failure ? html`<p class="error-message">${this.t(`signIn.failure.${this.failure}`)}</p>` : nothing}</div>
      <form novalidate @submit=${this.#submit}>
        <div class="field">
          <label for="password">${this.t('accept.password')}</label>
          <p class="hint" id="password-hint">${this.t('accept.passwordHint')}</p>
          <input id="password" name="password" type="password" autocomplete="new-password" minlength=${MIN_PASSWORD} required aria-invalid=${invalid('password')} aria-describedby="password-hint ${this.errors['password'] ? 'password-error' : ''}" />
          ${this.errors['password'] ? html`<p class="field-error" id="password-error">${this.errors['password']}</p>` : nothing}
        </div>
        <button class="primary" type="submit" ?disabled=${this.busy}>${this.t('accept.submit')}</button>
      </form>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-accept': DashAccept;
  }
}
