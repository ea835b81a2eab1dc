import { html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { SavedCard } from '../api/wire.ts';
import { CheckoutElement } from '../base.ts';
import '../i18n/payment-messages.ts';
import { SavedCardSelectEvent } from '../internal-events.ts';
import { brandMarks, choiceGroup, tokens } from '../styles/shared.styles.ts';
import { brandMark, brandName, savedCardExpired } from './brand.ts';
import { savedCardsStyles } from './saved-cards.styles.ts';

/**
 * A returning customer's saved cards (brand, last four, expiry: never a full number) and "use a new card", as one
 * radio group. The choice is reported to the card form, which then asks only for the security code.
 */
@customElement('ck-saved-cards')
export class CkSavedCards extends CheckoutElement {
  static override styles = [tokens, choiceGroup, brandMarks, savedCardsStyles];

  @property({ attribute: false }) cards: SavedCard[] = [];

  /** The chosen card's token, or null for a new card. */
  @property({ attribute: false }) selected: string | null = null;

  override render() {
    if (this.cards.length === 0) return nothing;
    return html`
      <fieldset>
        <legend>${this.t('savedCardsHeading')}</legend>
        ${this.cards.map((card) => {
          // An expired card is listed, so the customer knows why it is not offered, but cannot be chosen.
          const expired = savedCardExpired(card.expiry);
          return html`
            <label class=${expired ? 'expired' : ''}>
              <input
                type="radio"
                name="saved-card"
                ?disabled=${expired}
                .checked=${!expired && this.selected === card.token}
                @change=${() => this.#select(card.token)}
              />
              ${brandMark(card.brand) ?? nothing}
              <span class="text">
                <span>${this.t('savedCard', { brand: brandName(card.brand), last4: card.last4 })}</span>
                <span class="expiry">${this.t(expired ? 'savedCardExpired' : 'savedCardExpiry', { expiry: card.expiry })}</span>
              </span>
            </label>
          `;
        })}
        <label>
          <input type="radio" name="saved-card" .checked=${this.selected === null} @change=${() => this.#select(null)} />
          <span class="text">${this.t('newCard')}</span>
        </label>
      </fieldset>
    `;
  }

  #select(token: string | null): void {
    this.selected = token;
    this.dispatchEvent(new SavedCardSelectEvent(token));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ck-saved-cards': CkSavedCards;
  }
}
