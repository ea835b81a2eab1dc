import { z } from 'zod';
import { ERROR_REASONS } from './contract/reasons.ts';

/** The closed set of envelope codes of protocol.md section 1, with the HTTP status each one travels with. */
export const SUCCESS_CODES = {
  OK: '00',
  ORDER_CREATED: '01',
  PENDING_AUTHENTICATION: '02',
} as const;

export const ERROR_CODES = {
  VAL400: 400,
  AUTH401: 401,
  AUTH403: 403,
  NF404: 404,
  CON409: 409,
  IDEM422: 422,
  RATE429: 429,
  ERR500: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export const errorReasonSchema = z.enum(ERROR_REASONS);
export const errorCodeSchema = z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]);

/** Every failed response: no `data` member; 5xx answers carry a request id to quote. */
export const errorEnvelopeSchema = z
  .object({
    status: z.literal('failed'),
    statusCode: errorCodeSchema,
    message: z.string(),
    /** Why, from a closed set (`shared/contract/reasons.ts`): what a client maps to its own words. */
    reason: errorReasonSchema.optional(),
    requestId: z.string().optional(),
  })
  .meta({ id: 'ErrorEnvelope' });
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** A successful envelope around `data`. */
export function successEnvelope<T extends z.ZodType>(data: T, statusCode: z.ZodType<string> = z.literal('00')) {
  return z.object({
    status: z.literal('success'),
    statusCode,
    message: z.string(),
    data,
  });
}
