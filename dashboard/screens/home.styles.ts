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
    h1 {
      margin: 0;
    }
    .periods {
      display: flex;
      flex-wrap: wrap;
      gap: 0.5rem;
    }
    .periods button[aria-pressed='true'] {
      background: var(--_primary);
      color: var(--_on-primary);
      border-color: transparent;
    }
    .currency {
      display: flex;
      align-items: center;
      gap: 0.5rem;
    }
    .currency select {
      width: auto;
    }
    .stats {
      margin: 0;
      display: grid;
      grid-template-columns: repeat(auto-fill, minmax(min(100%, 13rem), 1fr));
      gap: 0.75rem;
    }
    .stat dt {
      color: var(--_muted);
      font-size: 0.875rem;
      font-weight: 500;
    }
    .stat dd {
      margin: 0.25rem 0 0;
      display: grid;
    }
    .value {
      font-size: 1.375rem;
      font-weight: 700;
      font-variant-numeric: tabular-nums;
    }
    .extra {
      font-size: 0.875rem;
    }
    .columns {
      display: grid;
      gap: 1rem;
      grid-template-columns: minmax(0, 1fr);
    }
    @media (min-width: 64rem) {
      .columns {
        grid-template-columns: minmax(0, 2fr) minmax(0, 1fr);
      }
    }
    .rates {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 0.75rem;
    }
    .rates li {
      display: grid;
      grid-template-columns: minmax(0, 1fr) auto;
      gap: 0.125rem 0.5rem;
    }
    .rate {
      font-weight: 700;
      font-variant-numeric: tabular-nums;
    }
    .attempts {
      grid-column: 1 / -1;
      font-size: 0.875rem;
    }
    meter {
      grid-column: 1 / -1;
      width: 100%;
    }
    .setup {
      max-width: 40rem;
    }
  `,
];
