/**
 * A merchant's branding (`<checkout-widget brand-color radius font density>`, the same options of `Checkout.open`)
 * crosses into the checkout frame as text: `readBrandTokens` keeps only values of a closed shape (a hex colour, a
 * number of pixels in range, a font name from the list, a density name). Read by the embed script, the frame bridge
 * and `ck-checkout` alike; design-tokens.ts turns what it keeps into styles. Zod-free and tiny: embed.js carries it.
 */
export const FONT_NAMES = ['system', 'humanist', 'geometric', 'rounded', 'serif'] as const;
export type FontName = (typeof FONT_NAMES)[number];

export const DENSITIES = ['comfortable', 'compact'] as const;
export type Density = (typeof DENSITIES)[number];

export const MAX_RADIUS_PX = 24;

/** The merchant's branding once read: every member is absent or valid. */
export interface BrandTokens {
  /** `#rrggbb`, lower case. */
  brandColor?: string;
  /** Corner radius in CSS pixels, 0 to 24. */
  radius?: number;
  font?: FontName;
  density?: Density;
}

/** `#rgb` or `#rrggbb` (any case) as `#rrggbb`; anything else (names, `rgb()`, `url()`, `;`) is not a colour here. */
export function readHexColor(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!match) return undefined;
  const hex = match[1]!.toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex}`;
}

/** A number of pixels (`8`, `8px`, `8.5`), 0 to 24; anything else is ignored. */
export function readRadius(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const match = /^(\d{1,2}(?:\.\d{1,2})?)(px)?$/.exec(text);
  if (!match) return undefined;
  const radius = Number(match[1]);
  return radius <= MAX_RADIUS_PX ? radius : undefined;
}

/** Reads the branding a merchant gave (attributes, options or the frame's settings), keeping only valid values. */
export function readBrandTokens(raw: { brandColor?: unknown; radius?: unknown; font?: unknown; density?: unknown }): BrandTokens {
  const tokens: BrandTokens = {};
  const brandColor = readHexColor(raw.brandColor);
  if (brandColor) tokens.brandColor = brandColor;
  const radius = readRadius(raw.radius);
  if (radius !== undefined) tokens.radius = radius;
  if ((FONT_NAMES as readonly unknown[]).includes(raw.font)) tokens.font = raw.font as FontName;
  if ((DENSITIES as readonly unknown[]).includes(raw.density)) tokens.density = raw.density as Density;
  return tokens;
}
