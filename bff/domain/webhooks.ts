import { destinationProblem, hostReason, type DestinationPolicy } from '../security/destinations.ts';
import type { Mode } from './merchant.ts';

/** The rules of webhook delivery: retry schedule, what counts as delivered, which endpoint URLs a mode accepts. */

/** A delivery is retried for 3 days from when it was made; then it is failed. */
export const WEBHOOK_RETRY_WINDOW_MS = 3 * 24 * 60 * 60_000;
/** The first retry comes after 30 to 60 seconds; each later wait doubles, up to 3 to 6 hours. */
const FIRST_RETRY_CEILING_MS = 60_000;
const LONGEST_RETRY_CEILING_MS = 6 * 60 * 60_000;
/** How many enabled endpoints a merchant may have per mode. */
export const MAX_ENABLED_ENDPOINTS = 16;

export type WebhookEndpoint = {
  id: string;
  merchantId: number;
  mode: Mode;
  url: string;
  createdAt: Date;
  secretRotatedAt: Date | null;
  disabledAt: Date | null;
};

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export type WebhookAttempt = {
  attempt: number;
  startedAt: Date;
  finishedAt: Date | null;
  statusCode: number | null;
  error: string | null;
  latencyMs: number | null;
};

export type WebhookDelivery = {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: WebhookAttempt[];
  nextAttemptAt: Date | null;
  deliverUntil: Date;
  resendOf: string | null;
  lastError: string | null;
  createdAt: Date;
  completedAt: Date | null;
};

/** Only a 2xx answer delivers; a redirect, any other status, a timeout or a failed connection is retried. */
export const isDelivered = (statusCode: number | null): boolean => statusCode !== null && statusCode >= 200 && statusCode < 300;

/**
 * When to try again after the `attempt`-th attempt failed at `now`: exponential backoff with jitter (half the
 * wait fixed, half random, so retries of many deliveries spread out but never come early), never after
 * `deliverUntil`. Null when the window is over: the delivery is failed.
 */
export function nextAttemptAt(attempt: number, now: Date, deliverUntil: Date, random: () => number = Math.random): Date | null {
  if (now.getTime() >= deliverUntil.getTime()) return null;
  const ceiling = Math.min(LONGEST_RETRY_CEILING_MS, FIRST_RETRY_CEILING_MS * 2 ** Math.max(0, attempt - 1));
  const wait = ceiling / 2 + Math.floor(random() * (ceiling / 2));
  return new Date(Math.min(now.getTime() + wait, deliverUntil.getTime()));
}

/**
 * Why `url` cannot receive `mode`'s events, or null. Its host must be a public internet address unless the
 * operator allows private destinations (`destinations.ts`, the rule deliveries are held to as well). Live events
 * carry customers' names, e-mails and amounts, so they travel over https only; plain http is accepted in live mode
 * only to a loopback address (a receiver on the same machine as a self-hosted checkout, which needs the operator's
 * setting), and in test mode anywhere (tunnels).
 */
export function endpointUrlProblem(url: string, mode: Mode, destinations: DestinationPolicy): string | null {
  const parsed = new URL(url);
  const destination = destinationProblem(parsed, destinations);
  if (destination) return destination;
  if (mode === 'live' && parsed.protocol === 'http:' && hostReason(parsed.hostname) !== 'loopback') {
    return 'must be an https URL for live mode (plain http is accepted only for test mode, or for a loopback address)';
  }
  return null;
}

/**
 * How much of the delivery lane one endpoint may take, and when it is left alone: at most `inFlight` attempts at once,
 * and after `breakerTimeouts` timeouts in a row its deliveries wait `breakerCooldownMs` instead of each waiting out
 * the timeout (then one probe at a time until an attempt ends other than by timing out).
 */
export type EndpointLimits = { inFlight: number; breakerTimeouts: number; breakerCooldownMs: number; timeoutMs: number };

/** One endpoint: one attempt in flight; after five timeouts in a row its deliveries wait five minutes. */
export const DEFAULT_ENDPOINT_LIMITS: Omit<EndpointLimits, 'timeoutMs'> = { inFlight: 1, breakerTimeouts: 5, breakerCooldownMs: 5 * 60_000 };

/** What the endpoint's recent attempts say about it: its timeouts in a row, and until when its breaker holds it. */
export type EndpointHealth = { consecutiveTimeouts: number; pausedUntil: Date | null };

/** An attempt may start now, or the delivery waits (its attempts untouched) until `until`, and why. */
export type Admission = { admit: true } | { admit: false; until: Date; reason: 'breaker-open' | 'endpoint-busy' };

/** A delivery turned away from a busy endpoint comes back after about this long (jittered, so they do not herd). */
const ENDPOINT_BUSY_WAIT_MS = 1_000;

/**
 * Whether a delivery's attempt may start now at an endpoint with `inFlight` attempts running. While the breaker is
 * open every delivery waits for its end; once it ends the breaker is half-open: one attempt probes the endpoint and
 * the others wait about a timeout for its outcome; otherwise an endpoint at its in-flight limit makes a delivery
 * wait about a second.
 */
export function admitAttempt(health: EndpointHealth, inFlight: number, now: Date, limits: EndpointLimits, random: () => number = Math.random): Admission {
  if (health.pausedUntil && now.getTime() < health.pausedUntil.getTime()) {
    return { admit: false, until: new Date(health.pausedUntil.getTime() + Math.floor(random() * ENDPOINT_BUSY_WAIT_MS)), reason: 'breaker-open' };
  }
  const halfOpen = health.consecutiveTimeouts >= limits.breakerTimeouts;
  if (inFlight < (halfOpen ? 1 : limits.inFlight)) return { admit: true };
  const wait = halfOpen ? limits.timeoutMs : ENDPOINT_BUSY_WAIT_MS;
  return { admit: false, until: new Date(now.getTime() + wait / 2 + Math.floor(random() * wait)), reason: 'endpoint-busy' };
}

/**
 * The endpoint's health after an attempt ended at `now`: a timeout adds to its run of timeouts and, at the limit,
 * opens the breaker for the cool-down (again after each failed probe); any other ending (an answer, a 2xx above all,
 * or a connection that failed at once) ends the run and closes the breaker: the endpoint no longer holds attempts.
 */
export function healthAfterAttempt(health: EndpointHealth, timedOut: boolean, now: Date, limits: EndpointLimits): EndpointHealth {
  if (!timedOut) return { consecutiveTimeouts: 0, pausedUntil: null };
  const consecutiveTimeouts = health.consecutiveTimeouts + 1;
  const opens = consecutiveTimeouts >= limits.breakerTimeouts;
  return { consecutiveTimeouts, pausedUntil: opens ? new Date(now.getTime() + limits.breakerCooldownMs) : health.pausedUntil };
}
