import { createHmac, timingSafeEqual } from 'node:crypto';

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

/** The webhook API's schemas are the contract's (`shared/contract/webhooks.ts`), re-exported for the CLI and tests. */
export {
  createWebhookEndpointRequestSchema,
  listDeliveriesQuerySchema,
  webhookDeliveryIdSchema,
  webhookDeliverySchema,
  webhookEndpointIdSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
  webhookEventSchema,
  type CreateWebhookEndpointRequest,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookEvent,
} from './contract/webhooks.ts';
