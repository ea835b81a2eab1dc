import { css } from 'lit';
import { pair, radius, systemFont } from './token-values.ts';

/**
 * Public theming API: `--checkout-*` custom properties (documented in widget/README.md) feed private `--_*`
 * variables that the components use; the defaults are the design tokens the hosted pages share
 * (shared/design-tokens.ts). Light and dark come from `light-dark()`, resolved by the `color-scheme` the shell sets
 * from its `theme` attribute: light unless the merchant asks for `dark` or `auto` (the system's). A merchant's
 * branding (brand colour, radius, font, density) arrives as the same public properties, set by `ck-checkout`.
 */
export const tokens = css`
  :host {
    --_font: var(--checkout-font-family, ${systemFont});
    --_accent: var(--checkout-accent, ${pair('accent')});
    --_on-accent: var(--checkout-accent-contrast, ${pair('accentContrast')});
    /* Filled buttons: the brand colour when there is one, else the accent, else a saturated fill in both schemes. */
    --_primary: var(--checkout-primary, var(--checkout-accent, ${pair('primary')}));
    --_on-primary: var(--checkout-primary-contrast, var(--checkout-accent-contrast, ${pair('primaryContrast')}));
    --_bg: var(--checkout-background, ${pair('background')});
    --_surface: var(--checkout-surface, ${pair('surface')});
    --_text: var(--checkout-text, ${pair('text')});
    --_muted: var(--checkout-muted, ${pair('muted')});
    --_border: var(--checkout-border, ${pair('border')});
    --_divider: var(--checkout-divider, ${pair('divider')});
    --_danger: var(--checkout-danger, ${pair('danger')});
    --_success: var(--checkout-success, ${pair('success')});
    --_radius: var(--checkout-radius, ${radius});
    --_focus: var(--checkout-focus-color, var(--_accent));
    /* Density: main actions and inputs (44 px, or 40 px compact) and the space between a view's blocks. */
    --_control: var(--checkout-control-height, 44px);
    --_space: var(--checkout-spacing, 1.25rem);
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
