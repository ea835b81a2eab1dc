import { DOMAIN_EVENT_TYPES } from '../domain/events.ts';
import { invalid } from '../errors.ts';
import * as search from '../repositories/event-search.ts';
import type { EventFilter, EventListRow, EventPosition } from '../repositories/event-search.ts';
import type { Storage } from '../storage/storage.ts';
import { checkDateRange, keysetPage } from './keyset.ts';
import type { MerchantScope } from './order-lists.ts';

export type { EventListRow, EventPosition };
export type EventListFilter = Omit<EventFilter, 'merchantId' | 'mode'>;

const KNOWN: ReadonlySet<string> = new Set(DOMAIN_EVENT_TYPES);

/** The merchant's domain events (what its webhooks deliver), with their deliveries by state. */
export class EventLists {
  constructor(private readonly storage: Storage) {}

  async page(scope: MerchantScope, filter: EventListFilter, limit: number, after?: EventPosition) {
    checkDateRange(filter);
    const unknown = filter.types?.find((type) => !KNOWN.has(type));
    if (unknown !== undefined) throw invalid(`type ${unknown} is not an event type; known: ${DOMAIN_EVENT_TYPES.join(', ')}.`, undefined, 'invalid_field');
    return keysetPage(
      (count, position) => search.listEvents(this.storage, { ...filter, ...scope }, count, position),
      limit,
      after,
      (row): EventPosition => ({ createdAt: row.created_at, id: row.id }),
    );
  }
}
