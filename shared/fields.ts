import { z } from 'zod';
import { isCurrencyCode } from './money.ts';

/** Field building blocks shared by every request schema. Reasons are phrased to follow `The X field ...`. */

/** A required text field: blank or whitespace-only counts as missing, the way the gateway's form binder treats it. */
export const requiredText = (max: number) => z.string().trim().min(1).max(max);

/** An optional text field where the clients send `""` or `null` for "not given". */
export const optionalText = (max: number) =>
  z.preprocess(blankToUndefined, z.string().trim().max(max).optional());

export function blankToUndefined(value: unknown): unknown {
  return value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;
}

export const currencyCode = z
  .string()
  .trim()
  .min(1)
  .transform((code) => code.toUpperCase())
  .refine(isCurrencyCode, { message: 'must be an ISO 4217 currency code such as NGN or USD' });

export const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine(
    (text) => {
      try {
        const url = new URL(text);
        return url.protocol === 'https:' || url.protocol === 'http:';
      } catch {
        return false;
      }
    },
    { message: 'must be an absolute http or https URL' },
  );

/** A positive amount in major units, as a JSON number or a numeric string (some clients quote it). */
export const positiveAmount = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value),
  z.number({ message: 'must be a number' }).positive({ message: 'must be greater than 0' }).max(1e12, { message: 'is too large' }),
);

/** A whole number given as a JSON number or a digit string. */
export const wholeNumber = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
  z.number({ message: 'must be a whole number' }).int({ message: 'must be a whole number' }),
);
