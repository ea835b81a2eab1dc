import { css } from 'lit';
import { pair, radius, systemFont } from './token-values.ts';

/**
 * The dashboard's private variables, from the checkout's design tokens (shared/design-tokens.ts); light and dark
 * through `light-dark()`, resolved by the `color-scheme` the shell sets from the theme switch. The test-mode
 * colours are the dashboard's own: amber, so test data is never mistaken for live.
 */
export const tokens = css`
  :host {
    --_font: ${systemFont};
    --_accent: ${pair('accent')};
    --_on-accent: ${pair('accentContrast')};
    --_primary: ${pair('primary')};
    --_on-primary: ${pair('primaryContrast')};
    --_bg: ${pair('background')};
    --_surface: ${pair('surface')};
    --_page: ${pair('page')};
    --_text: ${pair('text')};
    --_muted: ${pair('muted')};
    --_border: ${pair('border')};
    --_divider: ${pair('divider')};
    --_danger: ${pair('danger')};
    --_success: ${pair('success')};
    --_test-bg: light-dark(#fef3c7, #422006);
    --_test-text: light-dark(#78350f, #fde68a);
    --_test-edge: light-dark(#b45309, #f59e0b);
    --_radius: ${radius};
    --_focus: var(--_accent);
    --_control: 44px;
    font-family: var(--_font);
    color: var(--_text);
    line-height: 1.5;
  }
  :host([hidden]) {
    display: none !important;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  :focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  h1 {
    font-size: 1.5rem;
    line-height: 1.25;
    margin: 0 0 1rem;
  }
  h2 {
    font-size: 1.125rem;
    margin: 0 0 0.75rem;
  }
  a {
    color: var(--_accent);
    text-underline-offset: 0.2em;
  }
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
  .panel {
    background: var(--_bg);
    border: 1px solid var(--_divider);
    border-radius: var(--_radius);
    padding: 1rem;
    min-width: 0;
  }
  .muted {
    color: var(--_muted);
  }
  .error-message {
    color: var(--_danger);
    font-weight: 500;
  }
`;

export const controls = css`
  button,
  .button {
    font: inherit;
    font-weight: 600;
    min-height: var(--_control);
    padding: 0.375rem 1rem;
    border-radius: calc(var(--_radius) - 4px);
    border: 1px solid var(--_border);
    background: var(--_bg);
    color: var(--_text);
    cursor: pointer;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.5rem;
    text-decoration: none;
  }
  .primary {
    background: var(--_primary);
    color: var(--_on-primary);
    border-color: transparent;
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
  .field {
    display: grid;
    gap: 0.25rem;
    min-width: 0;
  }
  label,
  .label,
  legend {
    font-weight: 600;
    font-size: 0.9375rem;
  }
  .hint {
    color: var(--_muted);
    font-size: 0.875rem;
    margin: 0;
  }
  input,
  select {
    font: inherit;
    width: 100%;
    min-height: var(--_control);
    padding: 0.375rem 0.75rem;
    color: var(--_text);
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) - 4px);
  }
  input[type='checkbox'] {
    width: 1.25rem;
    min-height: 1.25rem;
    height: 1.25rem;
    margin: 0;
    accent-color: var(--_accent);
  }
  input[aria-invalid='true'] {
    border-color: var(--_danger);
    border-width: 2px;
  }
  .field-error {
    color: var(--_danger);
    font-size: 0.875rem;
    font-weight: 500;
    margin: 0;
  }
`;
