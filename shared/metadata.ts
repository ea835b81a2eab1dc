import { z } from 'zod';
import { passesLuhn } from './card.ts';
import { hasControlCharacters } from './fields.ts';

/**
 * Free-form data clients attach to an order (`paymentMeta`) or to an event's details. It is stored as given, so
 * it is bounded on the way in (the schema below refuses what is too deep, too wide or too long) and scrubbed of
 * card data before it is stored (`scrubMetadata`): clients do put card numbers in places they should not.
 */
export const METADATA_LIMITS = { depth: 5, keys: 50, keyLength: 64, stringLength: 500, entries: 200 } as const;

/** Fragments that only card or secret fields contain, and whole words that mean the same but hide inside others. */
const SENSITIVE_FRAGMENTS = /card|cvv|cvc|expir|secret|passw|passcode|securitycode|pinblock|track2|apikey|privatekey/;
const SENSITIVE_WORDS = new Set(['pan', 'pin', 'cvn', 'csc', 'number', 'key', 'token', 'exp']);

/** True for a key that looks like it holds card data or a secret (`cardNumber`, `cvv`, `card_pin`, `pan`). */
export function isSensitiveKey(key: string): boolean {
  const compact = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (SENSITIVE_FRAGMENTS.test(compact)) return true;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((word) => SENSITIVE_WORDS.has(word));
}

const DIGIT_RUN = /\d(?:[ -]?\d)*/g;
const SECURITY_CODE = /\b(cvv2?|cvc2?|cvn|csc|security code)(\W{0,5})(\d{3,4})\b/gi;
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

/**
 * Masks every run of 13 to 19 digits (spaces or dashes between them allowed) that passes the Luhn check, wherever
 * it sits inside a longer run of digits, and the digits after a `cvv` label.
 */
export function redactCardNumbers(text: string): string {
  const masked = text.replace(DIGIT_RUN, (run) => {
    const positions: number[] = [];
    for (let index = 0; index < run.length; index += 1) if (run[index] !== ' ' && run[index] !== '-') positions.push(index);
    if (positions.length < 13) return run;
    const digits = positions.map((position) => run[position]!).join('');
    const hidden = new Array<boolean>(digits.length).fill(false);
    for (let start = 0; start + 13 <= digits.length; start += 1) {
      for (let length = Math.min(19, digits.length - start); length >= 13; length -= 1) {
        if (passesLuhn(digits.slice(start, start + length))) {
          hidden.fill(true, start, start + length);
          break;
        }
      }
    }
    const characters = [...run];
    positions.forEach((position, digit) => {
      if (hidden[digit]) characters[position] = '*';
    });
    return characters.join('');
  });
  return masked.replace(SECURITY_CODE, (_match, label: string, gap: string, code: string) => `${label}${gap}${'*'.repeat(code.length)}`);
}

/**
 * What may be stored of client metadata: card-like keys and `__proto__` dropped, text stripped of control
 * characters and card numbers masked, at any depth (bounded, in case a caller skipped the schema).
 */
export function scrubMetadata(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactCardNumbers(value.replace(CONTROLS, ''));
  if (value === null || typeof value !== 'object') return typeof value === 'number' || typeof value === 'boolean' ? value : null;
  if (depth >= METADATA_LIMITS.depth) return null;
  if (Array.isArray(value)) return value.slice(0, METADATA_LIMITS.entries).map((item) => scrubMetadata(item, depth + 1));
  const scrubbed: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (key === '__proto__' || isSensitiveKey(key) || hasControlCharacters(key) || /[\u0000\t\n\r]/.test(key)) continue;
    scrubbed[key] = scrubMetadata(item, depth + 1);
  }
  return scrubbed;
}

type Problem = { path: (string | number)[]; message: string };

/** The first way `value` breaks the limits, if any; stops as soon as it finds one, so deep input costs little. */
function findProblem(value: unknown, path: (string | number)[], depth: number, budget: { entries: number }): Problem | undefined {
  if (typeof value === 'string') {
    if (value.length > METADATA_LIMITS.stringLength) return { path, message: `must be at most ${METADATA_LIMITS.stringLength} characters long` };
    if (hasControlCharacters(value)) return { path, message: 'must not contain control characters' };
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > METADATA_LIMITS.depth) return { path, message: `must be nested at most ${METADATA_LIMITS.depth} levels deep` };
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  if (entries.length > METADATA_LIMITS.keys) return { path, message: `must have at most ${METADATA_LIMITS.keys} entries` };
  budget.entries -= entries.length;
  if (budget.entries < 0) return { path: path.slice(0, 1), message: `must have at most ${METADATA_LIMITS.entries} entries in all` };
  for (const [key, item] of entries) {
    if (typeof key === 'string') {
      if (key.length > METADATA_LIMITS.keyLength) return { path, message: `must have keys of at most ${METADATA_LIMITS.keyLength} characters` };
      if (/[\u0000-\u001f]/.test(key)) return { path, message: 'must not have keys with control characters' };
    }
    const problem = findProblem(item, [...path, key], depth + 1, budget);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * A bounded JSON object of client metadata: at most 5 levels deep, 50 entries per object or list, 200 in all,
 * keys up to 64 characters and texts up to 500, no control characters. Anything beyond is refused (VAL400).
 */
export const metadataSchema = z
  .record(z.string(), z.unknown())
  .superRefine((value, context) => {
    const problem = findProblem(value, [], 1, { entries: METADATA_LIMITS.entries });
    if (problem) context.addIssue({ code: 'custom', path: problem.path, message: problem.message, input: value });
  })
  .describe('Free-form metadata, bounded (5 levels, 50 entries per object, 200 in all, texts up to 500 characters). Card-like keys are dropped and card numbers masked before storage.');
