import { css } from 'lit';

export const checkoutStyles = css`
  :host {
    display: block;
    color-scheme: light;
    container-type: inline-size;
  }
  :host([theme='auto']) {
    color-scheme: light dark;
  }
  :host([theme='dark']) {
    color-scheme: dark;
  }
  .panel {
    max-width: var(--checkout-max-width, 30rem);
    margin: 0 auto;
    background: var(--_bg);
    color: var(--_text);
    border: 1px solid var(--_divider);
    border-radius: var(--_radius);
    box-shadow: var(--checkout-shadow, 0 1px 2px rgb(15 23 42 / 0.06), 0 8px 24px rgb(15 23 42 / 0.08));
    /* Inherited through every component: a word or amount wider than its line breaks rather than overflow. */
    overflow-wrap: break-word;
  }
  .skeleton {
    display: grid;
    place-items: center;
    min-height: 20rem;
    color: var(--_accent);
  }
  svg {
    width: 1.25rem;
    height: 1.25rem;
    fill: none;
    stroke: currentColor;
    stroke-width: 2;
    stroke-linecap: round;
    stroke-linejoin: round;
  }
  /* One column as wide as the panel, never wider: a long amount wraps instead of widening (and clipping) the view. */
  .body {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: var(--_space);
    padding: var(--_space);
  }
  .view-title {
    font-size: 1.125rem;
    margin: 0 0 -0.5rem;
  }
  .view-title:focus {
    outline: none;
  }
  .back {
    justify-self: start;
    justify-content: flex-start;
    text-align: start;
    margin-bottom: -0.75rem;
  }
  footer {
    display: flex;
    gap: 0.5rem;
    align-items: flex-start;
    padding: 0.75rem 1.25rem;
    border-top: 1px solid var(--_divider);
    border-radius: 0 0 calc(var(--_radius) - 1px) calc(var(--_radius) - 1px);
    background: var(--_surface);
    color: var(--_muted);
    font-size: 0.8125rem;
  }
  footer svg {
    flex: none;
    width: 1rem;
    height: 1rem;
    margin-top: 0.125rem;
  }
  ck-status-panel p {
    margin: 0 0 1rem;
  }
  .actions {
    display: grid;
    gap: 0.75rem;
    margin-top: 0.5rem;
  }
  .receipt {
    display: grid;
    gap: 0.25rem;
    margin: 0 0 1rem;
    padding: 0.75rem 0.875rem;
    background: var(--_surface);
    border-radius: calc(var(--_radius) - 2px);
    text-align: start;
  }
  .receipt div {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    gap: 0 1rem;
  }
  .receipt dt {
    color: var(--_muted);
  }
  .receipt dd {
    margin: 0;
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .notice {
    border-inline-start: 4px solid var(--_accent);
    background: var(--_surface);
    padding: 0.625rem 0.875rem;
    border-radius: 4px;
    text-align: start;
  }
  .alert {
    margin: 0;
    color: var(--_danger);
    font-weight: 500;
  }
  @container (max-width: 360px) {
    .body,
    footer {
      padding-inline: 1rem;
    }
  }
  .note {
    margin: 0;
    color: var(--_muted);
    font-size: 0.875rem;
  }
`;
