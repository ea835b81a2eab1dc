import { z } from 'zod';
import { successEnvelope } from '../envelope.ts';
import { httpUrl } from '../fields.ts';
import { endpoint } from './endpoint.ts';

/**
 * Webhook endpoints of the caller's merchant and mode: the secret key, or a signed-in member whose role holds
 * `webhooks.write` (delivery bodies carry customers' details, so reading them needs it too). Every change of an
 * endpoint (where events go, which, and the secret that signs them) needs a member's fresh second factor and is
 * audited. Create and rotate answer the signing secret once; they ignore `Idempotency-Key`, because a stored answer
 * would keep the secret in the clear.
 */
const tags = ['Webhooks'];

/** What merchants are told happened (the backend's domain events, `bff/domain/events.ts`), and what an endpoint may subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  /** The order was paid (card approved, or a bank transfer received in full). */
  'order.successful',
  /** An attempt ended without the money: declined, authentication failed or expired, interrupted. */
  'payment.failed',
  /** Part of the amount arrived on a transfer account; the rest is still due. */
  'transfer.partially_paid',
  /** A transfer account expired before the whole amount arrived (any money received is recorded for refund). */
  'transfer.expired',
  /** A successful payment was reversed: its money went back to the customer in full (the order is 6 Reversed). */
  'payment.reversed',
  /** A refund succeeded: `data` is the refund, with the order as verify shows it after the refund. */
  'refund.succeeded',
  /** A refund was declined (or never reached the processor): nothing went back, and the order is unchanged. */
  'refund.failed',
  /** A subscription started: its first charge was approved after 3-D Secure and the card kept for it. */
  'subscription.created',
  /** A recurring charge of a subscription was approved. */
  'subscription.charged',
  /** A recurring charge was declined after its retries: the subscription charges no more until the merchant acts. */
  'subscription.past_due',
  /** The merchant or the customer cancelled the subscription. */
  'subscription.cancelled',
  /** The subscription's last payment was made. */
  'subscription.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The type of the event `POST /checkout/webhooks/{endpointId}/test` sends: to that endpoint only, whatever its filter. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** How long the old secret still signs after a rotation, by default (a second `v1` entry in `checkout-signature`). */
export const DEFAULT_SECRET_OVERLAP_HOURS = 24;
export const MAX_SECRET_OVERLAP_HOURS = 7 * 24;

const endpointUrl = httpUrl.refine(
  (text) => {
    try {
      const url = new URL(text);
      return url.username === '' && url.password === '' && url.hash === '';
    } catch {
      return false;
    }
  },
  { message: 'must not carry credentials or a fragment (deliveries are authenticated by their signature)' },
);

const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1, { message: 'must name at least one event type (null: every type)' })
  .max(WEBHOOK_EVENT_TYPES.length)
  .nullable()
  .meta({ description: 'The event types delivered to this endpoint; null: every type, those added later included.' });

/** The delivered body. `data` is the order as verify returned it when the event happened. */
export const webhookEventSchema = z
  .object({ id: z.string(), type: z.string(), createdAt: z.string(), data: z.record(z.string(), z.unknown()) })
  .meta({ id: 'WebhookEvent' });
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

export const createWebhookEndpointRequestSchema = z
  .object({ url: endpointUrl, eventTypes: eventTypes.optional() })
  .meta({ id: 'CreateWebhookEndpointRequest', example: { url: 'https://shop.example/webhooks/checkout' } });
export type CreateWebhookEndpointRequest = z.infer<typeof createWebhookEndpointRequestSchema>;

export const updateWebhookEndpointRequestSchema = z
  .object({ url: endpointUrl.optional(), eventTypes: eventTypes.optional() })
  .refine((body) => body.url !== undefined || body.eventTypes !== undefined, { message: 'must change url or eventTypes' })
  .meta({ id: 'UpdateWebhookEndpointRequest' });

/** No body (or `null`, as some clients send for a POST without one): the default overlap. */
export const rotateWebhookSecretRequestSchema = z
  .preprocess(
    (value) => value ?? {},
    z.object({
      overlapHours: z
        .number({ message: 'must be a number of hours' })
        .int({ message: 'must be a whole number of hours' })
        .min(0, { message: 'must be 0 (the old secret stops at once) or more' })
        .max(MAX_SECRET_OVERLAP_HOURS, { message: `must be at most ${MAX_SECRET_OVERLAP_HOURS} hours` })
        .default(DEFAULT_SECRET_OVERLAP_HOURS)
        .meta({ description: 'How long the old secret still signs, as a second `v1` entry; 0: it stops at once.' }),
    }),
  )
  .meta({ id: 'RotateWebhookSecretRequest' });

