import { z } from 'zod';
import { successEnvelope } from '../envelope.ts';

/**
 * Lists of the operations API: newest first, a page of at most `limit` items, and the opaque `cursor` of the next
 * page (keyset paging: a page is never shifted by rows written meanwhile, and the thousandth page costs what the
 * first does). Date ranges are `from` (inclusive) and `to` (exclusive), ISO 8601 with a zone.
 */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 25;

/** ISO 8601 with a `Z` or an offset: every timestamp of the operations API, in and out. */
export const isoTimestamp = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time with a zone, e.g. 2026-11-28T10:00:00Z' });

/** A date-time or a plain date (its midnight UTC) in a query string. */
export const isoDateOrTime = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(T.+)?$/, { message: 'must be an ISO 8601 date (2026-11-28) or date-time with a zone' })
  .transform((text, context) => {
    const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(text) && !/(Z|[+-]\d{2}:?\d{2})$/i.test(text)) {
      context.addIssue({ code: 'custom', message: 'must carry a zone (Z or an offset such as +01:00)' });
      return z.NEVER;
    }
    if (Number.isNaN(date.getTime())) {
      context.addIssue({ code: 'custom', message: 'is not a real date' });
      return z.NEVER;
    }
    return date;
  });

const limit = z.coerce
  .number({ message: 'must be a whole number' })
  .int({ message: 'must be a whole number' })
  .min(1, { message: 'must be at least 1' })
  .max(MAX_PAGE_SIZE, { message: `must be at most ${MAX_PAGE_SIZE}` })
  .default(DEFAULT_PAGE_SIZE);

const cursor = z.string().trim().max(200, { message: 'is not a cursor this API gave' }).optional();

/** The members every list's query has. */
export const listQueryShape = {
  limit,
  cursor,
  from: isoDateOrTime.optional(),
  to: isoDateOrTime.optional(),
};

/** The page envelope of a list of `item`. */
export function pageEnvelope<T extends z.ZodType>(item: T, id: string) {
  return successEnvelope(z.object({ items: z.array(item), nextCursor: z.string().nullable() }).meta({ id }));
}

export type Page<T> = { items: T[]; nextCursor: string | null };
