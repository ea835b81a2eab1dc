import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';
import { bindKeys } from '../shared/binding.ts';
import { describeIssue } from '../shared/validation.ts';

/**
 * The validator every route uses: keys are bound case-insensitively (with aliases) to the schema, then zod
 * parses. A failure becomes one sentence naming the first bad field, which the envelope reports as VAL400.
 */
export class RequestValidationError extends Error {
  readonly statusCode = 400;
  readonly code = 'FST_ERR_VALIDATION';
}

export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    // reportInput lets the message tell a missing field from a wrong one. A validator that throws would have its
    // message sent to the client as the reason, so nothing here may throw: safeParse does not, bindKeys is total.
    const result = schema.safeParse(httpPart === 'body' ? bindKeys(data, schema) : data, { reportInput: true });
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(describeIssue(result.error.issues[0]!)) };
  };
