import { css } from 'lit';
import { tokens } from '../styles/shared.styles.ts';

export const styles = [
  tokens,
  css`
    :host {
      display: block;
    }
    .timeline {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 0;
    }
    .entry {
      display: grid;
      grid-template-columns: minmax(0, 11rem) minmax(0, 1fr);
      gap: 0.25rem 1rem;
      padding: 0.625rem 0;
      border-top: 1px solid var(--_divider);
    }
    .entry:first-child {
      border-top: 0;
    }
    .when {
      display: grid;
      font-variant-numeric: tabular-nums;
    }
    .actor {
      font-size: 0.875rem;
    }
    p {
      margin: 0;
    }
    .title {
      font-weight: 600;
    }
    .facts,
    .attempts {
      color: var(--_muted);
      font-size: 0.875rem;
      overflow-wrap: anywhere;
    }
    .attempts {
      margin: 0.25rem 0 0;
      padding-inline-start: 1.25rem;
    }
    .note {
      white-space: pre-wrap;
    }
    .payment_declined .title,
    .refund_failed .title {
      color: var(--_danger);
    }
    .payment_approved .title,
    .refund_succeeded .title {
      color: var(--_success);
    }
    @media (max-width: 30rem) {
      .entry {
        grid-template-columns: minmax(0, 1fr);
      }
    }
  `,
];
