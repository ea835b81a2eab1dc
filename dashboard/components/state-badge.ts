import { html } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { OrderState } from '../../shared/contract/orders.ts';
import { DashElement } from '../base.ts';
import { styles } from './state-badge.styles.ts';

/** How each state reads at a glance: its tone (colour) and a mark of its own shape; the words say it in full. */
const TONE: Record<OrderState, 'good' | 'bad' | 'waiting' | 'warning'> = {
  pending: 'waiting',
  processing: 'waiting',
  awaiting_transfer: 'waiting',
  underpaid: 'warning',
  paid: 'good',
  overpaid: 'warning',
  failed: 'bad',
  expired: 'bad',
  reversed: 'bad',
};
const MARK = { good: '✓', bad: '✕', waiting: '…', warning: '!' } as const;

/** An order's state as a badge with its name in words, never colour alone. */
@customElement('dash-state-badge')
export class DashStateBadge extends DashElement {
  static override styles = styles;

  @property() state: OrderState = 'pending';

  protected override render() {
    const tone = TONE[this.state];
    this.setStates({ [tone]: true });
    return html`<span class="badge ${tone}" part="badge"><span class="mark" aria-hidden="true">${MARK[tone]}</span>${this.t(`state.${this.state}`)}</span>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-state-badge': DashStateBadge;
  }
}
