import { provide } from '@lit/context';
import { Task } from '@lit/task';
import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { CreateOrderPlain } from '../../shared/orders.ts';
import { parseTimestamp } from '../../shared/timestamps.ts';
import type { CheckoutApi } from '../api/client.ts';
import type { CreateOrderData } from '../api/wire.ts';
import { CheckoutElement } from '../base.ts';
import { apiContext, localizerContext, orderContext } from '../context.ts';
import { DEFAULT_BACKOFF, TRANSFER_WATCH_BACKOFF, type BackoffOptions } from '../flow/backoff.ts';
import { CheckoutFlow, VIEWS, type CheckoutFlowHost, type CheckoutView } from '../flow/checkout-flow.ts';
import { describeError, isRetryable } from '../flow/errors.ts';
import { browserLocale, Localizer } from '../i18n/localizer.ts';
import type { CustomerDetailsEvent, FeeQuotedEvent, OptionSelectEvent, PaymentOutcomeEvent } from '../internal-events.ts';
import { BRAND_PROPERTIES, brandProperties, readBrandTokens } from '../../shared/design-tokens.ts';
import { colorSchemeFor } from '../styles/color-scheme.ts';
import { buttons, spinner, tokens, visuallyHidden } from '../styles/shared.styles.ts';
import './checkout-header.ts';
import { checkoutStyles } from './checkout.styles.ts';
import './fee-display.ts';
import './order-summary.ts';
import './payment-options.ts';
import './status-panel.ts';
import type { CkStatusPanel } from './status-panel.ts';

export type { CheckoutView };

export interface OrderItemInput {
  name: string;
  amount: number;
}

/**
 * `<ck-checkout>`: given a publishable key and an order (or an existing order reference), shows one state at a
 * time: loading, choose a method, card entry, authenticating, transfer waiting, success, failure, expired or
 * error. The order flow lives in `CheckoutFlow`; this element holds the settings, provides the API, the order
 * and the localizer to the components inside it, draws the current view and moves focus when it changes. The
 * card form owns the card payment, so card data never reaches this element.
 */
@customElement('ck-checkout')
export class CkCheckout extends CheckoutElement implements CheckoutFlowHost {
  static override styles = [tokens, visuallyHidden, buttons, spinner, checkoutStyles];

  /** Publishable key (`api-key` header). */
  @property({ attribute: 'api-key' }) apiKey = '';
  /** Base URL of the checkout API; the page's own origin when empty. */
  @property({ attribute: 'api-base' }) apiBase = '';
  /** BCP 47 locale (`en`, `fr-FR`); the browser's when empty. */
  @property() locale = '';
  /** `light` (default), `dark`, or `auto` (the system's preference). */
  @property({ reflect: true }) theme: 'light' | 'dark' | 'auto' = 'light';
  /** The merchant's branding: each read by `readBrandTokens`, so a value of another shape changes nothing. */
  @property({ attribute: 'brand-color' }) brandColor = '';
  @property() radius = '';
  @property() font = '';
  @property() density = '';
  /** Shows a close button that fires `checkout:close` (for the modal embed). */
  @property({ type: Boolean }) closable = false;

  /** The merchant's order reference: with `amount` it creates the order; alone it resumes an existing one. */
  @property() reference = '';
  @property({ type: Number }) amount: number | undefined;
  @property() currency = 'NGN';
  @property() description = '';
  @property({ attribute: 'customer-email' }) customerEmail = '';
  @property({ attribute: 'customer-first-name' }) customerFirstName = '';
  @property({ attribute: 'customer-last-name' }) customerLastName = '';
  @property({ attribute: 'customer-mobile' }) customerMobile = '';
  @property({ attribute: 'customer-country' }) customerCountry = '';
  /** Line items as JSON (`[{"name":"Tea","amount":1200}]`) or a property. */
  @property({ type: Array }) items: OrderItemInput[] | undefined;
  /** Where 3-D Secure returns; this page by default, so the checkout resumes by itself. */
  @property({ attribute: 'redirect-url' }) redirectUrl = '';
  /** The payment link this order pays (`payment.paymentlinkid`), on the payment-link page. */
  @property({ attribute: 'payment-link-id', type: Number }) paymentLinkId: number | undefined;
  /** The order's client token from the merchant's server: the order it created with the secret key. */
  @property({ attribute: 'client-token' }) clientToken = '';
  /** A customer session from the merchant's server: the customer's saved cards, and saving one. */
  @property({ attribute: 'customer-session' }) customerSession = '';
  /** The merchant's public keys as JSON (the frame page provides them): no round trip to fetch them. */
  @property({ attribute: 'encryption-keys' }) encryptionKeys = '';
  /**
   * The frame session token of the merchant's frame this checkout is (set by the frame bridge before the settings
   * apply), sent with every API call.
   */
  frameSession = '';
  /** Framed by a merchant's page: the settings arrive from it by postMessage, so wait for them. */
  @property({ type: Boolean }) embedded = false;

