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
    gap: 0.25rem;
  }
  /*
   * A label and its amount share a line while both fit whole; on a narrower screen the amount moves under the
   * label, to the end of the line. Words and amounts are never split.
   */
  dl > div {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
  }
  dt {
    flex: 1 1 0;
    min-width: min-content;
  }
  dd {
    margin: 0;
    margin-inline-start: auto;
    overflow-wrap: anywhere;
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
