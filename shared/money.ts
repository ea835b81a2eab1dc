/**
 * Amounts travel as JSON numbers in major units; inside, they are integer minor units. The exponent comes from
 * Intl so that every ISO 4217 currency is handled the way browsers format it.
 */
const exponents = new Map<string, number>();

export function isCurrencyCode(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  return supportedCurrencies().has(code);
}

let supported: Set<string> | undefined;
function supportedCurrencies(): Set<string> {
  supported ??= new Set(Intl.supportedValuesOf('currency'));
  return supported;
}

export function currencyExponent(currency: string): number {
  let exponent = exponents.get(currency);
  if (exponent === undefined) {
    exponent =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    exponents.set(currency, exponent);
  }
  return exponent;
}

/**
 * Decimal places of an amount as it was written, whatever its size: `10000000.001` has 3. A double holds 15
 * significant digits exactly, so the amount is read to 15 first; what lies beyond is the noise of arithmetic done
 * in floating point by the client (`0.1 + 0.2` is 0.3), never a digit anyone typed.
 */
function decimalPlaces(amount: number): number {
  const [mantissa = '', exponent = '0'] = String(Math.abs(Number(amount.toPrecision(15)))).split('e');
  return Math.max(0, (mantissa.split('.')[1]?.length ?? 0) - Number(exponent));
}

/**
 * Major units (as sent on the wire) to integer minor units; undefined when the amount has more decimals than the
 * currency has (a tenth of a kobo is refused, never rounded), or is not a finite number.
 */
export function toMinorUnits(amount: number, currency: string): number | undefined {
  if (!Number.isFinite(amount)) return undefined;
  const exponent = currencyExponent(currency);
  if (decimalPlaces(amount) > exponent) return undefined;
  const scaled = Math.round(amount * 10 ** exponent);
  return Number.isSafeInteger(scaled) ? scaled : undefined;
}

/**
 * The largest amount one order or link may carry, in major units, per currency (README, "Amounts"): well above
 * any single checkout payment, low enough that a typing slip of a few zeros is refused rather than charged.
 */
export const MAXIMUM_AMOUNTS: Readonly<Record<string, number>> = {
  NGN: 100_000_000,
  GHS: 10_000_000,
  KES: 100_000_000,
  ZAR: 10_000_000,
  XOF: 500_000_000,
  USD: 1_000_000,
  EUR: 1_000_000,
  GBP: 1_000_000,
};

/** Any other currency: 10 billion minor units (USD-like currencies 100 million, JPY 10 billion). */
const DEFAULT_MAXIMUM_MINOR = 10_000_000_000;

export function maximumAmountMinor(currency: string): number {
  const major = MAXIMUM_AMOUNTS[currency];
  return major === undefined ? DEFAULT_MAXIMUM_MINOR : major * 10 ** currencyExponent(currency);
}

export function toMajorUnits(minor: number, currency: string): number {
  const exponent = currencyExponent(currency);
  return Number((minor / 10 ** exponent).toFixed(exponent));
}

export function formatMoney(minor: number, currency: string, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(toMajorUnits(minor, currency));
}