  /**
   * The checkout is the page (the checkout app page sets this): once the locale is known it sets the document's
   * `lang` and a title in that language. Left false when the element sits in someone else's page.
   */
  ownsDocument = false;

  /** How the checkout leaves for the hosted authentication page; replaceable by an embedder (popup) or a test. */
  redirect: (url: string) => void = (url) => window.location.assign(url);
  /** Status polling timing. */
  pollBackoff: BackoffOptions = DEFAULT_BACKOFF;
  /** How often an open transfer account is checked for money arriving. */
  transferBackoff: BackoffOptions = TRANSFER_WATCH_BACKOFF;

  @provide({ context: apiContext }) @state() api: CheckoutApi | undefined;
  @provide({ context: orderContext }) @state() order: CreateOrderData | undefined;
  @provide({ context: localizerContext }) @state() provided: Localizer = this.localizer;

  readonly flow = new CheckoutFlow(this);

  /** The catalog for the `locale` attribute (French is its own chunk); nothing with words renders before it. */
  readonly localeTask = new Task(this, {
    args: () => [this.locale || browserLocale()] as const,
    task: async ([locale]) => {
      const localizer = await Localizer.load(locale);
      this.localizer = localizer;
      this.provided = localizer;
      if (this.ownsDocument) {
        document.documentElement.lang = locale.toLowerCase().startsWith(localizer.language) ? locale : localizer.language;
        document.title = localizer.t('checkout');
      }
      return localizer;
    },
  });

  /** The state shown now; also exposed as a custom state (`ck-checkout:state(card)`). */
  get view(): CheckoutView {
    return this.flow.view;
  }

  orderPlain(returnUrl: string): CreateOrderPlain {
    return {
      customer: {
        firstname: this.customerFirstName,
        lastname: this.customerLastName,
        mobile: this.customerMobile || undefined,
        country: this.customerCountry || undefined,
        email: this.customerEmail,
      },
      order: {
        amount: this.amount ?? 0,
        reference: this.reference,
        description: this.description || undefined,
        currency: this.currency,
        items: this.items?.length ? this.items : undefined,
      },
      payment: { RedirectUrl: this.redirectUrl || returnUrl, paymentlinkid: this.paymentLinkId },
    };
  }

  override willUpdate(changed: Map<PropertyKey, unknown>): void {
    // The checkout's own page (hosted, or the frame) takes the theme too, so the page around the panel matches it.
    if (this.ownsDocument && changed.has('theme')) document.documentElement.style.colorScheme = colorSchemeFor(this.theme);
    if (['brandColor', 'radius', 'font', 'density'].some((name) => changed.has(name))) this.#applyBranding();
    this.api = this.flow.api;
    this.order = this.flow.order;
    this.setStates({ ...Object.fromEntries(VIEWS.map((view) => [view, view === this.flow.view])), busy: this.flow.busy });
  }

