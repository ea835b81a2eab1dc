import { css } from 'lit';
import { controls, tokens } from '../styles/shared.styles.ts';

export const styles = [
  tokens,
  controls,
  css`
    :host {
      display: block;
      max-width: 48rem;
    }
    .headline {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 0.75rem;
      margin: 0 0 1rem;
    }
    .amount {
      font-size: 1.5rem;
      font-weight: 700;
      font-variant-numeric: tabular-nums;
    }
    dl {
      margin: 0;
      display: grid;
      gap: 0.5rem;
    }
    .row {
      display: grid;
      grid-template-columns: minmax(0, 12rem) minmax(0, 1fr);
      gap: 0.25rem 1rem;
    }
    dt {
      color: var(--_muted);
    }
    dd {
      margin: 0;
    }
    section.panel {
      margin-bottom: 1rem;
    }
    h2 {
      margin-top: 0;
    }
    .table-wrap {
      overflow-x: auto;
    }
    table {
      border-collapse: collapse;
      width: 100%;
    }
    th,
    td {
      text-align: start;
      padding: 0.375rem 0.5rem;
      border-bottom: 1px solid var(--_divider);
      vertical-align: top;
    }
    .number {
      text-align: end;
      font-variant-numeric: tabular-nums;
      white-space: nowrap;
    }
    .note-form {
      display: grid;
      gap: 0.75rem;
    }
    .note-form button {
      justify-self: start;
    }
    textarea {
      font: inherit;
      width: 100%;
      box-sizing: border-box;
      padding: 0.5rem 0.75rem;
      color: var(--_text);
      background: var(--_bg);
      border: 1px solid var(--_border);
      border-radius: calc(var(--_radius) - 4px);
    }
    @media (max-width: 30rem) {
      .row {
        grid-template-columns: minmax(0, 1fr);
      }
    }
  `,
];
