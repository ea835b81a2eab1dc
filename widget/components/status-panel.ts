import { html, svg } from 'lit';
import { customElement, property, query } from 'lit/decorators.js';
import { CheckoutElement } from '../base.ts';
import { spinner, tokens } from '../styles/shared.styles.ts';
import { statusPanelStyles } from './status-panel.styles.ts';

export type Tone = 'success' | 'failure' | 'expired' | 'error' | 'progress';

/** Each tone has its own shape as well as its own colour, so the state never rests on colour alone. */
const ICONS: Record<Exclude<Tone, 'progress'>, ReturnType<typeof svg>> = {
  success: svg`<path d="M5 12.5l4.5 4.5L19 7.5" />`,
  failure: svg`<path d="M7 7l10 10M17 7L7 17" />`,
  expired: svg`<circle cx="12" cy="12" r="8.5" /><path d="M12 7.5V12l3 2" />`,
  error: svg`<path d="M12 6.5v7M12 17.2v.3" />`,
};

/**
 * A result or waiting screen: an icon, a heading that takes focus when the state changes (so screen readers
 * announce it), and the shell's message and actions in the slot.
 */
@customElement('ck-status-panel')
export class CkStatusPanel extends CheckoutElement {
  static override styles = [tokens, spinner, statusPanelStyles];

  @property({ reflect: true }) tone: Tone = 'progress';
  @property() heading = '';

  @query('h2') private headingElement!: HTMLHeadingElement;

  /** Waits for the first render: the shell asks for focus in the same frame that creates the panel. */
  async focusHeading(): Promise<void> {
    await this.updateComplete;
    this.headingElement?.focus();
  }

  override render() {
    return html`
      <div class="icon" part="icon" aria-hidden="true">
        ${this.tone === 'progress'
          ? html`<span class="spinner"></span>`
          : html`<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round">
              ${ICONS[this.tone]}
            </svg>`}
      </div>
      <h2 tabindex="-1">${this.heading}</h2>
      <slot></slot>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ck-status-panel': CkStatusPanel;
  }
}
