import { z } from 'zod';
import { isoTimestamp, listQueryShape, pageEnvelope } from './lists.ts';
import { endpoint } from './endpoint.ts';
import { commaList } from './orders.ts';

/**
 * The merchant's domain events (what its webhooks deliver), newest first, each with how its deliveries stand. An
 * event's own body and each delivery's attempts stay with the webhooks API (`/checkout/webhooks/...`).
 */
export const eventSummarySchema = z
  .object({
    id: z.string().meta({ description: 'The event id (`evt_...`), as its webhook bodies carry it.' }),
    type: z.string().meta({ description: 'e.g. `order.successful`, `refund.succeeded`, `subscription.charged`.' }),
    orderReference: z.string().nullable(),
    createdAt: isoTimestamp,
    deliveries: z
      .object({
        total: z.number().int(),
        pending: z.number().int(),
        succeeded: z.number().int(),
        failed: z.number().int(),
        lastAttemptAt: isoTimestamp.nullable(),
      })
      .meta({ description: 'Its deliveries to your webhook endpoints (resends included) by state.' }),
  })
  .meta({ id: 'EventSummary' });
export type EventSummary = z.infer<typeof eventSummarySchema>;

const eventType = z.string().regex(/^[a-z_]{1,40}\.[a-z_]{1,40}$/, { message: 'must be an event type such as order.successful' });

export const eventListQuerySchema = z.object({
  ...listQueryShape,
  type: commaList(eventType).optional().meta({ description: 'One event type or several, comma-separated.' }),
});
export type EventListQuery = z.output<typeof eventListQuerySchema>;

export const listEvents = endpoint({
  method: 'GET',
  path: '/checkout/events',
  auth: 'secret',
  permission: 'orders.read',
  summary: 'List events',
  description: 'The events of this merchant and mode, newest first, with their deliveries by state. Example: `GET /checkout/events?type=order.successful,payment.failed`.',
  tags: ['Operations'],
  query: eventListQuerySchema,
  success: pageEnvelope(eventSummarySchema, 'EventPage'),
  errors: ['VAL400'],
});
