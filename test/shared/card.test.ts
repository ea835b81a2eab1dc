import { describe, expect, it } from 'vitest';
import { checkCardNumber, checkCvv, checkExpiry, detectBrand, formatCardNumber, passesLuhn } from '../../shared/card.ts';

describe('card checks', () => {
  it.each([
    ['4242424242424242', 'visa'],
    ['5123450000784608', 'mastercard'],
    ['2221000000000009', 'mastercard'],
    ['5061460410120223210', 'verve'],
    ['6500020000000000', 'verve'],
    ['378282246310005', 'amex'],
    ['6011111111111117', 'unknown'],
  ])('recognises %s as %s', (number, brand) => {
    expect(detectBrand(number)).toBe(brand);
  });

  it('accepts numbers that pass the Luhn check and rejects one digit off', () => {
    expect(passesLuhn('4242 4242 4242 4242')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(checkCardNumber('4242424242424241')).toBe('luhn');
    expect(checkCardNumber('42424242')).toBe('length');
    expect(checkCardNumber('')).toBe('empty');
    expect(checkCardNumber('4111 1111 1111 1111')).toBeUndefined();
  });

  it("accepts the gateway's published test card, whose check digit is off, in test mode only", () => {
    expect(checkCardNumber('5123 4500 0078 4608', { testMode: true })).toBeUndefined();
    expect(checkCardNumber('5123 4500 0078 4608')).toBe('luhn');
  });

  it('groups digits the way each brand prints them', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumber('42a42')).toBe('4242');
  });

  it('requires four CVV digits for Amex and three for others', () => {
    expect(checkCvv('1234', '378282246310005')).toBe(true);
    expect(checkCvv('123', '378282246310005')).toBe(false);
    expect(checkCvv('193', '5123450000784608')).toBe(true);
    expect(checkCvv('1934', '5123450000784608')).toBe(false);
  });

  it('accepts a card through the last day of its expiry month, and refuses past or far-off dates', () => {
    const now = new Date(Date.UTC(2026, 10, 22));
    expect(checkExpiry(11, 26, now)).toBeUndefined();
    expect(checkExpiry(10, 2026, now)).toBe('past');
    expect(checkExpiry(1, 39, now)).toBeUndefined();
    expect(checkExpiry(13, 30, now)).toBe('month');
    expect(checkExpiry(1, 2060, now)).toBe('too-far');
  });
});
