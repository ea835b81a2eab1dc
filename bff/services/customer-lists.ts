import { notFound } from '../errors.ts';
import * as customers from '../repositories/customer-search.ts';
import type { CustomerFilter, CustomerRow, SavedCardListRow } from '../repositories/customer-search.ts';
import type { CustomerKey, OrderPosition } from '../repositories/order-search.ts';
import { listSubscriptions, type SubscriptionListRow } from '../repositories/subscription-search.ts';
import type { Storage } from '../storage/storage.ts';
import { checkDateRange, keysetPage, keysetWalk } from './keyset.ts';
import type { MerchantScope, OrderListRow, OrderLists } from './order-lists.ts';

export type { CustomerRow, SavedCardListRow };
export type CustomerListFilter = Omit<CustomerFilter, 'merchantId' | 'mode' | 'customer'>;

export type CustomerDetail = {
  customer: CustomerRow;
  orders: { items: OrderListRow[]; next: OrderPosition | null };
  subscriptions: SubscriptionListRow[];
  cards: SavedCardListRow[];
};

/** Orders a customer's page shows; the rest through the orders list filtered by the customer. */
const DETAIL_ORDERS = 25;
const DETAIL_SUBSCRIPTIONS = 100;

const positionOf = (row: CustomerRow): OrderPosition => ({ createdAt: row.anchor_at, id: row.anchor_id });

/** The merchant's customers (identities across orders): list, export, one with its orders and cards, revoke a card. */
export class CustomerLists {
  constructor(
    private readonly storage: Storage,
    private readonly orderLists: OrderLists,
  ) {}

  async page(scope: MerchantScope, filter: CustomerListFilter, limit: number, after?: OrderPosition) {
    checkDateRange(filter);
    return keysetPage((count, position) => customers.listCustomers(this.storage, { ...filter, ...scope }, count, position), limit, after, positionOf);
  }

  /** Every customer the filter selects; a bad filter throws here, before any row is read. */
  all(scope: MerchantScope, filter: CustomerListFilter): AsyncGenerator<CustomerRow> {
    checkDateRange(filter);
    return keysetWalk((count, position) => customers.listCustomers(this.storage, { ...filter, ...scope }, count, position), positionOf);
  }

  async detail(scope: MerchantScope, key: CustomerKey): Promise<CustomerDetail> {
    const [customer] = await customers.listCustomers(this.storage, { ...scope, customer: key }, 1);
    if (!customer) throw notFound('No customer with this id exists for this merchant.', 'customer_not_found');
    const [orders, subscriptions, cards] = await Promise.all([
      this.orderLists.page(scope, { customer: key }, DETAIL_ORDERS),
      listSubscriptions(this.storage, { ...scope, customer: key }, DETAIL_SUBSCRIPTIONS),
      customers.listCustomerCards(this.storage, scope.merchantId, scope.mode, key),
    ]);
    return { customer, orders, subscriptions, cards };
  }

  /**
   * Deletes the saved card: checkout offers a shopper's cards from that table and a payment by token looks the card
   * up there, so once gone it is neither offered nor usable. A subscription keeps its own copy of its card's token.
   */
  async revokeCard(scope: MerchantScope, key: CustomerKey, cardId: number): Promise<void> {
    if (await customers.deleteCustomerCard(this.storage, scope.merchantId, scope.mode, key, cardId)) return;
    const [customer] = await customers.listCustomers(this.storage, { ...scope, customer: key }, 1);
    if (!customer) throw notFound('No customer with this id exists for this merchant.', 'customer_not_found');
    throw notFound('This customer has no saved card with this id.', 'card_not_found');
  }
}
