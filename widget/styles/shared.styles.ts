import { css } from 'lit';

/**
 * Public theming API: `--checkout-*` custom properties (documented in widget/README.md) feed private `--_*`
 * variables that the components use. Light and dark come from `light-dark()`, resolved by the `color-scheme` the
 * shell sets from its `theme` attribute: light unless the merchant asks for `dark` or `auto` (the system's).
 */
export const tokens = css`
  :host {
    --_font: var(--checkout-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif);
    --_accent: var(--checkout-accent, light-dark(#4338ca, #a5b4fc));
    --_on-accent: var(--checkout-accent-contrast, light-dark(#ffffff, #1e1b4b));
    /*
     * Filled buttons. In the dark scheme the accent is a pale tint (it must read as text on the dark background),
     * and a pale button with dark text looks disabled: the primary button keeps a saturated fill with white text
     * (6.3:1). A merchant's --checkout-accent themes both.
     */
    --_primary: var(--checkout-accent, light-dark(#4338ca, #4f46e5));
    --_on-primary: var(--checkout-accent-contrast, #ffffff);
    --_bg: var(--checkout-background, light-dark(#ffffff, #0f172a));
    --_surface: var(--checkout-surface, light-dark(#f4f6fb, #1e293b));
    --_text: var(--checkout-text, light-dark(#0f172a, #f1f5f9));
    --_muted: var(--checkout-muted, light-dark(#475569, #cbd5e1));
    --_border: var(--checkout-border, light-dark(#64748b, #94a3b8));
    --_divider: var(--checkout-divider, light-dark(#e2e8f0, #334155));
    --_danger: var(--checkout-danger, light-dark(#b91c1c, #fca5a5));
    --_success: var(--checkout-success, light-dark(#15803d, #86efac));
    --_radius: var(--checkout-radius, 12px);
    --_focus: var(--checkout-focus-color, var(--_accent));
    font-family: var(--_font);
    color: var(--_text);
    line-height: 1.5;
    -webkit-text-size-adjust: 100%;
  }
  :host([hidden]) {
    display: none !important;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
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
    min-height: 44px;
    padding: 0.625rem 1.125rem;
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
    min-height: 44px;
    padding: 0.5rem 0.75rem;
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
