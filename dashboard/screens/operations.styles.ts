import { css } from 'lit';
import { controls, tokens } from '../styles/shared.styles.ts';

/** The operations screens' common layout: sections, tables that become cards when narrow, action rows. */
export const operationsStyles = [
  tokens,
  controls,
  css`
    :host {
      display: block;
    }
    section {
      margin-block: 0 1.5rem;
    }
    .toolbar,
    .row-actions,
    .buttons {
      display: flex;
      flex-wrap: wrap;
      gap: 0.5rem;
      align-items: center;
    }
    .toolbar {
      margin-block-end: 1rem;
    }
    .grid {
      display: grid;
      gap: 0.75rem;
      grid-template-columns: repeat(auto-fit, minmax(min(100%, 14rem), 1fr));
    }
    table {
      width: 100%;
      border-collapse: collapse;
      font-size: 0.9375rem;
    }
    th,
    td {
      text-align: start;
      padding: 0.5rem;
      border-block-end: 1px solid var(--_divider);
      vertical-align: top;
      overflow-wrap: anywhere;
    }
    th {
      color: var(--_muted);
      font-weight: 600;
    }
    .num {
      text-align: end;
      font-variant-numeric: tabular-nums;
    }
    code,
    .mono {
      font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
      font-size: 0.875rem;
      overflow-wrap: anywhere;
    }
    pre {
      white-space: pre-wrap;
      overflow-wrap: anywhere;
      background: var(--_surface);
      border: 1px solid var(--_divider);
      border-radius: calc(var(--_radius) - 4px);
      padding: 0.75rem;
      margin: 0;
      max-height: 18rem;
      overflow: auto;
    }
    dl {
      display: grid;
      grid-template-columns: minmax(7rem, max-content) 1fr;
      gap: 0.25rem 1rem;
      margin: 0;
    }
    dt {
      color: var(--_muted);
    }
    dd {
      margin: 0;
      overflow-wrap: anywhere;
    }
    .badge {
      display: inline-block;
      padding: 0.125rem 0.5rem;
      border-radius: 999px;
      border: 1px solid var(--_border);
      font-size: 0.8125rem;
      font-weight: 600;
    }
    /* The word says the state; the coloured edge only echoes it (the text keeps the body's contrast). */
    .badge.on {
      border: 2px solid var(--_success);
    }
    .badge.off {
      border: 2px solid var(--_danger);
    }
    .danger {
      color: var(--_danger);
      border-color: var(--_danger);
    }
    .secret {
      border: 2px solid var(--_test-edge);
      background: var(--_test-bg);
      color: var(--_test-text);
      border-radius: var(--_radius);
      padding: 0.75rem 1rem;
    }
    .cards {
      list-style: none;
      padding: 0;
      margin: 0;
      display: grid;
      gap: 0.75rem;
    }
    /* Narrow screens: each row of a table reads as a card, its header cells as labels. */
    @media (max-width: 40rem) {
      table.responsive thead {
        position: absolute;
        width: 1px;
        height: 1px;
        overflow: hidden;
        clip-path: inset(50%);
      }
      table.responsive tr {
        display: block;
        border: 1px solid var(--_divider);
        border-radius: calc(var(--_radius) - 4px);
        margin-block-end: 0.75rem;
        padding: 0.5rem;
      }
      table.responsive td {
        display: grid;
        grid-template-columns: 7rem 1fr;
        gap: 0.5rem;
        border: none;
        padding: 0.25rem 0;
        text-align: start;
      }
      table.responsive td::before {
        content: attr(data-label);
        color: var(--_muted);
        font-weight: 600;
      }
    }
  `,
];
