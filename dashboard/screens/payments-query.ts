import type { OrderListQuery } from '../../shared/contract/orders.ts';
import type { PaymentFilters } from '../saved-views.ts';

/** An amount as the API reads it: major units, up to four decimals. */
export const AMOUNT = /^\d{1,15}(\.\d{1,4})?$/;

export const PAGE_SIZE = 25;

/** Local midnight of a `YYYY-MM-DD` date, `days` later, as ISO 8601 (the API wants a zone; the merchant means their own day). */
function localMidnight(date: string, days = 0): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return undefined;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days).toISOString();
}

/** The list's filters as the API's query (`to` is inclusive on screen, exclusive on the wire). Invalid amounts are left out. */
export function filterQuery(filters: PaymentFilters): Omit<Partial<Record<keyof OrderListQuery, string | string[]>>, 'limit' | 'cursor'> {
  const query: Record<string, string | string[]> = {};
  const q = filters.q.trim();
  if (q) query['q'] = q;
  if (filters.state.length > 0) query['state'] = filters.state;
  if (filters.method) query['method'] = filters.method;
  if (filters.currency) query['currency'] = filters.currency;
  const from = localMidnight(filters.from);
  if (from) query['from'] = from;
  const to = localMidnight(filters.to, 1);
  if (to) query['to'] = to;
  if (AMOUNT.test(filters.amountMin.trim())) query['amountMin'] = filters.amountMin.trim();
  if (AMOUNT.test(filters.amountMax.trim())) query['amountMax'] = filters.amountMax.trim();
  return query;
}

/** How many filters (besides the search) are set: the Filters toggle says it. */
export function activeFilters(filters: PaymentFilters): number {
  return [filters.state.length > 0, filters.method, filters.currency, filters.from, filters.to, filters.amountMin, filters.amountMax].filter(Boolean).length;
}
