import { css } from 'lit';

export const checkoutHeaderStyles = css`
  :host {
    display: block;
    border-bottom: 1px solid var(--_divider);
  }
  header {
    display: flex;
    align-items: center;
    gap: 0.75rem;
    padding: 1rem 1.25rem;
  }
  .logo {
    flex: none;
    width: 2.75rem;
    height: 2.75rem;
    border-radius: calc(var(--_radius) - 4px);
    object-fit: contain;
  }
  .monogram {
    display: grid;
    place-items: center;
    background: var(--_primary);
    color: var(--_on-primary);
    font-weight: 700;
    font-size: 1rem;
  }
  .merchant {
    flex: 1;
    min-width: 0;
  }
  h1 {
    font-size: 1rem;
    font-weight: 600;
    margin: 0;
    overflow-wrap: anywhere;
  }
  .test-mode {
    display: inline-block;
    white-space: nowrap;
    vertical-align: 0.1em;
    margin-inline-start: 0.375rem;
    padding: 0 0.5rem;
    border: 1px solid var(--_border);
    border-radius: 999px;
    font-size: 0.75rem;
    font-weight: 600;
    color: var(--_muted);
  }
  .total {
    margin: 0;
    font-size: 1.375rem;
    font-weight: 700;
    font-variant-numeric: tabular-nums;
    letter-spacing: -0.01em;
  }
  button.close {
    flex: none;
    width: 44px;
    height: 44px;
    padding: 0;
    background: transparent;
    color: var(--_muted);
    border-radius: 50%;
  }
  button.close:hover {
    background: var(--_surface);
  }
  svg {
    width: 1.25rem;
    height: 1.25rem;
    fill: none;
    stroke: currentColor;
    stroke-width: 2;
    stroke-linecap: round;
  }
  /* On a narrow screen the total has a row of its own under the logo, name and close button, so it is not squeezed between them. */
  @container (max-width: 360px) {
    header {
      display: grid;
      grid-template-columns: auto minmax(0, 1fr) auto;
      column-gap: 0.75rem;
      padding-inline: 1rem;
    }
    .merchant {
      display: contents;
    }
    h1 {
      grid-column: 2;
    }
    header:not(:has(.logo)) h1 {
      grid-column: 1 / 3;
    }
    button.close {
      grid-column: 3;
    }
    .total {
      grid-column: 1 / -1;
      font-size: 1.25rem;
    }
  }
`;
