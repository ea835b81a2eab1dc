import { z } from 'zod';
import { currencyId } from './currencies.ts';
import { isCurrencyCode } from './money.ts';
import { redactCardData } from './redaction.ts';

/** Field building blocks shared by every request schema. Reasons are phrased to follow `The X field ...`. */

/**
 * C0 control characters have no place in a name or a reference, and NUL cannot even be stored (PostgreSQL text
 * refuses it). Free text (descriptions) may keep tab and line breaks.
 */
const NO_CONTROLS = /^[^\u0000-\u001f]*$/;
const NO_CONTROLS_BUT_LINES = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f]*$/;
const CONTROLS_MESSAGE = { message: 'must not contain control characters' };
type TextOptions = { multiline?: boolean };

/** True when a text holds a C0 control character other than tab and line breaks (what any stored text refuses). */
export const hasControlCharacters = (text: string): boolean => !NO_CONTROLS_BUT_LINES.test(text);

/** A required text field: blank or whitespace-only counts as missing, the way the gateway's form binder treats it. */
export const requiredText = (max: number, { multiline = false }: TextOptions = {}) =>
  z.string().trim().min(1).max(max).regex(multiline ? NO_CONTROLS_BUT_LINES : NO_CONTROLS, CONTROLS_MESSAGE);

/** An optional text field where the clients send `""` or `null` for "not given". */
export const optionalText = (max: number, { multiline = false }: TextOptions = {}) =>
  z.preprocess(blankToUndefined, z.string().trim().max(max).regex(multiline ? NO_CONTROLS_BUT_LINES : NO_CONTROLS, CONTROLS_MESSAGE).optional());

/**
 * The members of an object schema, each optional with blank text meaning "not given": the body of a partial
 * update, where an empty member keeps the current value rather than being reported as required.
 */
export function partialUpdate<T extends Record<string, z.ZodType>>(shape: T) {
  const members = Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, z.preprocess(blankToUndefined, field.optional())]));
  return z.object(members as unknown as { [K in keyof T]: z.ZodOptional<T[K]> });
}

/** Required free text that is stored (a name, a description): card data in it is masked before anything keeps it. */
export const requiredFreeText = (max: number, options: TextOptions = {}) => requiredText(max, options).transform(redactCardData);

/** Optional free text that is stored, masked the same way. */
export const optionalFreeText = (max: number, options: TextOptions = {}) =>
  optionalText(max, options).transform((text) => (text === undefined ? undefined : redactCardData(text)));

export function blankToUndefined(value: unknown): unknown {
  return value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;
}

export const currencyCode = z
  .string()
  .trim()
  .min(1)
  .transform((code) => code.toUpperCase())
  // Only codes with an ISO 4217 number: answers carry the currency's numeric id as well as its code.
  .refine((code) => isCurrencyCode(code) && currencyId(code) !== undefined, { message: 'must be an ISO 4217 currency code such as NGN or USD' });

export const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .regex(NO_CONTROLS, CONTROLS_MESSAGE)
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

/**
 * A number given as a JSON number or as a digit string (some clients quote numbers). The union, not a
 * preprocess, so the OpenAPI document shows both accepted forms.
 */
const numberOrDigits = (pattern: RegExp, message: string) =>
  z.union([z.number(), z.string().regex(pattern, { message })], { message }).transform((value) => (typeof value === 'string' ? Number(value) : value));

/** A positive amount in major units, as a JSON number or a numeric string. */
export const positiveAmount = numberOrDigits(/^\s*\d+(\.\d+)?\s*$/, 'must be a number').pipe(
  z.number({ message: 'must be a number' }).positive({ message: 'must be greater than 0' }).max(1e12, { message: 'is too large' }),
);

/** The range of a PostgreSQL `integer` column: a larger id or count would overflow it. */
export const INT4_MAX = 2_147_483_647;

/** A whole number given as a JSON number or a digit string, within the range an `integer` column holds. */
export const wholeNumber = numberOrDigits(/^\s*\d+\s*$/, 'must be a whole number').pipe(
  z
    .number({ message: 'must be a whole number' })
    .int({ message: 'must be a whole number' })
    .min(-INT4_MAX - 1, { message: 'is too small' })
    .max(INT4_MAX, { message: `must be at most ${INT4_MAX}` }),
);

/** A row id: a positive whole number that fits an `integer` column. */
export const positiveId = wholeNumber.pipe(z.number().min(1, { message: 'must be at least 1' }));