  /**
   * The branding becomes the public theming properties on this element (CSSOM, allowed under the strict CSP),
   * with values built by shared/design-tokens.ts from the validated tokens: nothing the page sent is written as CSS.
   */
  #applyBranding(): void {
    const properties = brandProperties(readBrandTokens({ brandColor: this.brandColor, radius: this.radius, font: this.font, density: this.density }));
    for (const name of BRAND_PROPERTIES) {
      const value = properties[name];
      if (value === undefined) this.style.removeProperty(name);
      else this.style.setProperty(name, value);
    }
  }

  override updated(): void {
    if (!this.flow.focusRequested) return;
    this.flow.focusRequested = false;
    const target = this.renderRoot.querySelector<HTMLElement>('[data-focus]');
    if (target && 'focusHeading' in target) void (target as CkStatusPanel).focusHeading();
    else target?.focus();
  }

  override render() {
    if (this.localeTask.value === undefined) {
      return html`<section class="panel skeleton" part="panel" aria-busy="true"><span class="spinner"></span></section>`;
    }
    return html`
      <section class="panel" part="panel" lang=${this.localizer.language} aria-label=${this.order?.subsidiary.name ?? this.t('checkout')}>
        <ck-checkout-header
          part="header"
          exportparts="logo, close-button"
          .total=${this.flow.totalToPay}
          .currency=${this.currency}
          ?test-mode=${this.api?.testMode ?? false}
          ?closable=${this.closable}
          @ck-close-request=${() => this.flow.close()}
        ></ck-checkout-header>
        <div class="body" part="body">${this.#renderView()}</div>
        <footer part="footer">
          <svg viewBox="0 0 24 24" aria-hidden="true"><rect x="5" y="11" width="14" height="9" rx="2" /><path d="M8 11V8a4 4 0 0 1 8 0v3" /></svg>
          <span>${this.t(this.flow.view === 'card' ? 'secured' : 'securedShort')}</span>
        </footer>
      </section>
    `;
  }

  #renderView() {
    const flow = this.flow;
    switch (flow.view) {
      case 'loading':
        return html`<ck-status-panel tone="progress" heading=${this.t('loading')} role="status"></ck-status-panel>`;
      case 'details':
        return html`
          <h2 class="view-title" tabindex="-1" data-focus>${this.t('detailsHeading')}</h2>
          <p class="note">${this.t('detailsIntro', { merchant: flow.merchant })}</p>
          <ck-customer-form
            exportparts="primary-button, input, field"
            .fields=${flow.detailsAsked}
            @ck-customer-details=${(event: CustomerDetailsEvent) => flow.submitDetails(event.details)}
          ></ck-customer-form>
        `;
      case 'options': {
        // Continue needs the quote: the amount charged, fee included, is known before anything is paid.
        const waitingForQuote = flow.option !== '' && !flow.quote;
        const requesting = flow.requestingAccount;
        return html`
          ${flow.notice ? html`<p class="alert" role="alert">${this.t(flow.notice)}</p>` : nothing}
          <h2 class="view-title" tabindex="-1" data-focus>${this.t('summaryHeading')}</h2>
          <ck-order-summary ?itemised=${(this.items?.length ?? 0) > 0}></ck-order-summary>
          <ck-payment-options
            exportparts="option"
            .value=${flow.option}
            @ck-option-select=${(event: OptionSelectEvent) => flow.selectOption(event.code)}
          ></ck-payment-options>
          ${flow.option ? this.#feeDisplay(flow.option) : nothing}
          ${this.#transferError()}
          <button
            type="button"
            class="primary"
            part="primary-button"
            ?disabled=${!flow.option}
            aria-disabled=${waitingForQuote || requesting ? 'true' : 'false'}
            aria-describedby=${waitingForQuote ? 'quote-needed' : nothing}
            @click=${() => flow.continue()}
          >
            ${requesting ? html`<span class="spinner" aria-hidden="true"></span>` : nothing}
            ${flow.option === 'bank-transfer' ? this.t('getAccount') : flow.option === 'C' ? this.t('continueWithCard') : this.t('continue')}
          </button>
          ${waitingForQuote ? html`<p class="note" id="quote-needed">${this.t('quoteNeeded')}</p>` : nothing}
        `;
      }
      case 'card':
        return html`
          ${this.#changeMethodButton()}
          <h2 class="view-title" tabindex="-1" data-focus>${this.t('cardHeading')}</h2>
          ${this.#feeDisplay('C')}
          <ck-card-form
            exportparts="primary-button, input, field"
            .quote=${flow.quote}
            .holderName=${flow.cardHolder}
            @ck-payment-outcome=${(event: PaymentOutcomeEvent) => flow.cardOutcome(event.outcome, event.holderName)}
          ></ck-card-form>
        `;
      case 'authenticating':
        if (flow.authStage === 'interrupted' && flow.authUrl) {
          return html`<ck-status-panel tone="progress" heading=${this.t('authHeading')} data-focus>
            <p>${this.t('authInterrupted')}</p>
            <div class="actions">
              <button type="button" class="primary" part="primary-button" @click=${() => flow.continueWithBank()}>${this.t('authContinue')}</button>
              <button type="button" class="secondary" @click=${() => flow.chooseAnother()}>${this.t('useAnotherMethod')}</button>
            </div>
          </ck-status-panel>`;
        }
        return html`<ck-status-panel tone="progress" heading=${this.t('authHeading')} data-focus>
          <p role="status">${flow.authUrl ? this.t('authBody') : this.t('authChecking')}</p>
          ${flow.authUrl ? html`<a class="button secondary" href=${flow.authUrl}>${this.t('authOpen')}</a>` : nothing}
        </ck-status-panel>`;
      case 'transfer':
        return html`
          ${flow.nothingReceived ? this.#changeMethodButton() : nothing}
          <h2 class="view-title" tabindex="-1" data-focus>${this.t('transferHeading')}</h2>
          <ck-transfer-details
            exportparts="primary-button"
            .details=${flow.transfer}
            .currency=${this.order?.order.currency ?? 'NGN'}
            .amountDue=${flow.amountDue}
            ?waiting=${flow.waiting}
            @ck-transfer-sent=${() => flow.transferSent()}
            @ck-transfer-expired=${() => flow.transferSent()}
          ></ck-transfer-details>
        `;
      case 'success':
        return this.#renderSuccess();
      case 'failure':
        return html`<ck-status-panel tone="failure" heading=${this.t('failureHeading')} data-focus>
          <p>${flow.failure?.message}</p>
          <div class="actions">
            <button type="button" class="primary" part="primary-button" @click=${() => flow.retryPayment()}>${this.t('tryAgain')}</button>
            ${this.#chooseAnotherButton()}
          </div>
        </ck-status-panel>`;
      case 'expired':
        return html`<ck-status-panel tone="expired" heading=${this.t('expiredHeading')} data-focus>
          <p>${this.t('expiredBody')}</p>
          ${flow.receivedBeforeExpiry > 0
            ? html`<p class="notice" role="status">
                ${this.t('expiredReceived', { received: this.localizer.money(flow.receivedBeforeExpiry, this.order?.order.currency ?? 'NGN'), merchant: flow.merchant })}
              </p>`
            : nothing}
          ${this.#transferError()}
          <div class="actions">
            <button
              type="button"
              class="primary"
              part="primary-button"
              aria-disabled=${flow.requestingAccount ? 'true' : 'false'}
              @click=${() => flow.newAccount()}
            >
              ${flow.requestingAccount ? html`<span class="spinner" aria-hidden="true"></span>` : nothing}${this.t('newAccount')}
            </button>
            ${this.#chooseAnotherButton()}
          </div>
        </ck-status-panel>`;
      case 'error':
        return html`<ck-status-panel tone="error" heading=${this.t('errorHeading')} data-focus>
          <p>${describeError(flow.error, this.localizer, flow.merchant)}</p>
          ${isRetryable(flow.error)
            ? html`<div class="actions"><button type="button" class="primary" part="primary-button" @click=${() => flow.retry()}>${this.t('tryAgain')}</button></div>`
            : nothing}
        </ck-status-panel>`;
    }
  }

  #renderSuccess() {
    const paid = this.flow.paid;
    if (!paid) return nothing;
    return html`<ck-status-panel tone="success" heading=${this.t('successHeading')} data-focus>
      <p>${this.t('successBody', { amount: this.localizer.money(paid.amount, paid.currency), merchant: this.flow.merchant })}</p>
      ${paid.excess > 0
        ? html`<p class="notice" role="status">${this.t('excessPayment', { excess: this.localizer.money(paid.excess, paid.currency), merchant: this.flow.merchant })}</p>`
        : nothing}
      <dl class="receipt">
        <div><dt>${this.t('paymentReference')}</dt><dd>${paid.reference}</dd></div>
        ${paid.confirmedAt ? html`<div><dt>${this.t('paidOn')}</dt><dd>${this.localizer.dateTime(parseTimestamp(paid.confirmedAt))}</dd></div>` : nothing}
      </dl>
      ${this.embedded && !this.closable
        ? // Inline in a merchant's page there is nothing for Done to close: the receipt stays, the page goes on.
          nothing
        : html`<div class="actions"><button type="button" class="primary" part="primary-button" @click=${() => this.flow.close()}>${this.t('done')}</button></div>`}
    </ck-status-panel>`;
  }

  #feeDisplay(option: string) {
    // The quote already made for this method is passed on: the card view does not ask for it a second time.
    return html`<ck-fee-display .option=${option} .quote=${this.flow.quotes[option]} @ck-fee-quoted=${(event: FeeQuotedEvent) => this.flow.quoted(event.quote)}></ck-fee-display>`;
  }

  #transferError() {
    const error = this.flow.transferError;
    return error === undefined ? nothing : html`<p class="alert" role="alert">${describeError(error, this.localizer, this.flow.merchant)}</p>`;
  }

  #changeMethodButton() {
    return this.flow.optionCount > 1
      ? html`<button type="button" class="link back" @click=${() => this.flow.chooseAnother()}>
          <span aria-hidden="true">←</span> ${this.t('changeMethod')}
        </button>`
      : nothing;
  }

  #chooseAnotherButton() {
    return this.flow.optionCount > 1
      ? html`<button type="button" class="secondary" @click=${() => this.flow.chooseAnother()}>${this.t('chooseAnother')}</button>`
      : nothing;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ck-checkout': CkCheckout;
  }
}
