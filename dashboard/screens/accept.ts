import { consume } from '@lit/context';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { SessionError, type SessionApi, type SessionFailure } from '../api/session.ts';
import { DashElement } from '../base.ts';
import { SignedInEvent } from '../components/events.ts';
import { sessionContext } from '../context.ts';
import { hrefOf } from '../router.ts';
import { styles } from './auth.styles.ts';

const MIN_PASSWORD = 12;

/** Accepting a team invitation (`#/accept?token=…`): the new member's name and password. */
@customElement('dash-accept')
export class DashAccept extends DashElement {
  static override styles = styles;

  @consume({ context: sessionContext }) session!: SessionApi;
  @property({ attribute: false }) token: string | undefined;

  @state() private busy = false;
  @state() private failure: SessionFailure | undefined;
  @state() private errors: Record<string, string> = {};

  @query('form') private form!: HTMLFormElement;

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(this.form);
    const name = String(data.get('name') ?? '').trim();
    const password = String(data.get('password') ?? '');
    const errors: Record<string, string> = {};
    if (!name) errors['name'] = this.t('signIn.required', { field: this.t('accept.name').toLowerCase() });
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
      const step = await this.session.acceptInvitation(this.token!, { name, password });
      // A second factor is set up or asked for on the sign-in screen.
      if (step.step === 'signed_in') this.dispatchEvent(new SignedInEvent(step.me, hrefOf.home));
      else location.hash = hrefOf.signIn();
    } catch (error) {
      this.failure = error instanceof SessionError ? error.failure : 'network';
    } finally {
      this.busy = false;
    }
  }

  protected override render(): TemplateResult {
    if (!this.token) return html`<section class="panel"><h1>${this.t('accept.title')}</h1><p class="error-message">${this.t('accept.missing')}</p></section>`;
    const invalid = (id: string) => (this.errors[id] ? 'true' : 'false');
    return html`<section class="panel">
      <h1>${this.t('accept.title')}</h1>
      <p class="muted">${this.t('accept.intro')}</p>
      <div role="alert" class="alert-region">${this.failure ? html`<p class="error-message">${this.t(`signIn.failure.${this.failure}`)}</p>` : nothing}</div>
      <form novalidate @submit=${this.#submit}>
        <div class="field">
          <label for="name">${this.t('accept.name')}</label>
          <input id="name" name="name" autocomplete="name" required aria-invalid=${invalid('name')} aria-describedby=${this.errors['name'] ? 'name-error' : ''} />
          ${this.errors['name'] ? html`<p class="field-error" id="name-error">${this.errors['name']}</p>` : nothing}
        </div>
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
