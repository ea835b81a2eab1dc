import { css, unsafeCSS } from 'lit';
import { FONT_STACKS, lightDark, PALETTE, RADIUS_PX, type PaletteName } from '../../shared/design-tokens.ts';

/** A palette pair as `light-dark()`: constants of shared/design-tokens.ts, never anything a merchant typed. */
const pair = (name: PaletteName) => unsafeCSS(lightDark(PALETTE[name]));

/**
 * Public theming API: `--checkout-*` custom properties (documented in widget/README.md) feed private `--_*`
 * variables that the components use; the defaults are the design tokens the hosted pages share
 * (shared/design-tokens.ts). Light and dark come from `light-dark()`, resolved by the `color-scheme` the shell sets
 * from its `theme` attribute: light unless the merchant asks for `dark` or `auto` (the system's). A merchant's
 * branding (brand colour, radius, font, density) arrives as the same public properties, set by `ck-checkout`.
 */
export const tokens = css`
  :host {
    --_font: var(--checkout-font-family, ${unsafeCSS(FONT_STACKS.system)});
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
    --_radius: var(--checkout-radius, ${unsafeCSS(`${RADIUS_PX}px`)});
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
