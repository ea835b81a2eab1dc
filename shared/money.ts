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

/** Major units (as sent on the wire) to integer minor units; undefined when the amount has more decimals than the currency allows. */
export function toMinorUnits(amount: number, currency: string): number | undefined {
  const exponent = currencyExponent(currency);
  const scaled = Math.round(amount * 10 ** exponent);
  if (!Number.isSafeInteger(scaled)) return undefined;
  if (Math.abs(scaled / 10 ** exponent - amount) > 1e-9 * Math.max(1, Math.abs(amount))) return undefined;
  return scaled;
}

export function toMajorUnits(minor: number, currency: string): number {
  const exponent = currencyExponent(currency);
  return Number((minor / 10 ** exponent).toFixed(exponent));
}

export function formatMoney(minor: number, currency: string, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(toMajorUnits(minor, currency));
}
