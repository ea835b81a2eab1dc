import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';
import { bindKeys } from '../shared/binding.ts';
import { describeIssue, fieldName } from '../shared/validation.ts';

/**
 * The validator every route uses: keys are bound case-insensitively (with aliases) to the schema, then zod
 * parses. A failure becomes one sentence naming the first bad field, which the envelope reports as VAL400.
 */
export class RequestValidationError extends Error {
  readonly statusCode = 400;
  readonly code = 'FST_ERR_VALIDATION';
}

type PathLink = { parent: PathLink | undefined; key: string | number } | undefined;

function pathOf(link: PathLink): (string | number)[] {
  const path: (string | number)[] = [];
  for (let current = link; current; current = current.parent) path.unshift(current.key);
  return path;
}

/**
 * Where a request holds text no storage can keep: a lone UTF-16 surrogate (a JSON `"\ud800"`) in any member
 * name or text, and, when `refuseNul` is set, a NUL character. Returns the path of the first such text, or
 * undefined. Walks without recursion, so a deeply nested body cannot exhaust the stack.
 */
export function findUnstorableText(value: unknown, refuseNul: boolean): (string | number)[] | undefined {
  const unstorable = (text: string) => !text.isWellFormed() || (refuseNul && text.includes('\u0000'));
  const pending: [unknown, PathLink][] = [[value, undefined]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, link] = next;
    if (typeof item === 'string') {
      if (unstorable(item)) return pathOf(link);
    } else if (item !== null && typeof item === 'object') {
      const list = Array.isArray(item);
      for (const [key, child] of Object.entries(item)) {
        if (!list && unstorable(key)) return pathOf(link);
        pending.push([child, { parent: link, key: list ? Number(key) : key }]);
      }
    }
  }
  return undefined;
}

/** The VAL400 for text `findUnstorableText` found. */
export function unstorableTextError(path: (string | number)[]): RequestValidationError {
  const where = path.length === 0 ? 'The request' : `The ${fieldName(path)} field`;
  return new RequestValidationError(`${where} must be valid text: it holds a NUL character or an unpaired UTF-16 surrogate.`);
}

export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    // Checked once here for every route, before any schema: such text would fail in the database, not in zod.
    // NUL is refused in addresses and headers; a body's fields refuse control characters by their own schema.
    const unstorable = findUnstorableText(data, httpPart !== 'body');
    if (unstorable) return { error: unstorableTextError(unstorable) };
    // reportInput lets the message tell a missing field from a wrong one. A validator that throws would have its
    // message sent to the client as the reason, so nothing here may throw: safeParse does not, bindKeys is total.
    const result = schema.safeParse(httpPart === 'body' ? bindKeys(data, schema) : data, { reportInput: true });
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(describeIssue(result.error.issues[0]!)) };
  };
