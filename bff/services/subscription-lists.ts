import * as search from '../repositories/subscription-search.ts';
import type { SubscriptionFilter, SubscriptionListRow } from '../repositories/subscription-search.ts';
import type { OrderPosition } from '../repositories/order-search.ts';
import type { Storage } from '../storage/storage.ts';
import { checkDateRange, keysetPage, keysetWalk } from './keyset.ts';
import type { MerchantScope } from './order-lists.ts';

export type { SubscriptionListRow };
export type SubscriptionListFilter = Omit<SubscriptionFilter, 'merchantId' | 'mode'>;

const positionOf = (row: SubscriptionListRow): OrderPosition => ({ createdAt: row.created_at, id: row.id });

/** The merchant's subscriptions across its links: list and export. */
export class SubscriptionLists {
  constructor(private readonly storage: Storage) {}

  async page(scope: MerchantScope, filter: SubscriptionListFilter, limit: number, after?: OrderPosition) {
    checkDateRange(filter);
    return keysetPage((count, position) => search.listSubscriptions(this.storage, { ...filter, ...scope }, count, position), limit, after, positionOf);
  }

  all(scope: MerchantScope, filter: SubscriptionListFilter): AsyncGenerator<SubscriptionListRow> {
    checkDateRange(filter);
    return keysetWalk((count, position) => search.listSubscriptions(this.storage, { ...filter, ...scope }, count, position), positionOf);
  }
}
