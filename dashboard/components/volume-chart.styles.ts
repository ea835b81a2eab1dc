import { css } from 'lit';
import { tokens } from '../styles/shared.styles.ts';

/**
 * The rules of uPlot's stylesheet (uplot/dist/uPlot.min.css, MIT) this chart uses (no legend, cursor or selection),
 * copied into the component's adopted stylesheet: the page loads no stylesheet and allows no inline style.
 */
const uPlotRules = css`
  .uplot,
  .uplot *,
  .uplot *::before,
  .uplot *::after {
    box-sizing: border-box;
  }
  .uplot {
    font-family: inherit;
    line-height: 1.5;
    width: min-content;
  }
  .u-wrap {
    position: relative;
    user-select: none;
  }
  .u-over,
  .u-under {
    position: absolute;
  }
  .u-under {
    overflow: hidden;
  }
  .uplot canvas {
    display: block;
    position: relative;
    width: 100%;
    height: 100%;
  }
  .u-axis {
    position: absolute;
  }
  .u-axis.u-off,
  .u-select.u-off,
  .u-cursor-x.u-off,
  .u-cursor-y.u-off,
  .u-cursor-pt.u-off {
    display: none;
  }
  .u-select {
    position: absolute;
    pointer-events: none;
  }
`;

export const styles = [
  tokens,
  uPlotRules,
  css`
    :host {
      display: block;
      min-width: 0;
    }
    figure {
      margin: 0;
      display: grid;
      gap: 0.75rem;
    }
    figcaption {
      color: var(--_muted);
    }
    .plot {
      min-width: 0;
      overflow: hidden;
    }
    .probe {
      position: absolute;
      width: 0;
      height: 0;
      overflow: hidden;
    }
    summary {
      cursor: pointer;
      color: var(--_accent);
      min-height: 24px;
    }
    table {
      border-collapse: collapse;
      margin-top: 0.5rem;
    }
    th,
    td {
      text-align: start;
      padding: 0.25rem 0.75rem 0.25rem 0;
      font-variant-numeric: tabular-nums;
    }
  `,
];
