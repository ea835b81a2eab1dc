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
