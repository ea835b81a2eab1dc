import { notFound } from '../errors.ts';
import * as search from '../repositories/link-search.ts';
import type { LinkFilter, LinkListRow } from '../repositories/link-search.ts';
import type { OrderPosition } from '../repositories/order-search.ts';
import type { Storage } from '../storage/storage.ts';
import { checkDateRange, keysetPage } from './keyset.ts';
import type { MerchantScope, OrderFilter, OrderLists } from './order-lists.ts';

export type { LinkListRow };
export type LinkListFilter = Omit<LinkFilter, 'merchantId' | 'mode'>;

const positionOf = (row: LinkListRow): OrderPosition => ({ createdAt: row.created_at, id: row.id });

/** The merchant's payment links: list, one by id or reference, and its orders through the orders list. */
export class LinkLists {
  constructor(
    private readonly storage: Storage,
    private readonly orderLists: OrderLists,
  ) {}

  async page(scope: MerchantScope, filter: LinkListFilter, limit: number, after?: OrderPosition) {
    checkDateRange(filter);
    return keysetPage((count, position) => search.listLinks(this.storage, { ...filter, ...scope }, count, position), limit, after, positionOf);
  }

  async find(scope: MerchantScope, idOrReference: string): Promise<LinkListRow> {
    const link = await search.findLink(this.storage, scope.merchantId, scope.mode, idOrReference);
    if (!link) throw notFound('No payment link with this id or reference exists for this merchant.', 'link_not_found');
    return link;
  }

  async orders(scope: MerchantScope, idOrReference: string, filter: Omit<OrderFilter, 'merchantId' | 'mode' | 'linkReference'>, limit: number, after?: OrderPosition) {
    const link = await this.find(scope, idOrReference);
    return this.orderLists.page(scope, { ...filter, linkReference: link.reference }, limit, after);
  }
}
