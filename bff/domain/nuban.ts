import { randomInt } from 'node:crypto';

/**
 * Nigerian Uniform Bank Account Numbers: a 9-digit serial and a check digit computed over the bank's 3-digit
 * code and the serial with the CBN weights 3,7,3,3,7,3,3,7,3,3,7,3.
 */
const WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];

export function nubanCheckDigit(bankCode: string, serial: string): number {
  const digits = `${bankCode}${serial}`;
  if (!/^\d{12}$/.test(digits)) throw new Error('a NUBAN check digit needs a 3-digit bank code and a 9-digit serial');
  const sum = WEIGHTS.reduce((total, weight, index) => total + weight * Number(digits[index]), 0);
  return (10 - (sum % 10)) % 10;
}

export function isValidNuban(bankCode: string, account: string): boolean {
  return /^\d{10}$/.test(account) && nubanCheckDigit(bankCode, account.slice(0, 9)) === Number(account[9]);
}

export function newNuban(bankCode: string): string {
  const serial = String(randomInt(0, 1_000_000_000)).padStart(9, '0');
  return `${serial}${nubanCheckDigit(bankCode, serial)}`;
}
