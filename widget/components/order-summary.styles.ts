import { css } from 'lit';

export const orderSummaryStyles = css`
  :host {
    display: block;
  }
  h2 {
    font-size: 1rem;
    margin: 0 0 0.5rem;
  }
  .reference {
    color: var(--_muted);
    font-size: 0.875rem;
    margin: 0 0 0.75rem;
    overflow-wrap: anywhere;
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  /* The amount keeps to one line while there is room; on a narrow screen the name wraps first, then the amount. */
  li,
  .subtotal {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    gap: 1rem;
    padding: 0.375rem 0;
  }
  li + li {
    border-top: 1px solid var(--_divider);
  }
  .name {
    min-width: 0;
    overflow-wrap: anywhere;
  }
  .amount {
    text-align: end;
    font-variant-numeric: tabular-nums;
  }
  .subtotal {
    border-top: 1px solid var(--_border);
    margin-top: 0.25rem;
    padding-top: 0.5rem;
    font-weight: 600;
  }
  dl,
  dd {
    margin: 0;
  }
`;
