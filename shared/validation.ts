import type { z } from 'zod';

/**
 * Turns a zod issue into the sentence the gateway's clients know: `The Name field is required.`
 * Field-level schemas give their own reason (`must be a valid URL.`) as the issue message when the default
 * would be vague; the sentence always names the field by its path.
 */
export function fieldName(path: readonly PropertyKey[]): string {
  return path.map((part) => (typeof part === 'number' ? `[${part}]` : String(part))).join('.').replace(/\.\[/g, '[');
}

export function describeIssue(issue: z.core.$ZodIssue): string {
  const field = fieldName(issue.path);
  if (field === '') {
    return issue.code === 'invalid_type' ? 'The request body must be a JSON object.' : `The request is invalid: ${issue.message}`;
  }
  return `The ${field} field ${reason(issue)}`;
}

const ZOD_DEFAULT_MESSAGE = /^(Invalid|Too (small|big)|Unrecognized)/;

function reason(issue: z.core.$ZodIssue): string {
  if (issue.input === undefined && issue.code !== 'custom' && issue.code !== 'unrecognized_keys') return 'is required.';
  // A schema's own wording (`must be a whole number`) beats zod's generic one.
  if (!ZOD_DEFAULT_MESSAGE.test(issue.message)) return issue.message.endsWith('.') ? issue.message : `${issue.message}.`;
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return 'is required.';
      return `must be ${article(issue.expected)}.`;
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1) return 'is required.';
      if (issue.origin === 'string') return `must be at least ${issue.minimum} characters long.`;
      if (issue.origin === 'array') return `must have at least ${issue.minimum} entries.`;
      return `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}.`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters long.`;
      if (issue.origin === 'array') return `must have at most ${issue.maximum} entries.`;
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}.`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}.`;
    case 'unrecognized_keys':
      return `has unknown keys: ${issue.keys.join(', ')}.`;
    default:
      return issue.message.endsWith('.') ? issue.message : `${issue.message}.`;
  }
}

function article(expected: string): string {
  const names: Record<string, string> = { string: 'a string', number: 'a number', int: 'a whole number', boolean: 'true or false', object: 'an object', array: 'a list' };
  return names[expected] ?? `of type ${expected}`;
}