export const webhookEndpointIdSchema = z.string().regex(/^we_[A-Za-z0-9_-]{22}$/, { message: 'must be a webhook endpoint id (we_...)' });
export const webhookDeliveryIdSchema = z.string().regex(/^wd_[A-Za-z0-9_-]{22}$/, { message: 'must be a webhook delivery id (wd_...)' });

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    mode: z.enum(['test', 'live']),
    status: z.enum(['enabled', 'disabled']),
    eventTypes: z.array(z.string()).nullable().meta({ description: 'The event types delivered; null: every type.' }),
    createdAt: z.string(),
    secretRotatedAt: z.string().nullable(),
    previousSecretUntil: z.string().nullable().meta({ description: 'Until when the secret before the last rotation still signs (a second `v1`).' }),
    disabledAt: z.string().nullable(),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpointView = z.infer<typeof webhookEndpointSchema>;

/** Create and rotate answer with the signing secret: shown this once, never again. */
export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({ secret: z.string() }).meta({ id: 'WebhookEndpointWithSecret' });

export const webhookAttemptSchema = z
  .object({
    attempt: z.number().int(),
    startedAt: z.string(),
    /** `in-progress` while being sent; `interrupted` when the sending process stopped before the answer was recorded. */
    outcome: z.enum(['succeeded', 'failed', 'in-progress', 'interrupted']),
    statusCode: z.number().int().nullable().meta({ description: "The endpoint's answer (its body is never read)." }),
    error: z.string().nullable(),
    latencyMs: z.number().int().nullable(),
  })
  .meta({ id: 'WebhookAttempt' });

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const webhookDeliverySchema = z
  .object({
    id: z.string(),
    endpointId: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.array(webhookAttemptSchema),
    request: z
      .object({ body: z.string().meta({ description: 'The body every attempt sent, byte for byte.' }) })
      .optional()
      .meta({ description: 'What was sent (each attempt signs it with its own timestamp).' }),
    nextAttemptAt: z.string().nullable(),
    deliverUntil: z.string(),
    resendOf: z.string().nullable(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDeliveryView = z.infer<typeof webhookDeliverySchema>;

export const listDeliveriesQuerySchema = z.object({
  limit: z.coerce.number({ message: 'must be a whole number' }).int({ message: 'must be a whole number' }).min(1, { message: 'must be at least 1' }).max(100, { message: 'must be at most 100' }).default(20),
  status: z.enum(DELIVERY_STATUSES).optional().meta({ description: '`failed`: the failed deliveries only (to resend them).' }),
});

const endpointParams = z.object({ endpointId: webhookEndpointIdSchema });
const deliveryParams = z.object({ deliveryId: webhookDeliveryIdSchema });
const endpointAnswer = successEnvelope(webhookEndpointSchema).meta({ id: 'WebhookEndpointResponse' });
const withSecretAnswer = successEnvelope(webhookEndpointWithSecretSchema).meta({ id: 'WebhookEndpointWithSecretResponse' });
const deliveryAnswer = successEnvelope(webhookDeliverySchema).meta({ id: 'WebhookDeliveryResponse' });

export const createWebhookEndpoint = endpoint({
  method: 'POST',
  path: '/checkout/webhooks',
  auth: 'secret',
  permission: 'webhooks.write',
  stepUp: { audit: 'webhook_endpoint_created' },
  summary: 'Add a webhook endpoint',
  description:
    'Every later event of this merchant and mode (or of the `eventTypes` given) is delivered to the URL, signed with the secret in this answer (shown this once). ' +
    'The URL must name a public internet address (private ones only when the operator allows them); live mode needs https (http only to a loopback address).',
  tags,
  body: createWebhookEndpointRequestSchema,
  success: withSecretAnswer,
  errors: ['VAL400', 'CON409'],
});

export const listWebhookEndpoints = endpoint({
  method: 'GET',
  path: '/checkout/webhooks',
  auth: 'secret',
  permission: 'webhooks.write',
  summary: 'List webhook endpoints',
  description: 'Every endpoint of this merchant and mode, enabled and disabled (not deleted), oldest first; never their secrets.',
  tags,
  success: successEnvelope(z.array(webhookEndpointSchema)).meta({ id: 'WebhookEndpointListResponse' }),
});

export const updateWebhookEndpoint = endpoint({
  method: 'PATCH',
  path: '/checkout/webhooks/:endpointId',
  auth: 'secret',
  permission: 'webhooks.write',
  stepUp: { audit: 'webhook_endpoint_changed' },
  summary: 'Change a webhook endpoint',
  description: 'Its URL (checked like a new one) or the event types it receives (null: every type). Later events follow the change; deliveries already made keep going.',
  tags,
  params: endpointParams,
  body: updateWebhookEndpointRequestSchema,
  success: endpointAnswer,
  errors: ['VAL400', 'NF404'],
});

export const rotateWebhookSecret = endpoint({
  method: 'POST',
  path: '/checkout/webhooks/:endpointId/rotate-secret',
  auth: 'secret',
  permission: 'webhooks.write',
  stepUp: { audit: 'webhook_secret_rotated' },
  summary: "Rotate a webhook endpoint's signing secret",
  description:
    `A new secret (in this answer, shown this once) signs every later attempt. For \`overlapHours\` (default ${DEFAULT_SECRET_OVERLAP_HOURS}) the old one signs too, as a second \`v1\` entry of \`checkout-signature\`, ` +
    'so a receiver can switch secrets without refusing a delivery; `0` stops it at once. No body: the default overlap.',
  tags,
  params: endpointParams,
  body: rotateWebhookSecretRequestSchema,
  success: withSecretAnswer,
  errors: ['VAL400', 'NF404', 'CON409'],
});

export const disableWebhookEndpoint = endpoint({
  method: 'POST',
  path: '/checkout/webhooks/:endpointId/disable',
  auth: 'secret',
  permission: 'webhooks.write',
  stepUp: { audit: 'webhook_endpoint_disabled' },
  summary: 'Disable a webhook endpoint',
  description: 'No new deliveries; pending ones end as failed. The endpoint and its log are kept. Disabling twice changes nothing.',
  tags,
  params: endpointParams,
  success: endpointAnswer,
  errors: ['NF404'],
});

export const enableWebhookEndpoint = endpoint({
  method: 'POST',
  path: '/checkout/webhooks/:endpointId/enable',
  auth: 'secret',
  permission: 'webhooks.write',
  stepUp: { audit: 'webhook_endpoint_enabled' },
  summary: 'Enable a webhook endpoint again',
  description: 'Events from now on are delivered to it again (none of those made while it was disabled). Its URL is checked again, like a new one; the enabled-endpoint limit applies.',
  tags,
  params: endpointParams,
  success: endpointAnswer,
  errors: ['VAL400', 'NF404', 'CON409'],
});

export const deleteWebhookEndpoint = endpoint({
  method: 'DELETE',
  path: '/checkout/webhooks/:endpointId',
  auth: 'secret',
  permission: 'webhooks.write',
  stepUp: { audit: 'webhook_endpoint_deleted' },
  summary: 'Delete a webhook endpoint',
  description: 'It stops receiving events at once (pending deliveries end as failed) and leaves the list; its deliveries stay in the events list.',
  tags,
  params: endpointParams,
  success: successEnvelope(z.object({ id: z.string(), deleted: z.literal(true) })),
  errors: ['NF404'],
});

export const sendTestWebhook = endpoint({
  method: 'POST',
  path: '/checkout/webhooks/:endpointId/test',
  auth: 'secret',
  permission: 'webhooks.write',
  summary: 'Send a test event',
  description: `A \`${TEST_EVENT_TYPE}\` event to this endpoint only (whatever its event types), signed and retried like any delivery; the answer is the delivery, to follow in its log.`,
  tags,
  params: endpointParams,
  success: deliveryAnswer,
  errors: ['NF404', 'CON409'],
});

export const listWebhookDeliveries = endpoint({
  method: 'GET',
  path: '/checkout/webhooks/:endpointId/deliveries',
  auth: 'secret',
  permission: 'webhooks.write',
  summary: "List a webhook endpoint's deliveries",
  description: 'The latest deliveries, newest first (`status=failed`: the failed ones only), each with the body it sent and its log of attempts (status code or error, latency, time).',
  tags,
  params: endpointParams,
  query: listDeliveriesQuerySchema,
  success: successEnvelope(z.array(webhookDeliverySchema)).meta({ id: 'WebhookDeliveryListResponse' }),
  errors: ['VAL400', 'NF404'],
});

export const resendWebhookDelivery = endpoint({
  method: 'POST',
  path: '/checkout/webhooks/deliveries/:deliveryId/resend',
  auth: 'secret',
  permission: 'webhooks.write',
  summary: 'Resend a webhook delivery',
  description: 'Sends the same event (same id and body) to the same endpoint again, as a new delivery with its own attempts.',
  tags,
  params: deliveryParams,
  success: deliveryAnswer,
  errors: ['NF404', 'CON409'],
});
