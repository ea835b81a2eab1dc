import { consume } from '@lit/context';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { SessionError, type SecondFactor, type SessionApi, type SessionFailure } from '../api/session.ts';
import { DashElement } from '../base.ts';
import { sessionContext } from '../context.ts';
import { styles } from './step-up.styles.ts';

/** A second factor was proved again: the action that asked may be retried. */
export class SteppedUpEvent extends Event {
  static readonly eventName = 'dash-stepped-up';
  constructor() {
    super(SteppedUpEvent.eventName, { bubbles: true, composed: true });
  }
}

/** The member gave up confirming. */
export class StepUpCancelledEvent extends Event {
  static readonly eventName = 'dash-step-up-cancelled';
  constructor() {
    super(StepUpCancelledEvent.eventName, { bubbles: true, composed: true });
  }
}

/**
 * "Confirm it is you" before an action that needs a fresh second factor (`AUTH403`, `step_up_required`): a code from
 * the authenticator app, a backup code, or a passkey, proved through the session (which keeps the new CSRF token).
 * The action is retried by whoever showed this. Two ways to show it, one component: in place of a form (the refund
 * form renders it and listens for `dash-stepped-up` / `dash-step-up-cancelled`), or, with `modal`, as a modal dialog
 * that `confirm()` opens and that resolves true once proved, false when the member gave up (the operations screens).
 */
@customElement('dash-step-up')
export class DashStepUp extends DashElement {
  static override styles = styles;

  @consume({ context: sessionContext }) session!: SessionApi;

  @state() private factor: SecondFactor = 'totp';
  @state() private busy = false;
  @state() private failure: SessionFailure | undefined;
  @state() private codeError = false;

  /** Shown as a modal dialog, opened by `confirm()`. */
  @property({ type: Boolean, reflect: true }) modal = false;

  @query('form') private form!: HTMLFormElement;
  @query('dialog') private dialog!: HTMLDialogElement | null;
  #resolve: ((done: boolean) => void) | undefined;

  /** Opens the modal dialog (`modal`): true once a second factor is proved, false when the member cancels. */
  async confirm(): Promise<boolean> {
    this.modal = true;
    this.failure = undefined;
    this.codeError = false;
    await this.updateComplete;
    this.form.reset();
    if (!this.dialog!.open) this.dialog!.showModal();
    this.renderRoot.querySelector<HTMLInputElement>('#step-up-code')?.focus();
    return new Promise((resolve) => (this.#resolve = resolve));
  }

  #done(proved: boolean): void {
    this.dispatchEvent(proved ? new SteppedUpEvent() : new StepUpCancelledEvent());
    if (this.dialog?.open) this.dialog.close();
    this.#resolve?.(proved);
    this.#resolve = undefined;
  }

  override async firstUpdated(): Promise<void> {
    this.renderRoot.querySelector<HTMLInputElement>('#step-up-code')?.focus();
  }

  async #prove(proof: Parameters<SessionApi['stepUp']>[0]): Promise<void> {
    this.busy = true;
    this.failure = undefined;
    try {
      await this.session.stepUp(proof);
      this.#done(true);
    } catch (error) {
      this.failure = error instanceof SessionError ? error.failure : 'network';
    } finally {
      this.busy = false;
    }
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const raw = String(new FormData(this.form).get('code') ?? '');
    const code = this.factor === 'totp' ? raw.replace(/\s/g, '') : raw.trim();
    this.codeError = this.factor === 'totp' ? !/^\d{6}$/.test(code) : code.length < 8;
    if (this.codeError) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>('#step-up-code')?.focus();
      return;
    }
    await this.#prove({ method: this.factor, code });
  }

  protected override render(): TemplateResult {
    const form = this.#form();
    return this.modal ? html`<dialog aria-labelledby="step-up-title" @cancel=${(event: Event) => (event.preventDefault(), this.#done(false))}>${form}</dialog>` : form;
  }

  #form(): TemplateResult {
    const totp = this.factor === 'totp';
    return html`<form novalidate @submit=${this.#submit} aria-labelledby="step-up-title">
      <h3 id="step-up-title">${this.t('stepUp.title')}</h3>
      <p class="muted">${this.t('stepUp.intro')}</p>
      <div role="alert" class="alert-region">${this.failure ? html`<p class="error-message">${this.t(`signIn.failure.${this.failure}`)}</p>` : nothing}</div>
      <div class="field">
        <label for="step-up-code">${totp ? this.t('signIn.code') : this.t('signIn.backupCode')}</label>
        <input
          id="step-up-code"
          name="code"
          inputmode=${totp ? 'numeric' : 'text'}
          autocomplete=${totp ? 'one-time-code' : 'off'}
          maxlength=${totp ? 7 : 32}
          required
          aria-invalid=${this.codeError ? 'true' : 'false'}
          aria-describedby=${this.codeError ? 'step-up-code-error' : ''}
        />
        ${this.codeError ? html`<p class="field-error" id="step-up-code-error">${totp ? this.t('signIn.codeInvalid') : this.t('signIn.required', { field: this.t('signIn.backupCode').toLowerCase() })}</p>` : nothing}
      </div>
      <div class="actions">
        <button class="primary" type="submit" ?disabled=${this.busy}>${this.t('stepUp.confirm')}</button>
        <button type="button" class="passkey" ?disabled=${this.busy} @click=${() => this.#prove({ method: 'passkey' })}>${this.t('stepUp.passkey')}</button>
        <button type="button" class="link" @click=${() => ((this.factor = totp ? 'backup_code' : 'totp'), (this.codeError = false))}>
          ${totp ? this.t('signIn.useBackup') : this.t('signIn.useCode')}
        </button>
        <button type="button" class="link" @click=${() => this.#done(false)}>${this.t('stepUp.cancel')}</button>
      </div>
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-step-up': DashStepUp;
  }
  interface GlobalEventHandlersEventMap {
    'dash-stepped-up': SteppedUpEvent;
    'dash-step-up-cancelled': StepUpCancelledEvent;
  }
}
