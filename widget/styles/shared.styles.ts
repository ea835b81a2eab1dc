import { css } from 'lit';

/**
 * The styles the components share. The design tokens (`tokens`) live in tokens.styles.ts, the one stylesheet that
 * interpolates constants as raw CSS, which the build's template minifier leaves alone (see vite.config.ts).
 */
export { tokens } from './tokens.styles.ts';

/** Card brand marks (components/brand.ts): their lettering. */
export const brandMarks = css`
  .brand-mark text {
    font-family: Arial, sans-serif;
    font-weight: 700;
    fill: #fff;
    text-anchor: middle;
  }
`;

export const visuallyHidden = css`
  .visually-hidden {
    position: absolute !important;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
    border: 0;
  }
`;

export const buttons = css`
  button,
  .button {
    font: inherit;
    font-weight: 600;
    min-height: var(--_control);
    padding: 0.375rem 1.125rem;
    border-radius: calc(var(--_radius) - 4px);
    border: 1px solid transparent;
    cursor: pointer;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.5rem;
    text-decoration: none;
    transition: background-color 120ms ease, box-shadow 120ms ease;
  }
  .primary {
    width: 100%;
    background: var(--_primary);
    color: var(--_on-primary);
  }
  .primary:hover:not([disabled]) {
    background: color-mix(in srgb, var(--_primary) 88%, var(--_text));
  }
  .secondary {
    background: transparent;
    color: var(--_text);
    border-color: var(--_border);
  }
  .link {
    background: none;
    border: none;
    color: var(--_accent);
    padding: 0.25rem 0;
    min-height: 24px;
    text-decoration: underline;
    text-underline-offset: 0.2em;
  }
  button[disabled] {
    cursor: progress;
    opacity: 0.8;
  }
  :focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
`;

export const fields = css`
  .field {
    display: grid;
    gap: 0.25rem;
    min-width: 0;
  }
  label,
  .label {
    font-weight: 600;
    font-size: 0.9375rem;
  }
  .hint {
    color: var(--_muted);
    font-size: 0.875rem;
  }
  input {
    font: inherit;
    font-size: 1rem;
    width: 100%;
    min-height: var(--_control);
    padding: 0.375rem 0.75rem;
    color: var(--_text);
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) - 4px);
  }
  input:focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 1px;
  }
  input[aria-invalid='true'] {
    border-color: var(--_danger);
    border-width: 2px;
  }
  .error {
    color: var(--_danger);
    font-size: 0.875rem;
    font-weight: 500;
    margin: 0;
    display: flex;
    gap: 0.375rem;
    align-items: flex-start;
  }
  .error::before {
    content: '!';
    flex: none;
    display: inline-grid;
    place-items: center;
    width: 1.125rem;
    height: 1.125rem;
    margin-top: 0.125rem;
    border-radius: 50%;
    background: var(--_danger);
    color: var(--_bg);
    font-size: 0.75rem;
    font-weight: 700;
  }
`;

export const spinner = css`
  .spinner {
    width: 1.25rem;
    height: 1.25rem;
    border-radius: 50%;
    border: 3px solid color-mix(in srgb, currentColor 25%, transparent);
    border-top-color: currentColor;
    animation: spin 0.8s linear infinite;
    flex: none;
  }
  @keyframes spin {
    to {
      transform: rotate(1turn);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation-duration: 2.4s;
    }
  }
`;

/** A group of choices (payment options, saved cards): a borderless fieldset of stacked radio rows. */
export const choiceGroup = css`
  :host {
    display: block;
  }
  fieldset {
    border: 0;
    margin: 0;
    padding: 0;
    min-width: 0;
    display: grid;
    gap: 0.5rem;
  }
  legend {
    font-weight: 600;
    padding: 0;
    margin-bottom: 0.5rem;
  }
`;
