import { css } from 'lit';
import { controls, tokens } from '../styles/shared.styles.ts';

export const styles = [
  tokens,
  controls,
  css`
    :host {
      display: grid;
      gap: 1rem;
      min-width: 0;
    }
    h1,
    h2 {
      margin: 0;
    }
    h2:focus {
      outline: none;
    }
    h2:focus-visible {
      outline: 3px solid var(--_focus);
    }
    .search-row {
      display: flex;
      gap: 0.5rem;
    }
    .search-row input {
      flex: 1;
      min-width: 0;
    }
    summary {
      cursor: pointer;
      font-weight: 600;
      min-height: 24px;
    }
    .filters form {
      display: grid;
      gap: 1rem;
      margin-top: 0.75rem;
    }
    fieldset {
      border: 0;
      padding: 0;
      margin: 0;
      min-width: 0;
    }
    .states {
      display: flex;
      flex-wrap: wrap;
      gap: 0.25rem 1rem;
    }
    .states legend {
      margin-bottom: 0.25rem;
    }
    .check {
      display: inline-flex;
      align-items: center;
      gap: 0.375rem;
      font-weight: 400;
      min-height: 32px;
    }
    .grid {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(min(100%, 11rem), 1fr));
      gap: 0.75rem;
    }
    .amounts legend {
      margin-bottom: 0.25rem;
    }
    .amounts .hint {
      grid-column: 1 / -1;
    }
    .views ul {
      list-style: none;
      padding: 0;
      margin: 0 0 0.5rem;
      display: flex;
      flex-wrap: wrap;
      gap: 0.5rem;
    }
    .views li {
      display: inline-flex;
    }
    .views .view {
      border-radius: calc(var(--_radius) - 4px) 0 0 calc(var(--_radius) - 4px);
    }
    .views .delete {
      border-radius: 0 calc(var(--_radius) - 4px) calc(var(--_radius) - 4px) 0;
      border-left: 0;
      padding: 0 0.75rem;
    }
    .save-view {
      display: flex;
      flex-wrap: wrap;
      gap: 0.5rem;
    }
    .save-view input {
      flex: 1 1 10rem;
      width: auto;
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 0.5rem 1rem;
    }
    .table-wrap {
      overflow-x: auto;
      background: var(--_bg);
      border: 1px solid var(--_divider);
      border-radius: var(--_radius);
    }
    table {
      border-collapse: collapse;
      width: 100%;
      font-size: 0.9375rem;
    }
    th,
    td {
      text-align: start;
      padding: 0.625rem 0.75rem;
      border-bottom: 1px solid var(--_divider);
      vertical-align: middle;
    }
    thead th {
      font-size: 0.8125rem;
      color: var(--_muted);
      font-weight: 600;
      background: var(--_surface);
    }
    tbody th {
      font-weight: 500;
      white-space: nowrap;
    }
    tbody tr:last-child > * {
      border-bottom: 0;
    }
    .amount {
      text-align: end;
      white-space: nowrap;
      font-variant-numeric: tabular-nums;
    }
    .cards {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 0.75rem;
    }
    .card {
      display: grid;
      gap: 0.25rem;
    }
    .card-top {
      display: flex;
      flex-wrap: wrap;
      justify-content: space-between;
      align-items: center;
      gap: 0.5rem;
    }
    .card-amount {
      font-weight: 700;
      font-size: 1.125rem;
      font-variant-numeric: tabular-nums;
    }
    .pager {
      display: flex;
      gap: 0.5rem;
      flex-wrap: wrap;
    }
  `,
];
