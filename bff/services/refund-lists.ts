import { invalid } from '../errors.ts';
import * as search from '../repositories/refund-search.ts';
import type { RefundFilter, RefundListRow, RefundPosition } from '../repositories/refund-search.ts';
import type { Storage } from '../storage/storage.ts';
import type { MerchantScope } from './order-lists.ts';

export type { RefundFilter, RefundListRow, RefundPosition };

const EXPORT_BATCH = 1000;

/** The merchant's refunds as pages and as an export, by keyset like the orders (`order-lists.ts`). */
export class RefundLists {
  constructor(private readonly storage: Storage) {}

  async page(scope: MerchantScope, filter: Omit<RefundFilter, 'merchantId' | 'mode'>, limit: number, after?: RefundPosition) {
    checkRange(filter);
    const rows = await search.listRefunds(this.storage, { ...filter, ...scope }, limit + 1, after);
    const more = rows.length > limit;
    const items = more ? rows.slice(0, limit) : rows;
    const last = items.at(-1);
    return { items, next: more && last ? { createdAt: last.created_at, id: last.id } : null };
  }

  /** Every refund the filter selects, newest first; a bad filter throws here, before any row is read. */
  all(scope: MerchantScope, filter: Omit<RefundFilter, 'merchantId' | 'mode'>): AsyncGenerator<RefundListRow> {
    checkRange(filter);
    return this.walk({ ...filter, ...scope });
  }

  private async *walk(filter: RefundFilter): AsyncGenerator<RefundListRow> {
    let after: RefundPosition | undefined;
    for (;;) {
      const rows = await search.listRefunds(this.storage, filter, EXPORT_BATCH, after);
      yield* rows;
      if (rows.length < EXPORT_BATCH) return;
      const last = rows.at(-1)!;
      after = { createdAt: last.created_at, id: last.id };
    }
  }
}

function checkRange(filter: Omit<RefundFilter, 'merchantId' | 'mode'>): void {
  if (filter.from && filter.to && filter.from >= filter.to) throw invalid('from must be earlier than to.', undefined, 'invalid_date_range');
}
