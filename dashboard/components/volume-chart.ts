import { html, type PropertyValues } from 'lit';
import { customElement, property, query } from 'lit/decorators.js';
import uPlot from 'uplot';
import type { Interval } from '../api/reports.ts';
import { DashElement } from '../base.ts';
import { styles } from './volume-chart.styles.ts';

/**
 * The volume chart (uPlot on a canvas, loaded with Home). The canvas is a picture for sighted users: its figure's
 * caption says the total and the peak in words, and the same figures are one click away as a table.
 */
@customElement('dash-volume-chart')
export class DashVolumeChart extends DashElement {
  static override styles = styles;

  /** Bucket starts (seconds) and amounts collected (minor units). */
  @property({ attribute: false }) volume: { times: number[]; collected: number[] } = { times: [], collected: [] };
  @property() currency = 'NGN';
  @property() interval: Interval = 'day';

  @query('.plot') private plot!: HTMLElement;
  @query('.probe') private probe!: HTMLElement;

  #chart: uPlot | undefined;
  readonly #resize = new ResizeObserver(() => this.#chart?.setSize({ width: this.#width(), height: this.#height() }));
  /** The theme switch sets the root's colour scheme: the canvas is drawn again in the new colours. */
  readonly #scheme = new MutationObserver(() => this.#draw());
  readonly #system = matchMedia('(prefers-color-scheme: dark)');
  readonly #onSystem = () => this.#draw();

  override connectedCallback(): void {
    super.connectedCallback();
    this.#scheme.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
    this.#system.addEventListener('change', this.#onSystem);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#scheme.disconnect();
    this.#resize.disconnect();
    this.#system.removeEventListener('change', this.#onSystem);
    this.#chart?.destroy();
    this.#chart = undefined;
  }

  #width(): number {
    return Math.max(200, this.plot?.clientWidth ?? 300);
  }

  #height(): number {
    return Math.min(260, Math.max(180, Math.round(this.#width() * 0.45)));
  }

  #major(minor: number): number {
    const digits = new Intl.NumberFormat('en', { style: 'currency', currency: this.currency }).resolvedOptions().maximumFractionDigits ?? 2;
    return minor / 10 ** digits;
  }

  /** A token's colour as the canvas needs it (resolved from `light-dark()` by the browser). */
  #color(variable: string): string {
    this.probe.style.color = `var(${variable})`;
    return getComputedStyle(this.probe).color;
  }

  #label(seconds: number): string {
    const options: Intl.DateTimeFormatOptions = this.interval === 'month' ? { month: 'short', year: 'numeric' } : { day: 'numeric', month: 'short' };
    return new Intl.DateTimeFormat(this.localizer.locale, options).format(new Date(seconds * 1000));
  }

  #draw(): void {
    if (!this.plot) return;
    this.#chart?.destroy();
    const text = this.#color('--_muted');
    const grid = this.#color('--_divider');
    const bar = this.#color('--_accent');
    const compact = new Intl.NumberFormat(this.localizer.locale, { style: 'currency', currency: this.currency, notation: 'compact', maximumFractionDigits: 1 });
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 }, font: '12px system-ui, sans-serif' };
    this.#chart = new uPlot(
      {
        width: this.#width(),
        height: this.#height(),
        legend: { show: false },
        cursor: { show: false },
        // Volume starts at zero: a bar's height is its amount, not its distance from the smallest.
        scales: { x: { time: false }, y: { range: (_chart, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        axes: [
          { ...axis, values: (_chart, splits) => splits.map((split) => this.#label(split)) },
          { ...axis, size: 64, values: (_chart, splits) => splits.map((split) => compact.format(split)) },
        ],
        series: [{}, { stroke: bar, fill: bar, width: 0, points: { show: false }, paths: uPlot.paths.bars!({ size: [0.7, 48] }) }],
      },
      [this.volume.times, this.volume.collected.map((minor) => this.#major(minor))],
      this.plot,
    );
  }

  protected override firstUpdated(): void {
    this.#resize.observe(this.plot);
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    if (changed.has('volume') || changed.has('currency') || changed.has('localizer') || changed.has('interval')) this.#draw();
  }

  protected override render() {
    const total = this.volume.collected.reduce((sum, value) => sum + value, 0);
    const peak = Math.max(0, ...this.volume.collected);
    const money = (minor: number) => this.localizer.money(this.#major(minor), this.currency);
    return html`<figure>
      <figcaption>${this.t('home.volumeSummary', { total: money(total), peak: money(peak) })}</figcaption>
      <div class="plot" aria-hidden="true"></div>
      <span class="probe" aria-hidden="true"></span>
      <details>
        <summary>${this.t('home.volumeTable')}</summary>
        <table>
          <thead>
            <tr><th scope="col">${this.t('home.volumeTime')}</th><th scope="col">${this.t('home.collected')}</th></tr>
          </thead>
          <tbody>
            ${this.volume.times.map((time, index) => html`<tr><th scope="row">${this.#label(time)}</th><td>${money(this.volume.collected[index] ?? 0)}</td></tr>`)}
          </tbody>
        </table>
      </details>
    </figure>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-volume-chart': DashVolumeChart;
  }
}
