import { consume } from '@lit/context';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { SessionError, type SecondFactor, type SessionApi, type SessionFailure, type TotpSecret } from '../api/session.ts';
import { DashElement } from '../base.ts';
import { SignedInEvent } from '../components/events.ts';
import '../components/totp-enrolment.ts';
import { sessionContext } from '../context.ts';
import { styles } from './auth.styles.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Sign-in: e-mail and password, then a 6-digit code or a backup code; or a passkey. Mistakes are shown under their
 * field after a submit, tied to it, and the first is focused; what the server refused is said in an alert.
 */
@customElement('dash-sign-in')
export class DashSignIn extends DashElement {
  static override styles = styles;

  @consume({ context: sessionContext }) session!: SessionApi;
  /** Where to go once signed in (a `#/…` address of the dashboard). */
  @property({ attribute: false }) next: string | undefined;
  /** The session ended under a call: say so above the form. */
  @property({ type: Boolean }) expired = false;

  @state() private step: 'password' | 'second_factor' | 'enrol' = 'password';
  /** The merchant requires two factors and this member has none yet: the app to add before any session. */
  @state() private enrolment: TotpSecret | undefined;
  @state() private factor: SecondFactor = 'totp';
  @state() private factors: readonly SecondFactor[] = ['totp', 'backup_code'];
  @state() private busy = false;
  @state() private failure: SessionFailure | undefined;
  @state() private errors: Record<string, string> = {};

  @query('form') private form!: HTMLFormElement;

