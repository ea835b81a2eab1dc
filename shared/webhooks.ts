import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { httpUrl } from './fields.ts';

/**
 * Signed webhooks: the request and answer schemas of the webhook API, and the signature both ends compute.
 * Server-side only (node:crypto): the widget never imports this file.
 *
 * Every delivery is a POST of `{"id", "type", "createdAt", "data"}` with the header
 * `checkout-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the endpoint's
 * signing secret (the whole `whsec_...` text, UTF-8).
 */
export const SIGNATURE_HEADER = 'checkout-signature';

/** A receiver refuses a signature whose timestamp is further than this from its own clock (replays). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, timestamp: number, rawBody: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** The `checkout-signature` header for `rawBody` sent at `timestamp` (unix seconds). */
export function signWebhook(secret: string, timestamp: number, rawBody: string | Uint8Array): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, rawBody)}`;
}

/**
 * True when `header` signs `rawBody` (exactly as received, before any JSON parsing) with `secret`, and its
 * timestamp is within the tolerance of `now`. Any `v1` entry may match (more may be added later).
 */
export function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  header: string | undefined,
  secret: string,
  { now = new Date(), toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS }: { now?: Date; toleranceSeconds?: number } = {},
): boolean {
  if (!header) return false;
  const entries = header.split(',').map((entry) => entry.trim().split('=', 2) as [string, string | undefined]);
  const timestamp = entries.find(([key]) => key === 't')?.[1];
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  if (!(Math.abs(now.getTime() / 1000 - Number(timestamp)) <= toleranceSeconds)) return false;
  const expected = Buffer.from(hmacHex(secret, Number(timestamp), rawBody), 'hex');
  return entries.some(([key, value]) => key === 'v1' && value !== undefined && /^[0-9a-f]{64}$/.test(value) && timingSafeEqual(Buffer.from(value, 'hex'), expected));
}

/** The delivered body. `data` is the order as verify returned it when the event happened. */
export const webhookEventSchema = z
  .object({
    id: z.string(),
    type: z.string(),
    createdAt: z.string(),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'WebhookEvent' });
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

export const createWebhookEndpointRequestSchema = z
  .object({
    url: httpUrl.refine(
      (text) => {
        try {
          const url = new URL(text);
          return url.username === '' && url.password === '' && url.hash === '';
        } catch {
          return false;
        }
      },
      { message: 'must not carry credentials or a fragment (deliveries are authenticated by their signature)' },
    ),
  })
  .meta({ id: 'CreateWebhookEndpointRequest', example: { url: 'https://shop.example/webhooks/checkout' } });
export type CreateWebhookEndpointRequest = z.infer<typeof createWebhookEndpointRequestSchema>;

export const webhookEndpointIdSchema = z.string().regex(/^we_[A-Za-z0-9_-]{22}$/, { message: 'must be a webhook endpoint id (we_...)' });
export const webhookDeliveryIdSchema = z.string().regex(/^wd_[A-Za-z0-9_-]{22}$/, { message: 'must be a webhook delivery id (wd_...)' });

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    mode: z.enum(['test', 'live']),
    status: z.enum(['enabled', 'disabled']),
    createdAt: z.string(),
    secretRotatedAt: z.string().nullable(),
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
    statusCode: z.number().int().nullable(),
    error: z.string().nullable(),
    latencyMs: z.number().int().nullable(),
  })
  .meta({ id: 'WebhookAttempt' });

export const webhookDeliverySchema = z
  .object({
    id: z.string(),
    endpointId: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.array(webhookAttemptSchema),
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
});

export const webhookEndpointResponseSchema = successEnvelope(webhookEndpointSchema).meta({ id: 'WebhookEndpointResponse' });
export const webhookEndpointWithSecretResponseSchema = successEnvelope(webhookEndpointWithSecretSchema).meta({ id: 'WebhookEndpointWithSecretResponse' });
export const webhookEndpointListResponseSchema = successEnvelope(z.array(webhookEndpointSchema)).meta({ id: 'WebhookEndpointListResponse' });
export const webhookDeliveryResponseSchema = successEnvelope(webhookDeliverySchema).meta({ id: 'WebhookDeliveryResponse' });
export const webhookDeliveryListResponseSchema = successEnvelope(z.array(webhookDeliverySchema)).meta({ id: 'WebhookDeliveryListResponse' });
