import { css } from 'lit';

export const transferDetailsStyles = css`
  :host {
    display: block;
  }
  .stack {
    display: grid;
    gap: 1rem;
  }
  p {
    margin: 0;
  }
  dl {
    margin: 0;
    border: 1px solid var(--_divider);
    border-radius: calc(var(--_radius) - 2px);
    overflow: hidden;
  }
  .row {
    display: grid;
    gap: 0.125rem;
    padding: 0.625rem 0.875rem;
  }
  .row + .row {
    border-top: 1px solid var(--_divider);
  }
  dt {
    color: var(--_muted);
    font-size: 0.875rem;
  }
  dd {
    margin: 0;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.25rem 0.75rem;
    font-weight: 600;
    font-size: 1.0625rem;
    font-variant-numeric: tabular-nums;
  }
  dd span {
    min-width: 0;
    overflow-wrap: anywhere;
  }
  .account {
    font-size: 1.375rem;
    letter-spacing: 0.06em;
  }
  button.copy {
    min-height: 36px;
    min-width: 6.5rem;
    padding: 0.25rem 0.75rem;
    font-size: 0.875rem;
  }
  .copy-failed {
    color: var(--_muted);
    font-size: 0.875rem;
  }
  button.copy.copied {
    color: var(--_success);
    border-color: currentColor;
  }
  button.copy svg {
    width: 1rem;
    height: 1rem;
    fill: none;
    stroke: currentColor;
    stroke-width: 2.5;
    stroke-linecap: round;
    stroke-linejoin: round;
  }
  .timer {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    justify-content: space-between;
    gap: 0.25rem 1rem;
    background: var(--_surface);
    border-radius: calc(var(--_radius) - 2px);
    padding: 0.625rem 0.875rem;
  }
  .timer strong {
    font-size: 1.25rem;
    font-variant-numeric: tabular-nums;
  }
  .timer .until {
    color: var(--_muted);
    font-size: 0.875rem;
  }
  .urgent strong {
    color: var(--_danger);
  }
  .notice {
    border-inline-start: 4px solid var(--_accent);
    background: var(--_surface);
    padding: 0.625rem 0.875rem;
    border-radius: 4px;
  }
  .waiting {
    display: flex;
    gap: 0.75rem;
    align-items: center;
    padding: 0.75rem 0.875rem;
    border: 1px dashed var(--_border);
    border-radius: calc(var(--_radius) - 2px);
  }
`;
