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
  .description {
    margin: 0 0 0.75rem;
  }
  .plan {
    margin: 0.5rem 0 0;
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  /*
   * The name wraps beside its amount while its longest word and the whole amount fit on one line; on a narrower
   * screen the amount moves under the name, to the end of the line. Words and amounts are never split.
   */
  li,
  .subtotal {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    column-gap: 1rem;
    padding: 0.375rem 0;
  }
  .name,
  .subtotal dt {
    flex: 1 1 0;
    min-width: min-content;
  }
  li + li {
    border-top: 1px solid var(--_divider);
  }
  .amount {
    margin-inline-start: auto;
    overflow-wrap: anywhere;
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
