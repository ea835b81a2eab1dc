import { html } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { Mode } from '../api/session.ts';
import { DashElement } from '../base.ts';
import { ModeChangeEvent } from './events.ts';
import { styles } from './mode-switch.styles.ts';

/**
 * The test/live switch: a native switch (`role=switch` on a button) named "Test data", on when the dashboard shows
 * test data; its label says the mode in words beside the colour, so neither colour nor position alone tells.
 */
@customElement('dash-mode-switch')
export class DashModeSwitch extends DashElement {
  static override styles = styles;

  @property() mode: Mode = 'test';
  @property({ type: Boolean }) busy = false;

  protected override render() {
    const test = this.mode === 'test';
    this.setStates({ test, live: !test });
    return html`<button
      role="switch"
      aria-checked=${test ? 'true' : 'false'}
      aria-busy=${this.busy ? 'true' : 'false'}
      ?disabled=${this.busy}
      part="switch"
      @click=${() => this.dispatchEvent(new ModeChangeEvent(test ? 'live' : 'test'))}
    >
      <span class="track" aria-hidden="true"><span class="thumb"></span></span>
      <span class="label">${this.t('mode.label')}</span>
      <span class="value" aria-hidden="true">${test ? this.t('mode.test') : this.t('mode.live')}</span>
    </button>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-mode-switch': DashModeSwitch;
  }
}
