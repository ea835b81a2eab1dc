import { css } from 'lit';
import { tokens } from '../styles/shared.styles.ts';

export const styles = [
  tokens,
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
    @media (max-width: 30rem) {
      .row {
        grid-template-columns: minmax(0, 1fr);
      }
    }
  `,
];
