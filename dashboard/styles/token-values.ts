import { unsafeCSS, type CSSResult } from 'lit';
import { FONT_STACKS, lightDark, PALETTE, RADIUS_PX, type PaletteName } from '../../shared/design-tokens.ts';

/**
 * The shared design tokens as CSS values (constants only), apart from the stylesheets so the build's template
 * minifier, which leaves alone any module that turns strings into CSS, minifies those.
 */
export const pair = (name: PaletteName): CSSResult => unsafeCSS(lightDark(PALETTE[name]));
export const systemFont: CSSResult = unsafeCSS(FONT_STACKS.system);
export const radius: CSSResult = unsafeCSS(`${RADIUS_PX}px`);
