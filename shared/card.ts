/**
 * Card checks shared by the widget (as the customer types) and the backend (before charging): Luhn, brand
 * detection, formatting, expiry and CVV rules. Nothing here ever logs or stores a number.
 */
export type CardBrand = 'visa' | 'mastercard' | 'verve' | 'amex' | 'unknown';

type BrandRule = { brand: Exclude<CardBrand, 'unknown'>; matches: (digits: string) => boolean; lengths: number[]; cvv: number; gaps: number[] };

/** Verve (Nigeria's domestic scheme) issues from these six-digit BIN ranges. */
const VERVE_RANGES: [number, number][] = [
  [506099, 506198],
  [507865, 507964],
  [650002, 650027],
];

function isVerve(digits: string): boolean {
  if (digits.length < 6) return /^(5060|5061|5078|5079|6500)/.test(digits);
  const bin = Number(digits.slice(0, 6));
  return VERVE_RANGES.some(([low, high]) => bin >= low && bin <= high);
}

/** Order matters: Verve is checked before the prefixes it shares with other schemes. */
const RULES: BrandRule[] = [
  { brand: 'verve', matches: isVerve, lengths: [16, 18, 19], cvv: 3, gaps: [4, 8, 12, 16] },
  { brand: 'amex', matches: (digits) => /^3[47]/.test(digits), lengths: [15], cvv: 4, gaps: [4, 10] },
  { brand: 'visa', matches: (digits) => digits.startsWith('4'), lengths: [13, 16, 19], cvv: 3, gaps: [4, 8, 12, 16] },
  {
    brand: 'mastercard',
    matches: (digits) => /^(5[1-5]|222[1-9]|22[3-9]|2[3-6]|27[01]|2720)/.test(digits),
    lengths: [16],
    cvv: 3,
    gaps: [4, 8, 12],
  },
];

export function digitsOnly(text: string): string {
  return text.replace(/\D/g, '');
}

function ruleFor(number: string): BrandRule | undefined {
  const digits = digitsOnly(number);
  return digits.length === 0 ? undefined : RULES.find((rule) => rule.matches(digits));
}

export function detectBrand(number: string): CardBrand {
  return ruleFor(number)?.brand ?? 'unknown';
}

export function passesLuhn(number: string): boolean {
  const digits = digitsOnly(number);
  if (digits.length < 12 || digits.length > 19) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Lengths a number of this brand may have; unknown brands accept the ISO/IEC 7812 range. */
export function allowedLengths(number: string): number[] {
  return ruleFor(number)?.lengths ?? [12, 13, 14, 15, 16, 17, 18, 19];
}

export function cvvLength(number: string): number {
  return ruleFor(number)?.cvv ?? 3;
}

/** Groups digits the way the brand prints them (`4242 4242 4242 4242`, `3782 822463 10005`). */
export function formatCardNumber(number: string): string {
  const digits = digitsOnly(number).slice(0, 19);
  const gaps = ruleFor(digits)?.gaps ?? [4, 8, 12, 16];
  let out = '';
  for (let index = 0; index < digits.length; index += 1) {
    if (gaps.includes(index)) out += ' ';
    out += digits[index];
  }
  return out;
}

export type CardNumberProblem = 'empty' | 'length' | 'luhn';

/**
 * The gateway's own published test card fails the Luhn check (its check digit is off), yet every client
 * integration uses it; in test mode it is accepted so the sandbox can approve it (protocol.md section 6).
 */
export const LUHN_EXEMPT_TEST_CARDS: readonly string[] = ['5123450000784608'];

export function checkCardNumber(number: string, options: { testMode?: boolean } = {}): CardNumberProblem | undefined {
  const digits = digitsOnly(number);
  if (digits.length === 0) return 'empty';
  if (!allowedLengths(digits).includes(digits.length)) return 'length';
  if (!passesLuhn(digits) && !(options.testMode && LUHN_EXEMPT_TEST_CARDS.includes(digits))) return 'luhn';
  return undefined;
}

/** Two- or four-digit years are accepted; 39 means 2039. */
export function normaliseExpiryYear(year: number): number {
  return year < 100 ? 2000 + year : year;
}

/** No real card expires further ahead than this. */
export const MAX_EXPIRY_YEARS_AHEAD = 20;

/**
 * A plausible way to write an expiry year: two digits (`39`) or four in this century (`2039`). Anything else
 * (`139`, `9999`) is a malformed field, not an expired card.
 */
export function isExpiryYearWritten(year: number): boolean {
  return Number.isInteger(year) && ((year >= 0 && year <= 99) || (year >= 2000 && year <= 2099));
}

export type ExpiryProblem = 'month' | 'year' | 'past' | 'too-far';

/** A card is valid through the last day of its expiry month; more than 20 years ahead is not a real card. */
export function checkExpiry(month: number, year: number, now: Date = new Date()): ExpiryProblem | undefined {
  if (!Number.isInteger(month) || month < 1 || month > 12) return 'month';
  if (!isExpiryYearWritten(year)) return 'year';
  const fullYear = normaliseExpiryYear(year);
  const currentYear = now.getUTCFullYear();
  const currentMonth = now.getUTCMonth() + 1;
  if (fullYear < currentYear || (fullYear === currentYear && month < currentMonth)) return 'past';
  if (fullYear > currentYear + MAX_EXPIRY_YEARS_AHEAD) return 'too-far';
  return undefined;
}

export function checkCvv(cvv: string, number: string): boolean {
  return new RegExp(`^\\d{${cvvLength(number)}}$`).test(cvv);
}

export function lastFour(number: string): string {
  return digitsOnly(number).slice(-4);
}

export function firstSix(number: string): string {
  return digitsOnly(number).slice(0, 6);
}
