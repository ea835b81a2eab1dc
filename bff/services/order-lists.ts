import { invalid } from '../errors.ts';
import * as search from '../repositories/order-search.ts';
import type { Storage } from '../storage/storage.ts';
import type { OrderFilter, OrderListRow, OrderPosition } from '../repositories/order-search.ts';

export type { OrderFilter, OrderListRow, OrderPosition };

/** Whose data a read may see: one merchant in one mode (an api-key's, or a signed-in team member's chosen mode). */
export type MerchantScope = { merchantId: number; mode: 'test' | 'live' };

/** The rows an export reads per statement: enough to stream fast, few enough that memory stays flat. */
const EXPORT_BATCH = 1000;

/**
 * The merchant's orders as lists, searches and exports. A page is read with one row more than asked, which says
 * whether another follows; an export walks the same order by keyset, a batch at a time, so its memory does not
 * grow with the number of rows.
 */
export class OrderLists {
  constructor(private readonly storage: Storage) {}

  async page(scope: MerchantScope, filter: Omit<OrderFilter, 'merchantId' | 'mode'>, limit: number, after?: OrderPosition) {
    checkRange(filter);
    const rows = await search.listOrders(this.storage, { ...filter, ...scope }, limit + 1, after);
    const more = rows.length > limit;
    const items = more ? rows.slice(0, limit) : rows;
    const last = items.at(-1);
    return { items, next: more && last ? { createdAt: last.created_at, id: last.id } : null };
  }

  /** Every order the filter selects, newest first; a bad filter throws here, before any row is read. */
  all(scope: MerchantScope, filter: Omit<OrderFilter, 'merchantId' | 'mode'>): AsyncGenerator<OrderListRow> {
    checkRange(filter);
    return this.walk({ ...filter, ...scope });
  }

  private async *walk(filter: OrderFilter): AsyncGenerator<OrderListRow> {
    let after: OrderPosition | undefined;
    for (;;) {
      const rows = await search.listOrders(this.storage, filter, EXPORT_BATCH, after);
      yield* rows;
      if (rows.length < EXPORT_BATCH) return;
      const last = rows.at(-1)!;
      after = { createdAt: last.created_at, id: last.id };
    }
  }
}

function checkRange(filter: Omit<OrderFilter, 'merchantId' | 'mode'>): void {
  if (filter.from && filter.to && filter.from >= filter.to) throw invalid('from must be earlier than to.', undefined, 'invalid_date_range');
  if (filter.amountMinMinor !== undefined && filter.amountMaxMinor !== undefined && filter.amountMinMinor > filter.amountMaxMinor) {
    throw invalid('amountMin must not be more than amountMax.', undefined, 'invalid_field');
  }
}
