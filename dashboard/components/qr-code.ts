import { html, svg, nothing, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { css } from 'lit';
import { DashElement } from '../base.ts';

/**
 * A QR code of `value`, drawn as one SVG path (no markup from a string, so the page's Trusted Types have nothing to
 * refuse). The encoder (`uqr`, about 5 KB gzipped) is loaded on first use, in its own chunk.
 */
@customElement('dash-qr-code')
export class DashQrCode extends DashElement {
  static override styles = css`
    :host {
      display: inline-block;
      background: #fff;
      padding: 8px;
      border-radius: 8px;
      line-height: 0;
    }
    svg {
      width: var(--dash-qr-size, 176px);
      height: var(--dash-qr-size, 176px);
      shape-rendering: crispEdges;
    }
  `;

  @property() value = '';
  /** What the code says, for people who cannot see it. */
  @property() label = '';
  @state() private path: { d: string; size: number } | undefined;

  protected override async willUpdate(changed: Map<string, unknown>): Promise<void> {
    if (!changed.has('value') || !this.value) return;
    const value = this.value;
    const { encode } = await import('uqr');
    if (value !== this.value) return;
    const { data, size } = encode(value, { ecc: 'M', border: 2 });
    let d = '';
    data.forEach((row, y) => row.forEach((dark, x) => (dark ? (d += `M${x} ${y}h1v1h-1z`) : undefined)));
    this.path = { d, size };
  }

  protected override render(): TemplateResult | typeof nothing {
    if (!this.path) return nothing;
    const { d, size } = this.path;
    return html`<svg viewBox="0 0 ${size} ${size}" role="img" aria-label=${this.label}>${svg`<path d=${d} fill="#000"></path>`}</svg>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-qr-code': DashQrCode;
  }
}
