import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  disableWebhookEndpoint,
  enableWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  resendWebhookDelivery,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhookEndpoint,
  WEBHOOK_EVENT_TYPES,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from '../../shared/contract/webhooks.ts';
import { OperationsScreen } from '../screens/operations-base.ts';
import { operationsStyles } from '../screens/operations.styles.ts';

/**
 * Webhook endpoints: add one (its signing secret shown once), choose its event types, disable or enable it, delete it,
 * rotate its secret (the old one still signs for 24 hours), send a test event, and read its deliveries (what was
 * sent, what the endpoint answered), the failed ones alone if asked, resending any.
 */
@customElement('dash-webhook-endpoints')
export class DashWebhookEndpoints extends OperationsScreen {
  static override styles = operationsStyles;

  @state() private secret: { endpointId: string; secret: string } | undefined;
  @state() private open: string | undefined;
  @state() private failedOnly = false;
  @state() private urlError = '';
  @state() private confirmDelete: string | undefined;
  @query('#webhook-url') private urlInput!: HTMLInputElement;

  readonly #endpoints = new Task(this, {
    task: ([], { signal }) => this.api.call(listWebhookEndpoints, { signal }),
    args: () => [this.me?.mode] as const,
  });

  readonly #deliveries = new Task(this, {
    task: async ([endpointId, failedOnly], { signal }) =>
      endpointId ? this.api.call(listWebhookDeliveries, { params: { endpointId }, query: { limit: 20, ...(failedOnly ? { status: 'failed' as const } : {}) }, signal }) : undefined,
    args: () => [this.open, this.failedOnly] as const,
  });

  async #change<T>(action: () => Promise<T>, message: string): Promise<T | undefined> {
    const done = await this.act(action);
    if (done === undefined) return undefined;
    this.announce(message);
    void this.#endpoints.run();
    return done;
  }

  async #add(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const url = this.urlInput.value.trim();
    if (!/^https?:\/\/\S+$/.test(url)) {
      this.urlError = this.t('hooks.urlInvalid');
      this.urlInput.focus();
      return;
    }
    this.urlError = '';
    const types = [...this.renderRoot.querySelectorAll<HTMLInputElement>('input[name=event-type]:checked')].map((box) => box.value as (typeof WEBHOOK_EVENT_TYPES)[number]);
    const created = await this.#change(() => this.api.call(createWebhookEndpoint, { body: { url, ...(types.length > 0 ? { eventTypes: types } : {}) } }), this.t('hooks.added'));
    if (!created) return;
    this.urlInput.value = '';
    this.secret = { endpointId: created.id, secret: created.secret };
  }

  async #rotate(endpoint: WebhookEndpointView): Promise<void> {
    const rotated = await this.#change(() => this.api.call(rotateWebhookSecret, { params: { endpointId: endpoint.id }, body: { overlapHours: 24 } }), this.t('hooks.rotated'));
    if (rotated) this.secret = { endpointId: rotated.id, secret: rotated.secret };
  }

  async #types(endpoint: WebhookEndpointView, event: Event): Promise<void> {
    const form = (event.target as HTMLElement).closest('fieldset')!;
    const types = [...form.querySelectorAll<HTMLInputElement>('input:checked')].map((box) => box.value as (typeof WEBHOOK_EVENT_TYPES)[number]);
    await this.#change(() => this.api.call(updateWebhookEndpoint, { params: { endpointId: endpoint.id }, body: { eventTypes: types.length > 0 ? types : null } }), this.t('hooks.typesSaved'));
  }

  protected override render(): TemplateResult {
    return html`<section aria-labelledby="hooks-title" class="panel">
      <h2 id="hooks-title">${this.t('hooks.title')}</h2>
      ${this.chrome()}
      ${this.secret
        ? html`<div class="secret" role="alert"><p><strong>${this.t('hooks.secretOnce')}</strong></p><p class="mono">${this.secret.secret}</p>
            <button @click=${() => (this.secret = undefined)}>${this.t('hooks.secretSaved')}</button></div>`
        : nothing}
      ${this.#endpoints.render({
        initial: () => this.loading(),
        pending: () => this.loading(),
        error: (error) => this.loadError(error),
        complete: (endpoints) => (endpoints.length === 0 ? html`<p>${this.t('hooks.none')}</p>` : html`<ul class="cards">${endpoints.map((endpoint) => this.#endpoint(endpoint))}</ul>`),
      })}
      <form @submit=${this.#add} novalidate>
        <div class="field">
          <label for="webhook-url">${this.t('hooks.url')}</label>
          <input id="webhook-url" type="url" placeholder="https://shop.example/webhooks" aria-invalid=${this.urlError ? 'true' : 'false'} aria-describedby=${this.urlError ? 'webhook-url-error' : nothing} />
          ${this.urlError ? html`<p class="field-error" id="webhook-url-error">${this.urlError}</p>` : nothing}
        </div>
        <details>
          <summary>${this.t('hooks.chooseTypes')}</summary>
          <fieldset class="grid"><legend class="visually-hidden">${this.t('hooks.types')}</legend>
            ${WEBHOOK_EVENT_TYPES.map((type) => html`<label class="check"><input type="checkbox" name="event-type" value=${type} /> <code>${type}</code></label>`)}
          </fieldset>
        </details>
        <button class="primary" type="submit">${this.t('hooks.add')}</button>
      </form>
    </section>`;
  }

  #endpoint(endpoint: WebhookEndpointView): TemplateResult {
    const enabled = endpoint.status === 'enabled';
    const open = this.open === endpoint.id;
    return html`<li class="panel" data-endpoint=${endpoint.id}>
      <p class="row-actions"><span class="mono">${endpoint.url}</span> <span class="badge ${enabled ? 'on' : 'off'}">${this.t(enabled ? 'hooks.enabled' : 'hooks.disabled')}</span></p>
      <p class="hint">${endpoint.eventTypes ? endpoint.eventTypes.join(', ') : this.t('hooks.allTypes')}${endpoint.previousSecretUntil ? ` · ${this.t('hooks.overlap', { until: this.localizer.dateTime(endpoint.previousSecretUntil) })}` : ''}</p>
      <div class="row-actions">
        ${enabled
          ? html`<button @click=${() => this.#change(() => this.api.call(sendTestWebhook, { params: { endpointId: endpoint.id } }), this.t('hooks.testSent'))}>${this.t('hooks.test')}</button>
              <button @click=${() => this.#rotate(endpoint)}>${this.t('hooks.rotate')}</button>
              <button @click=${() => this.#change(() => this.api.call(disableWebhookEndpoint, { params: { endpointId: endpoint.id } }), this.t('hooks.disabledDone'))}>${this.t('hooks.disable')}</button>`
          : html`<button @click=${() => this.#change(() => this.api.call(enableWebhookEndpoint, { params: { endpointId: endpoint.id } }), this.t('hooks.enabledDone'))}>${this.t('hooks.enable')}</button>`}
        ${this.confirmDelete === endpoint.id
          ? html`<button class="danger" @click=${() => ((this.confirmDelete = undefined), this.#change(() => this.api.call(deleteWebhookEndpoint, { params: { endpointId: endpoint.id } }), this.t('hooks.deleted')))}>${this.t('hooks.confirmDelete')}</button>
              <button @click=${() => (this.confirmDelete = undefined)}>${this.t('common.cancel')}</button>`
          : html`<button class="danger" @click=${() => (this.confirmDelete = endpoint.id)}>${this.t('hooks.delete')}</button>`}
        <button aria-expanded=${open ? 'true' : 'false'} @click=${() => (this.open = open ? undefined : endpoint.id)}>${this.t('hooks.deliveries')}</button>
      </div>
      <details>
        <summary>${this.t('hooks.types')}</summary>
        <fieldset class="grid" @change=${(event: Event) => this.#types(endpoint, event)}><legend class="visually-hidden">${this.t('hooks.typesOf', { url: endpoint.url })}</legend>
          ${WEBHOOK_EVENT_TYPES.map((type) => html`<label class="check"><input type="checkbox" value=${type} .checked=${endpoint.eventTypes?.includes(type) ?? false} /> <code>${type}</code></label>`)}
        </fieldset>
        <p class="hint">${this.t('hooks.typesHint')}</p>
      </details>
      ${open ? this.#deliveryLog() : nothing}
    </li>`;
  }

  #deliveryLog(): TemplateResult {
    return html`<div>
      <label class="check"><input id="failed-only" type="checkbox" .checked=${this.failedOnly} @change=${(event: Event) => (this.failedOnly = (event.target as HTMLInputElement).checked)} /> ${this.t('hooks.failedOnly')}</label>
      ${this.#deliveries.render({
        initial: () => this.loading(),
        pending: () => this.loading(),
        error: (error) => this.loadError(error),
        complete: (deliveries) => (!deliveries || deliveries.length === 0 ? html`<p>${this.t('hooks.noDeliveries')}</p>` : html`<ul class="cards">${deliveries.map((delivery) => this.#delivery(delivery))}</ul>`),
      })}
    </div>`;
  }

  #delivery(delivery: WebhookDeliveryView): TemplateResult {
    const last = delivery.attempts.at(-1);
    return html`<li class="panel" data-delivery=${delivery.id}>
      <p class="row-actions"><code>${delivery.eventType}</code> <span class="badge ${delivery.status === 'succeeded' ? 'on' : delivery.status === 'failed' ? 'off' : ''}">${this.t(`hooks.status.${delivery.status}`)}</span>
        <span class="muted">${this.localizer.dateTime(delivery.createdAt)}</span>
        <button @click=${() => this.#change(() => this.api.call(resendWebhookDelivery, { params: { deliveryId: delivery.id } }), this.t('hooks.resent'))}>${this.t('hooks.resend')}</button></p>
      <details>
        <summary>${this.t('hooks.requestResponse')}</summary>
        <h4>${this.t('hooks.request')}</h4>
        <pre>${delivery.request?.body ?? '—'}</pre>
        <h4>${this.t('hooks.response')}</h4>
        ${delivery.attempts.length === 0 ? html`<p>${this.t('hooks.noAttempts')}</p>` : html`<table class="responsive">
          <thead><tr><th scope="col">#</th><th scope="col">${this.t('hooks.when')}</th><th scope="col">${this.t('hooks.answer')}</th><th scope="col" class="num">${this.t('hooks.latency')}</th></tr></thead>
          <tbody>${delivery.attempts.map(
            (attempt) => html`<tr><td data-label="#">${attempt.attempt}</td><td data-label=${this.t('hooks.when')}>${this.localizer.dateTime(attempt.startedAt)}</td>
              <td data-label=${this.t('hooks.answer')}>${attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : (attempt.error ?? this.t(`hooks.outcome.${attempt.outcome}`))}</td>
              <td data-label=${this.t('hooks.latency')} class="num">${attempt.latencyMs === null ? '—' : `${this.localizer.number(attempt.latencyMs)} ms`}</td></tr>`,
          )}</tbody></table>`}
        ${last === undefined && delivery.lastError ? html`<p>${delivery.lastError}</p>` : nothing}
      </details>
    </li>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-webhook-endpoints': DashWebhookEndpoints;
  }
}
