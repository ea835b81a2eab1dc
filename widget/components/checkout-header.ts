import { consume } from '@lit/context';
import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { CreateOrderData } from '../api/wire.ts';
import { CheckoutElement } from '../base.ts';
import { orderContext } from '../context.ts';
import { CloseRequestEvent } from '../internal-events.ts';
import { buttons, tokens } from '../styles/shared.styles.ts';
import { checkoutHeaderStyles } from './checkout-header.styles.ts';

/**
 * Who is being paid and how much: the merchant's logo (or initials), name, a "Test mode" badge for test keys, the
 * total to pay (with the fee of the chosen method once quoted), and the close button when the checkout is a dialog.
 */
@customElement('ck-checkout-header')
export class CkCheckoutHeader extends CheckoutElement {
  static override styles = [tokens, buttons, checkoutHeaderStyles];

  @consume({ context: orderContext, subscribe: true })
  @state()
  order: CreateOrderData | undefined;

  /** The total to pay in the order currency; the order amount until a fee is quoted. */
  @property({ type: Number }) total: number | undefined;
  /** The currency of `total` before the order exists (the host's setting); the order's once it does. */
  @property() currency = '';
  @property({ type: Boolean, attribute: 'test-mode' }) testMode = false;
  @property({ type: Boolean }) closable = false;

  override render() {
    const merchant = this.order?.subsidiary.name;
    const total = this.total ?? this.order?.order.amount;
    return html`
      <header>
        ${this.#logo(merchant)}
        <div class="merchant">
          <h1>${merchant ?? this.t('checkout')}${this.testMode ? html` <span class="test-mode">${this.t('testMode')}</span>` : nothing}</h1>
          ${total !== undefined && (this.order || this.currency)
            ? html`<p class="total">${this.localizer.money(total, this.order?.order.currency ?? this.currency)}</p>`
            : nothing}
        </div>
        ${this.closable
          ? html`<button type="button" class="close" part="close-button" aria-label=${this.t('close')} @click=${() => this.dispatchEvent(new CloseRequestEvent())}>
              <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18" /></svg>
            </button>`
          : nothing}
      </header>
    `;
  }

  #logo(merchant: string | undefined) {
    const logo = this.#logoUrl();
    if (logo) return html`<img class="logo" part="logo" src=${logo} alt="" />`;
    const initials = (merchant ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((word) => word[0]!.toUpperCase())
      .join('');
    // Before the merchant is known (loading, an error) there is no logo to show, not a placeholder.
    return initials ? html`<span class="logo monogram" part="logo" aria-hidden="true">${initials}</span>` : nothing;
  }

  /**
   * The merchant's logo: `subsidiary.logo` of the create-order answer (set with `npm run merchant -- logo`), else a
   * customization record's; https or this origin only.
   */
  #logoUrl(): string | undefined {
    const logo = this.order?.subsidiary.logo;
    if (logo && /^https:\/\//.test(logo)) return logo;
    for (const entry of this.order?.subsidiary.customization ?? []) {
      const url = entry['logo'] ?? entry['logoUrl'];
      if (typeof url === 'string' && /^https:\/\/|^\/[^/]|^data:image\//.test(url)) return url;
    }
    return undefined;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ck-checkout-header': CkCheckoutHeader;
  }
}
