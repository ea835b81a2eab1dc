import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { formatTimestamp } from '../../shared/timestamps.ts';
import { SIGNATURE_HEADER, signWebhook } from '../../shared/webhooks.ts';
import { seal, unseal } from '../crypto/sealed.ts';
import type { Mode } from '../domain/merchant.ts';
import {
  admitAttempt,
  DEFAULT_ENDPOINT_LIMITS,
  endpointUrlProblem,
  healthAfterAttempt,
  isDelivered,
  MAX_ENABLED_ENDPOINTS,
  nextAttemptAt,
  WEBHOOK_RETRY_WINDOW_MS,
  type EndpointLimits,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../domain/webhooks.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import { enqueue, jobContext } from '../jobs/queue.ts';
import { done, type JobClaim, type JobHandlers, type JobResult } from '../jobs/kinds.ts';
import * as repository from '../repositories/webhooks.ts';
import type { Queryable, Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import type { EventWriter } from './outbox.ts';

/** Whose webhooks: a merchant in one mode (the caller of the API, or the CLI's `--id` and `--mode`). */
export type WebhookScope = { merchantId: number; mode: Mode };

export type WebhookSettings = {
  /** A delivery's HTTP request is abandoned after this long (well within the job lease, so no two overlap). */
  timeoutMs: number;
  /** Attempts one endpoint may have in flight, and its breaker (domain/webhooks.ts); the defaults unless given. */
  endpoints?: Omit<EndpointLimits, 'timeoutMs'>;
};

/** An attempt started past its timeout and this margin without finishing was cut short: it is no longer in flight. */
const IN_FLIGHT_MARGIN_MS = 5_000;

type Logger = { info(object: object, message: string): void };

/** Whether a delivery's attempt started: its number, or the time it waits until, or nothing to send any more. */
type Start =
  | { outcome: 'started'; attempt: number; delivery: repository.DeliveryToSend }
  | { outcome: 'deferred'; until: Date; reason: string; delivery: repository.DeliveryToSend }
  | { outcome: 'ended' };

const newEndpointId = () => `we_${randomBytes(16).toString('base64url')}`;
const newDeliveryId = () => `wd_${randomBytes(16).toString('base64url')}`;
const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/**
 * Signed webhooks. Endpoints (a URL and a signing secret, per merchant and mode) are managed here; every outbox
 * event becomes one delivery per enabled endpoint in the event's own statement (`writeEvent`), and the
 * `webhook.deliver` job sends it, signed, retrying with backoff for 3 days and logging every attempt.
 */
export class WebhookService {
  private readonly limits: EndpointLimits;

  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    private readonly masterKey: Buffer,
    private readonly settings: WebhookSettings,
    private readonly log: Logger = { info: () => {} },
  ) {
    this.limits = { ...DEFAULT_ENDPOINT_LIMITS, ...settings.endpoints, timeoutMs: settings.timeoutMs };
  }

  /** A new endpoint and its signing secret, which is returned this once and stored only sealed. */
  async create(scope: WebhookScope, url: string): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const problem = endpointUrlProblem(url, scope.mode);
    if (problem) throw invalid(`The url field ${problem}.`);
    const secret = newSecret();
    const endpoint = await this.storage.transaction(async (tx) => {
      await repository.lockMerchantEndpoints(tx, scope.merchantId);
      if ((await repository.countEnabledEndpoints(tx, scope.merchantId, scope.mode)) >= MAX_ENABLED_ENDPOINTS) {
        throw conflict(`A merchant may have at most ${MAX_ENABLED_ENDPOINTS} enabled webhook endpoints per mode; disable one first.`);
      }
      return repository.insertEndpoint(tx, {
        id: newEndpointId(),
        merchantId: scope.merchantId,
        mode: scope.mode,
        url,
        secretSealed: seal(this.masterKey, Buffer.from(secret, 'utf8')),
        createdAt: this.clock.now(),
      });
    });
    return { endpoint, secret };
  }

  list(scope: WebhookScope): Promise<WebhookEndpoint[]> {
    return repository.listEndpoints(this.storage, scope.merchantId, scope.mode);
  }

  /** A new signing secret, in force at once for every later attempt (pending deliveries included). */
  async rotateSecret(scope: WebhookScope, endpointId: string): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    await this.findEnabled(scope, endpointId);
    const secret = newSecret();
    const endpoint = await repository.replaceSecret(this.storage, endpointId, seal(this.masterKey, Buffer.from(secret, 'utf8')), this.clock.now());
    if (!endpoint) throw conflict('This webhook endpoint is disabled.');
    return { endpoint, secret };
  }

  /** Stops deliveries to the endpoint: no new ones, and its pending ones end as failed. Disabling twice is a no-op. */
  async disable(scope: WebhookScope, endpointId: string): Promise<WebhookEndpoint> {
    await this.find(scope, endpointId);
    await this.storage.transaction((tx) => repository.disableEndpoint(tx, endpointId, this.clock.now(), 'The endpoint was disabled.'));
    return this.find(scope, endpointId);
  }

  async deliveries(scope: WebhookScope, endpointId: string, limit: number): Promise<WebhookDelivery[]> {
    await this.find(scope, endpointId);
    return repository.listDeliveries(this.storage, scope.merchantId, scope.mode, endpointId, limit);
  }

  /** Sends a delivery's event again to its endpoint, as a new delivery with its own attempts and 3-day window. */
  async resend(scope: WebhookScope, deliveryId: string): Promise<WebhookDelivery> {
    const original = await repository.findDelivery(this.storage, scope.merchantId, scope.mode, deliveryId);
    if (!original) throw notFound('No webhook delivery has this id.');
    await this.findEnabled(scope, original.endpointId);
    const id = newDeliveryId();
    await this.storage.transaction((tx) => this.addDelivery(tx, original.endpointId, original.eventId, original.id, id));
    return (await repository.findDelivery(this.storage, scope.merchantId, scope.mode, id))!;
  }

  /**
   * The outbox's writer: the event, one delivery per endpoint of its merchant and mode enabled at that moment, and
   * each delivery's job, in one statement of the event's transaction. Ids are drawn for as many endpoints as a
   * merchant may enable; the statement takes one per endpoint it finds.
   */
  readonly writeEvent: EventWriter = (tx, event) => {
    const drawn = randomBytes(16 * MAX_ENABLED_ENDPOINTS);
    const deliveryIds = Array.from({ length: MAX_ENABLED_ENDPOINTS }, (_, index) => `wd_${drawn.subarray(index * 16, index * 16 + 16).toString('base64url')}`);
    const deliverUntil = new Date(event.createdAt.getTime() + WEBHOOK_RETRY_WINDOW_MS);
    return repository.insertEventWithDeliveries(tx, event, { deliveryIds, deliverUntil, jobContext: jobContext() });
  };

  handlers(): Pick<JobHandlers, 'webhook.deliver'> {
    return { 'webhook.deliver': ({ deliveryId }, claim) => this.deliver(deliveryId, claim) };
  }

  /**
   * One attempt of a delivery. The attempt is logged before the request goes out, so one cut short by a dying
   * process shows as interrupted; the job's lease (longer than the request's timeout) keeps another process from
   * sending the same delivery meanwhile, and takes over after it if the process died. An endpoint at its in-flight
   * limit, or whose breaker is open, gets no attempt: the delivery waits, its attempts and backoff untouched.
   */
  async deliver(deliveryId: string, claim?: JobClaim): Promise<JobResult> {
    const startedAt = this.clock.now();
    const start = await this.storage.transaction((tx) => this.startAttempt(tx, deliveryId, startedAt, claim));
    if (start.outcome === 'ended') return done;
    const { delivery } = start;
    const { event } = delivery;
    if (start.outcome === 'deferred') {
      this.log.info({ webhook: { deliveryId, endpointId: delivery.endpointId, eventType: event.type, reason: start.reason } }, 'webhook delivery waits for its endpoint');
      return { outcome: 'again', at: start.until };
    }
    const { attempt } = start;
    const body = JSON.stringify({ id: event.id, type: event.type, createdAt: formatTimestamp(event.createdAt), data: event.data });
    const secret = unseal(this.masterKey, delivery.secretSealed).toString('utf8');
    const signature = signWebhook(secret, Math.floor(startedAt.getTime() / 1000), body);
    const { timedOut, ...result } = await this.send(delivery.url, body, signature);

    const finishedAt = this.clock.now();
    const delivered = isDelivered(result.statusCode);
    const next = delivered ? null : nextAttemptAt(attempt, finishedAt, delivery.deliverUntil);
    const lastError = delivered ? null : (result.error ?? `The endpoint answered HTTP ${result.statusCode}.`);
    await this.storage.transaction(async (tx) => {
      await repository.finishAttempt(tx, deliveryId, attempt, { finishedAt, ...result });
      await repository.settleDelivery(tx, deliveryId, {
        status: delivered ? 'succeeded' : next ? 'pending' : 'failed',
        nextAttemptAt: next,
        lastError,
        completedAt: next ? null : finishedAt,
      });
      const health = healthAfterAttempt(await repository.lockEndpointHealth(tx, delivery.endpointId), timedOut, finishedAt, this.limits);
      await repository.saveEndpointHealth(tx, delivery.endpointId, health);
      // The place this attempt held is free: the next delivery waiting for it goes now, unless the breaker opened.
      if (!health.pausedUntil || health.pausedUntil.getTime() <= finishedAt.getTime()) await repository.wakeNextWaiting(tx, delivery.endpointId, finishedAt);
    });
    // The endpoint's id only: a URL may carry a merchant's token in its query, and bodies hold customer data.
    this.log.info(
      { webhook: { deliveryId, endpointId: delivery.endpointId, eventType: event.type, attempt, statusCode: result.statusCode, latencyMs: result.latencyMs } },
      delivered ? 'webhook delivered' : next ? 'webhook attempt failed; retrying' : 'webhook delivery failed; no retries left',
    );
    return next ? { outcome: 'again', at: next } : done;
  }

  /**
   * Starts an attempt if the endpoint admits one. Its row is locked meanwhile, so processes starting attempts to one
   * endpoint take turns and never exceed its in-flight limit together. A delivery turned away after its 3-day window
   * ends as failed.
   */
  private async startAttempt(tx: Queryable, deliveryId: string, now: Date, claim: JobClaim | undefined): Promise<Start> {
    const since = new Date(now.getTime() - this.limits.timeoutMs - IN_FLIGHT_MARGIN_MS);
    const found = await repository.lockDeliveryToSend(tx, deliveryId, since);
    if (!found || found.delivery.status !== 'pending') return { outcome: 'ended' };
    const { delivery, health, inFlight } = found;
    const admission = admitAttempt(health, inFlight, now, this.limits);
    if (admission.admit) {
      const attempt = await repository.startAttempt(tx, deliveryId, now);
      return attempt === undefined ? { outcome: 'ended' } : { outcome: 'started', attempt, delivery };
    }
    if (now.getTime() >= delivery.deliverUntil.getTime()) {
      const lastError = admission.reason === 'breaker-open' ? 'The endpoint kept timing out until the retry window ended.' : 'The endpoint stayed busy until the retry window ended.';
      await repository.settleDelivery(tx, deliveryId, { status: 'failed', nextAttemptAt: null, lastError, completedAt: now });
      return { outcome: 'ended' };
    }
    const until = new Date(Math.min(admission.until.getTime(), delivery.deliverUntil.getTime()));
    const wait = { until, forEndpoint: admission.reason === 'endpoint-busy' };
    await repository.deferEndpointDeliveries(tx, { id: deliveryId, endpointId: delivery.endpointId, claim }, wait, now);
    return { outcome: 'deferred', until, reason: admission.reason, delivery };
  }

  private async send(
    url: string,
    body: string,
    signature: string,
  ): Promise<{ statusCode: number | null; error: string | null; latencyMs: number; timedOut: boolean }> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Checkout-Webhooks/1.0', [SIGNATURE_HEADER]: signature },
        body,
        // A redirect is not a delivery: the signed body must reach the registered URL itself.
        redirect: 'manual',
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
      // Only the status matters; the answer's body is neither read nor kept.
      await response.body?.cancel().catch(() => {});
      return { statusCode: response.status, error: null, latencyMs: latency(), timedOut: false };
    } catch (error) {
      return { statusCode: null, error: this.describeFailure(error), latencyMs: latency(), timedOut: isTimeout(error) };
    }
  }

  private describeFailure(error: unknown): string {
    if (isTimeout(error)) {
      const seconds = this.settings.timeoutMs / 1000;
      return `No answer within ${seconds} second${seconds === 1 ? '' : 's'}.`;
    }
    const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
    return typeof code === 'string' && /^[A-Z_]{2,40}$/.test(code) ? `The connection failed (${code}).` : 'The request could not be sent.';
  }

  private async addDelivery(tx: Queryable, endpointId: string, eventId: string, resendOf: string | null, id: string): Promise<void> {
    const now = this.clock.now();
    await repository.insertDelivery(tx, { id, endpointId, eventId, resendOf, createdAt: now, deliverUntil: new Date(now.getTime() + WEBHOOK_RETRY_WINDOW_MS) });
    await enqueue(tx, { kind: 'webhook.deliver', payload: { deliveryId: id } }, now, now);
  }

  private async find(scope: WebhookScope, endpointId: string): Promise<WebhookEndpoint> {
    const endpoint = await repository.findEndpoint(this.storage, scope.merchantId, scope.mode, endpointId);
    if (!endpoint) throw notFound('No webhook endpoint has this id.');
    return endpoint;
  }

  private async findEnabled(scope: WebhookScope, endpointId: string): Promise<WebhookEndpoint> {
    const endpoint = await this.find(scope, endpointId);
    if (endpoint.disabledAt) throw conflict('This webhook endpoint is disabled.');
    return endpoint;
  }
}

/** The request's own timeout fired: the endpoint held the request without answering. */
const isTimeout = (error: unknown): boolean => error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
