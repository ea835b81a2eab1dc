import { svg, type SVGTemplateResult } from 'lit';
import { checkExpiry, normaliseExpiryYear, type CardBrand } from '../../shared/card.ts';

const NAMES: Record<Exclude<CardBrand, 'unknown'>, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  verve: 'Verve',
  amex: 'American Express',
};

/** Scheme names are brands, the same in every language. Saved cards may name a brand in any casing. */
export function brandName(brand: string): string {
  const key = brand.toLowerCase().replace(/[\s_-]/g, '');
  if (key === 'americanexpress') return NAMES.amex;
  return NAMES[key as keyof typeof NAMES] ?? brand;
}

export function isAmex(brand: string): boolean {
  return brandName(brand) === NAMES.amex;
}

/** A saved card's `MM/YY` expiry is in the past: the card cannot pay any more. */
export function savedCardExpired(expiry: string, now: Date = new Date()): boolean {
  const match = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(expiry.trim());
  if (!match) return false;
  return checkExpiry(Number(match[1]), normaliseExpiryYear(Number(match[2])), now) === 'past';
}

type Known = Exclude<CardBrand, 'unknown'>;

/**
 * Small marks drawn inline (no image requests, nothing for the CSP to allow), 32 by 20: each scheme's colours and
 * shape as customers know them from card terminals, simplified. Decorative: the brand's name is always said in text.
 */
const MARKS: Record<Known, SVGTemplateResult> = {
  visa: svg`<rect width="32" height="20" rx="3" fill="#1a1f71"/><text x="16" y="14" font-size="9" font-style="italic">VISA</text>`,
  mastercard: svg`<rect width="32" height="20" rx="3" fill="#252525"/><circle cx="12.5" cy="10" r="6" fill="#eb001b"/><circle cx="19.5" cy="10" r="6" fill="#f79e1b"/>`,
  verve: svg`<rect width="32" height="20" rx="3" fill="#00425f"/><circle cx="9" cy="10" r="4.5" fill="#ee312a"/><text x="21" y="13" font-size="7">verve</text>`,
  amex: svg`<rect width="32" height="20" rx="3" fill="#2e77bc"/><text x="16" y="13.5" font-size="7.5">AMEX</text>`,
};

/** The brand's mark as an inline SVG, or undefined for a brand without one. */
export function brandMark(brand: string): SVGTemplateResult | undefined {
  const key = (Object.keys(NAMES) as Known[]).find((known) => NAMES[known] === brandName(brand));
  return key && svg`<svg class="brand-mark" data-brand=${key} viewBox="0 0 32 20" width="32" height="20" aria-hidden="true" focusable="false">${MARKS[key]}</svg>`;
}
