import { unsafeCSS, type CSSResult } from 'lit';
import { FONT_STACKS, lightDark, PALETTE, RADIUS_PX, type PaletteName } from '../../shared/design-tokens.ts';

/**
 * The design tokens of shared/design-tokens.ts as CSS values for the `tokens` stylesheet: constants, never anything
 * a merchant typed. Kept out of shared.styles.ts so that the build's template minifier, which leaves alone any
 * module that turns strings into CSS, minifies the stylesheets themselves.
 */
export const pair = (name: PaletteName): CSSResult => unsafeCSS(lightDark(PALETTE[name]));
export const systemFont: CSSResult = unsafeCSS(FONT_STACKS.system);
export const radius: CSSResult = unsafeCSS(`${RADIUS_PX}px`);
