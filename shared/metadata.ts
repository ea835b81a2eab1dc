import { z } from 'zod';
import { hasControlCharacters } from './fields.ts';
import { redactCardData } from './redaction.ts';

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

const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

/**
 * What may be stored of client metadata: card-like keys and `__proto__` dropped, keys and texts stripped of control
 * characters and card data masked (`redactCardData`), at any depth (bounded, in case a caller skipped the schema).
 */
export function scrubMetadata(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactCardData(value.replace(CONTROLS, ''));
  // A card number sent as a JSON number is still one: a whole number of 12 digits or more is stored masked.
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) >= 1e11 ? redactCardData(String(value)) : value;
  if (value === null || typeof value !== 'object') return typeof value === 'boolean' ? value : null;
  if (depth >= METADATA_LIMITS.depth) return null;
  if (Array.isArray(value)) return value.slice(0, METADATA_LIMITS.entries).map((item) => scrubMetadata(item, depth + 1));
  const scrubbed: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (key === '__proto__' || isSensitiveKey(key) || hasControlCharacters(key) || /[\u0000\t\n\r]/.test(key)) continue;
    scrubbed[redactCardData(key)] = scrubMetadata(item, depth + 1);
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