  #fail(error: unknown): void {
    this.failure = error instanceof SessionError ? error.failure : 'network';
  }

  async #run(work: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.failure = undefined;
    try {
      await work();
    } catch (error) {
      this.#fail(error);
    } finally {
      this.busy = false;
    }
  }

  /** Field errors, or none; focuses the first field in error. */
  async #check(errors: Record<string, string>): Promise<boolean> {
    this.errors = errors;
    const first = Object.keys(errors)[0];
    if (!first) return true;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>(`#${first}`)?.focus();
    return false;
  }

  async #submitPassword(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(this.form);
    const email = String(data.get('email') ?? '').trim();
    const password = String(data.get('password') ?? '');
    const errors: Record<string, string> = {};
    if (!email) errors['email'] = this.t('signIn.required', { field: this.t('signIn.email').toLowerCase() });
    else if (!EMAIL.test(email)) errors['email'] = this.t('signIn.emailInvalid');
    if (!password) errors['password'] = this.t('signIn.required', { field: this.t('signIn.password').toLowerCase() });
    if (!(await this.#check(errors))) return;
    await this.#run(async () => {
      const step = await this.session.signInWithPassword(email, password);
      if (step.step === 'signed_in') this.dispatchEvent(new SignedInEvent(step.me, this.next));
      else if (step.step === 'enrol_totp') {
        this.enrolment = step.totp;
        this.step = 'enrol';
      } else {
        this.factors = step.factors;
        this.factor = step.factors[0] ?? 'totp';
        this.step = 'second_factor';
        await this.updateComplete;
        this.renderRoot.querySelector<HTMLInputElement>('#code')?.focus();
      }
    });
  }

  async #submitCode(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const raw = String(new FormData(this.form).get('code') ?? '');
    const code = this.factor === 'totp' ? raw.replace(/\s/g, '') : raw.trim();
    const valid = this.factor === 'totp' ? /^\d{6}$/.test(code) : code.length >= 6;
    if (!(await this.#check(valid ? {} : { code: this.factor === 'totp' ? this.t('signIn.codeInvalid') : this.t('signIn.required', { field: this.t('signIn.backupCode').toLowerCase() }) }))) return;
    await this.#run(async () => {
      const me = await this.session.verifySecondFactor(this.factor, code);
      this.dispatchEvent(new SignedInEvent(me, this.next));
    });
  }

  async #passkey(): Promise<void> {
    await this.#run(async () => {
      const me = await this.session.signInWithPasskey();
      this.dispatchEvent(new SignedInEvent(me, this.next));
    });
  }

  async #switchFactor(factor: SecondFactor): Promise<void> {
    this.factor = factor;
    this.errors = {};
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>('#code')?.focus();
  }

  #field(id: string, label: string, input: TemplateResult, hint?: string): TemplateResult {
    const error = this.errors[id];
    return html`<div class="field">
      <label for=${id}>${label}</label>
      ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : nothing} ${input}
      ${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : nothing}
    </div>`;
  }

  #describedBy(id: string, hint = false): string {
    return [hint ? `${id}-hint` : '', this.errors[id] ? `${id}-error` : ''].filter(Boolean).join(' ');
  }

  protected override render(): TemplateResult {
    return html`<section class="panel">
      <h1>${this.step === 'password' ? this.t('signIn.title') : this.step === 'enrol' ? this.t('enrol.heading') : this.t('signIn.codeTitle')}</h1>
      ${this.expired && this.step === 'password' ? html`<p class="notice" role="status">${this.t('signIn.expired')}</p>` : nothing}
      <div role="alert" class="alert-region">${this.failure ? html`<p class="error-message">${this.t(`signIn.failure.${this.failure}`)}</p>` : nothing}</div>
      ${this.step === 'password'
        ? this.#passwordStep()
        : this.step === 'enrol'
          ? html`<dash-totp-enrolment .totp=${this.enrolment} .next=${this.next} required></dash-totp-enrolment>`
          : this.#codeStep()}
    </section>`;
  }

  #passwordStep(): TemplateResult {
    return html`<form novalidate @submit=${this.#submitPassword}>
        ${this.#field(
          'email',
          this.t('signIn.email'),
          html`<input id="email" name="email" type="email" autocomplete="username webauthn" required aria-invalid=${this.errors['email'] ? 'true' : 'false'} aria-describedby=${this.#describedBy('email')} />`,
        )}
        ${this.#field(
          'password',
          this.t('signIn.password'),
          html`<input id="password" name="password" type="password" autocomplete="current-password" required aria-invalid=${this.errors['password'] ? 'true' : 'false'} aria-describedby=${this.#describedBy('password')} />`,
        )}
        <button class="primary" type="submit" ?disabled=${this.busy}>${this.busy ? this.t('signIn.working') : this.t('signIn.submit')}</button>
      </form>
      <p class="or"><span>${this.t('signIn.or')}</span></p>
      <button class="passkey" type="button" ?disabled=${this.busy} @click=${this.#passkey}>${this.t('signIn.passkey')}</button>`;
  }

  #codeStep(): TemplateResult {
    const totp = this.factor === 'totp';
    const other: SecondFactor = totp ? 'backup_code' : 'totp';
    return html`<form novalidate @submit=${this.#submitCode}>
      ${totp
        ? this.#field(
            'code',
            this.t('signIn.code'),
            html`<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="7" pattern="[0-9 ]*" required aria-invalid=${this.errors['code'] ? 'true' : 'false'} aria-describedby=${this.#describedBy('code', true)} />`,
            this.t('signIn.codeHint'),
          )
        : this.#field(
            'code',
            this.t('signIn.backupCode'),
            html`<input id="code" name="code" autocomplete="off" autocapitalize="none" spellcheck="false" maxlength="32" required aria-invalid=${this.errors['code'] ? 'true' : 'false'} aria-describedby=${this.#describedBy('code', true)} />`,
            this.t('signIn.backupHint'),
          )}
      <button class="primary" type="submit" ?disabled=${this.busy}>${this.busy ? this.t('signIn.working') : this.t('signIn.verify')}</button>
      ${this.factors.includes(other) ? html`<button class="link" type="button" @click=${() => this.#switchFactor(other)}>${totp ? this.t('signIn.useBackup') : this.t('signIn.useCode')}</button>` : nothing}
      <button class="link" type="button" @click=${() => ((this.step = 'password'), (this.errors = {}), (this.failure = undefined))}>${this.t('signIn.startOver')}</button>
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-sign-in': DashSignIn;
  }
}
