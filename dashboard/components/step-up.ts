import '../api/zod-config.ts';
import { consume } from '@lit/context';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { stepUp } from '../../shared/contract/team.ts';
import { ApiError, type ApiClient } from '../api/client.ts';
import { DashElement } from '../base.ts';
import { apiContext } from '../context.ts';
import { CsrfTokenEvent } from './csrf-event.ts';
import { styles } from './step-up.styles.ts';

/**
 * "Confirm it is you": a modal dialog asking for a 6-digit code (or a backup code) when an action needs a fresh second
 * factor (`AUTH403`, `step_up_required`). `confirm()` opens it and resolves true once the step-up succeeded, false
 * when the member cancelled; the screen then repeats its action.
 */
@customElement('dash-step-up')
export class DashStepUp extends DashElement {
  static override styles = styles;

  @consume({ context: apiContext }) api!: ApiClient;
  @state() private error = '';
  @state() private busy = false;
  @state() private backup = false;
  @query('dialog') private dialog!: HTMLDialogElement;
  @query('#step-up-code') private input!: HTMLInputElement;
  #resolve: ((done: boolean) => void) | undefined;

  confirm(): Promise<boolean> {
    this.error = '';
    this.dialog.showModal();
    this.input.value = '';
    this.input.focus();
    return new Promise((resolve) => (this.#resolve = resolve));
  }

  #close(done: boolean): void {
    this.dialog.close();
    this.#resolve?.(done);
    this.#resolve = undefined;
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const code = this.input.value.replace(/\s+/g, '');
    if (!this.backup && !/^\d{6}$/.test(code)) {
      this.error = this.t('stepUp.codeInvalid');
      this.input.focus();
      return;
    }
    this.busy = true;
    try {
      const done = await this.api.call(stepUp, { body: this.backup ? { method: 'backup_code', code } : { method: 'totp', code } });
      this.dispatchEvent(new CsrfTokenEvent(done.csrfToken));
      this.#close(true);
    } catch (error) {
      this.error = error instanceof ApiError && error.code === 'RATE429' ? this.t('stepUp.tooMany') : this.t('stepUp.refused');
      this.input.focus();
    } finally {
      this.busy = false;
    }
  }

  protected override render(): TemplateResult {
    return html`<dialog aria-labelledby="step-up-title" @cancel=${(event: Event) => (event.preventDefault(), this.#close(false))}>
      <form @submit=${this.#submit} novalidate>
        <h2 id="step-up-title">${this.t('stepUp.title')}</h2>
        <p class="hint">${this.t('stepUp.intro')}</p>
        <div class="field">
          <label for="step-up-code">${this.t(this.backup ? 'stepUp.backup' : 'stepUp.code')}</label>
          <input id="step-up-code" name="code" autocomplete=${this.backup ? 'off' : 'one-time-code'} inputmode=${this.backup ? 'text' : 'numeric'}
            aria-invalid=${this.error ? 'true' : 'false'} aria-describedby=${this.error ? 'step-up-error' : nothing} />
          ${this.error ? html`<p class="field-error" id="step-up-error" role="alert">${this.error}</p>` : nothing}
        </div>
        <button type="button" class="link" @click=${() => ((this.backup = !this.backup), this.input.focus())}>${this.t(this.backup ? 'stepUp.useCode' : 'stepUp.useBackup')}</button>
        <div class="buttons">
          <button type="button" @click=${() => this.#close(false)}>${this.t('common.cancel')}</button>
          <button type="submit" class="primary" ?disabled=${this.busy}>${this.t('stepUp.confirm')}</button>
        </div>
      </form>
    </dialog>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-step-up': DashStepUp;
  }
}
