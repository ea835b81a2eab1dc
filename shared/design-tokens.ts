/**
 * The checkout's design tokens, the one source of its colours, radius and fonts: the widget's styles
 * (`widget/styles/shared.styles.ts`) and the hosted pages' stylesheet (`bff/pages/pages.css`, given these as
 * `--ck-*` variables by `pageTokensCss`) are both built from them. Zod-free: the widget imports it at run time.
 *
 * The merchant's branding is read by `readBrandTokens` (brand-tokens.ts, small enough for the embed script) and
 * turned here by `brandProperties` into custom-property values built from it, never the merchant's text.
 */
import { type BrandTokens, type FontName } from './brand-tokens.ts';

export { readBrandTokens, type BrandTokens } from './brand-tokens.ts';

/** [light, dark] pairs. Text colours keep 4.5:1 on `background`, `surface` and `page` in their scheme. */
export const PALETTE = {
  accent: ['#4338ca', '#a5b4fc'],
  accentContrast: ['#ffffff', '#1e1b4b'],
  /** Filled buttons: the dark scheme keeps a saturated fill with white text (6.3:1), a pale one looks disabled. */
  primary: ['#4338ca', '#4f46e5'],
  primaryContrast: ['#ffffff', '#ffffff'],
  background: ['#ffffff', '#0f172a'],
  surface: ['#f4f6fb', '#1e293b'],
  /** Around the panel, on the checkout's own pages. */
  page: ['#eef1f7', '#020617'],
  text: ['#0f172a', '#f1f5f9'],
  muted: ['#475569', '#cbd5e1'],
  border: ['#64748b', '#94a3b8'],
  divider: ['#e2e8f0', '#334155'],
  danger: ['#b91c1c', '#fca5a5'],
  success: ['#15803d', '#86efac'],
} as const satisfies Record<string, readonly [string, string]>;
export type PaletteName = keyof typeof PALETTE;

export const RADIUS_PX = 12;
export const MAX_WIDTH = '30rem';

/** Font stacks a merchant may choose by name: fonts installed on the customer's device only, nothing downloaded. */
export const FONT_STACKS: Record<FontName, string> = {
  system: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  humanist: 'Seravek, Ubuntu, Calibri, sans-serif',
  geometric: 'Avenir, Montserrat, Corbel, sans-serif',
  rounded: 'ui-rounded, Quicksand, Comfortaa, sans-serif',
  serif: 'Charter, Cambria, Georgia, serif',
};

export const lightDark = ([light, dark]: readonly [string, string]): string => `light-dark(${light}, ${dark})`;

type Rgb = [number, number, number];
const toRgb = (hex: string): Rgb => [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16)) as Rgb;
const toHex = (rgb: Rgb): string => `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;

function luminance(hex: string): number {
  const [r, g, b] = toRgb(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours. */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The colour mixed toward `toward` in small steps until it reaches 4.5:1 against `against`. */
function readableOn(color: string, against: string, toward: string): string {
  const from = toRgb(color);
  const to = toRgb(toward);
  for (let step = 0; step <= 20; step += 1) {
    const mixed = toHex(from.map((channel, index) => channel + ((to[index]! - channel) * step) / 20) as Rgb);
    if (contrast(mixed, against) >= 4.5) return mixed;
  }
  return toward;
}

/** White or black, whichever reads better on the colour (at least 4.5:1 for any colour). */
const textOn = (color: string): string => (contrast(color, '#ffffff') >= contrast(color, '#000000') ? '#ffffff' : '#000000');

/**
 * The public custom properties the branding sets on the checkout (widget/README.md "Theming"): the brand colour
 * fills the main buttons in both schemes, with white or black text, whichever contrasts more; links, selection and
 * focus take it darkened (light scheme) or lightened (dark scheme) until they read at 4.5:1.
 */
export function brandProperties(tokens: BrandTokens): Record<string, string> {
  const properties: Record<string, string> = {};
  if (tokens.brandColor) {
    const brand = tokens.brandColor;
    const accent: [string, string] = [readableOn(brand, PALETTE.background[0], '#000000'), readableOn(brand, PALETTE.background[1], '#ffffff')];
    properties['--checkout-primary'] = brand;
    properties['--checkout-primary-contrast'] = textOn(brand);
    properties['--checkout-accent'] = lightDark(accent);
    properties['--checkout-accent-contrast'] = lightDark([textOn(accent[0]), textOn(accent[1])]);
  }
  if (tokens.radius !== undefined) properties['--checkout-radius'] = `${tokens.radius}px`;
  if (tokens.font) properties['--checkout-font-family'] = FONT_STACKS[tokens.font];
  if (tokens.density === 'compact') {
    properties['--checkout-control-height'] = '40px';
    properties['--checkout-spacing'] = '0.875rem';
  }
  return properties;
}

/** Every property `brandProperties` may set, so a branding taken away is removed too. */
export const BRAND_PROPERTIES = [
  '--checkout-primary',
  '--checkout-primary-contrast',
  '--checkout-accent',
  '--checkout-accent-contrast',
  '--checkout-radius',
  '--checkout-font-family',
  '--checkout-control-height',
  '--checkout-spacing',
] as const;

/** The hosted pages' variables (`--ck-*`), prepended to their stylesheet by the server. */
export function pageTokensCss(): string {
  const colours = Object.entries(PALETTE).map(([name, pair]) => `  --ck-${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}: ${lightDark(pair)};`);
  return `:root {\n${colours.join('\n')}\n  --ck-radius: ${RADIUS_PX}px;\n  --ck-max-width: ${MAX_WIDTH};\n  --ck-font: ${FONT_STACKS.system};\n}\n`;
}
