import { css } from 'lit';

export const feeDisplayStyles = css`
  :host {
    display: block;
  }
  section {
    background: var(--_surface);
    border-radius: calc(var(--_radius) - 2px);
    padding: 0.75rem 0.875rem;
  }
  h3 {
    font-size: 0.9375rem;
    margin: 0 0 0.25rem;
  }
  dl {
    margin: 0;
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    gap: 0.25rem 0;
  }
  /* An amount keeps to one line while there is room; on a narrow screen the label wraps first, then the amount. */
  dd {
    margin: 0;
    padding-inline-start: 1rem;
    text-align: end;
    font-variant-numeric: tabular-nums;
  }
  .total {
    font-weight: 700;
    font-size: 1.125rem;
    border-top: 1px solid var(--_divider);
    padding-top: 0.375rem;
    margin-top: 0.125rem;
  }
  .bearer,
  .status {
    color: var(--_muted);
    font-size: 0.875rem;
    margin: 0.375rem 0 0;
  }
  .status {
    display: flex;
    align-items: center;
    gap: 0.5rem;
  }
  .failed {
    color: var(--_danger);
  }
`;
