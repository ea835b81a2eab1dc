import '../api/zod-config.ts';
import { consume } from '@lit/context';
import { html, nothing, type TemplateResult } from 'lit';
import { query, state } from 'lit/decorators.js';
import type { Permission } from '../../shared/contract/permissions.ts';
import { allows, type WithPermissions } from '../access.ts';
import { ApiError, type ApiClient } from '../api/client.ts';
import type { Me } from '../api/session.ts';
import { DashElement } from '../base.ts';
import '../components/step-up.ts';
import type { DashStepUp } from '../components/step-up.ts';
import { apiContext, meContext } from '../context.ts';

/**
 * What the operations screens (links, subscriptions, customers, developers, settings, team, audit) share: the API
 * client and the member from context, `can(permission)`, and `act(action)`, which runs a change, asks for a fresh
 * second factor when the server wants one (and repeats the change after it), and words any refusal in an alert.
 */
export class OperationsScreen extends DashElement {
  @consume({ context: apiContext }) api!: ApiClient;
  @consume({ context: meContext, subscribe: true }) me: (Me & WithPermissions) | undefined;

  /** The last refused change, worded; shown by `failureAlert()`. */
  @state() protected failure = '';
  @query('dash-step-up') private stepUpDialog!: DashStepUp;

  protected can(permission: Permission): boolean {
    return allows(this.me, permission);
  }

  /** Runs a change; undefined when it was refused (the alert says why) or the member cancelled the step-up. */
  protected async act<T>(action: () => Promise<T>): Promise<T | undefined> {
    this.failure = '';
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await action();
      } catch (error) {
        if (error instanceof ApiError && error.reason === 'step_up_required' && attempt === 0) {
          if (await this.stepUpDialog.confirm()) continue;
          return undefined;
        }
        this.failure = this.errorText(error);
        return undefined;
      }
    }
  }

  protected errorText(error: unknown): string {
    if (!(error instanceof ApiError)) return this.t('error.generic');
    if (error.code === 'NETWORK') return this.t('error.network');
    if (error.reason === 'permission_denied') return this.t('ops.forbidden');
    if (error.code === 'VAL400' || error.code === 'CON409') return this.t('ops.refused', { message: error.message });
    if (error.code === 'NF404') return this.t('ops.notFound');
    return this.t('error.generic');
  }

  /** The step-up dialog and the alert of the last refusal: every operations screen renders these once. */
  protected chrome(): TemplateResult {
    return html`<dash-step-up modal></dash-step-up>${this.failure ? html`<p class="error-message" role="alert">${this.failure}</p>` : nothing}`;
  }

  protected loading(): TemplateResult {
    return html`<p class="muted" role="status">${this.t('app.loading')}</p>`;
  }

  protected loadError(error: unknown): TemplateResult {
    return html`<p class="error-message" role="alert">${this.errorText(error)}</p>`;
  }
}
