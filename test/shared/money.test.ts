import { describe, expect, it } from 'vitest';
import { currencyExponent, isCurrencyCode, toMajorUnits, toMinorUnits } from '../../shared/money.ts';

describe('money', () => {
  it('takes each currency exponent from Intl', () => {
    expect(currencyExponent('NGN')).toBe(2);
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('BHD')).toBe(3);
  });

  it('converts major units to integer minor units and back without float drift', () => {
    expect(toMinorUnits(5800.5, 'NGN')).toBe(580050);
    expect(toMinorUnits(0.1 + 0.2, 'USD')).toBe(30);
    expect(toMinorUnits(1.005, 'USD')).toBeUndefined();
    expect(toMinorUnits(100, 'JPY')).toBe(100);
    expect(toMinorUnits(1.5, 'JPY')).toBeUndefined();
    expect(toMajorUnits(580050, 'NGN')).toBe(5800.5);
  });

  it('knows ISO 4217 codes', () => {
    expect(isCurrencyCode('NGN')).toBe(true);
    expect(isCurrencyCode('ABC')).toBe(false);
    expect(isCurrencyCode('ngn')).toBe(false);
  });
});
