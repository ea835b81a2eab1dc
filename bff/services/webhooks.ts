import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { formatTimestamp } from '../../shared/timestamps.ts';
import { SIGNATURE_HEADER, signWebhook } from '../../shared/webhooks.ts';
import { seal, unseal } from '../crypto/sealed.ts';
import type { Mode } from '../domain/merchant.ts';
import {
  admitAttempt,
  DEFAULT_ENDPOINT_LIMITS,
  type EndpointLimits,
  endpointUrlProblem,
  healthAfterAttempt,
  isDelivered,
  MAX_ENABLED_ENDPOINTS,
  nextAttemptAt,
  WEBHOOK_RETRY_WINDOW_MS,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../domain/webhooks.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import { enqueue, jobContext } from '../jobs/queue.ts';
import { done, type JobClaim, type JobHandlers, type JobResult } from '../jobs/kinds.ts';
import * as repository from '../repositories/webhooks.ts';
import type { DestinationPolicy } from '../security/destinations.ts';
import { DestinationRefusedError, guardedAgents, type GuardedAgents, type Resolve } from '../security/guarded-agents.ts';
import type { Queryable, Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import type { EventWriter } from './outbox.ts';

/** Whose webhooks: a merchant in one mode (the caller of the API, or the CLI's `--id` and `--mode`). */
export type WebhookScope = { merchantId: number; mode: Mode };

export type WebhookSettings = {
  /** A delivery's HTTP request is abandoned after this long (well within the job lease, so no two overlap). */
  timeoutMs: number;
  /** Where deliveries may connect (public addresses only, unless the operator allows private ones). */
  destinations: DestinationPolicy;
  /** How delivery resolves host names (tests: their own answers, so no query leaves the machine). */
  resolve?: Resolve | undefined;
  /** Attempts one endpoint may have in flight, and its breaker (domain/webhooks.ts); the defaults unless given. */
  endpoints?: Omit<EndpointLimits, 'timeoutMs'>;
};

/**
 * What an attempt that got no HTTP answer tells the merchant: a class, never the system's error code or what a
 * refused destination answered, so the delivery log cannot map the server's network (docs/decisions.md,
 * "Webhook destinations"). `cause` (the error code) goes to the operators' log only; `timedOut` feeds the breaker.
 */
type SendResult = { statusCode: number | null; error: string | null; latencyMs: number | null; timedOut: boolean; cause?: string };

const REFUSED_DESTINATION = 'The destination is not a public internet address, or its name did not resolve; nothing was sent.';
const CONNECTION_FAILED = 'The connection failed.';
const TLS_FAILED = 'The secure connection failed (TLS).';
/** Name resolution failures read as refusals: which internal names exist is the server network's business. */
const UNRESOLVED_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA']);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

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
  /** Every delivery's connections go through these: they refuse a destination the policy does not allow. */
  private readonly agents: GuardedAgents;

  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    private readonly masterKey: Buffer,
    private readonly settings: WebhookSettings,
    private readonly log: Logger = { info: () => {} },
  ) {
    this.limits = { ...DEFAULT_ENDPOINT_LIMITS, ...settings.endpoints, timeoutMs: settings.timeoutMs };
    this.agents = guardedAgents(settings.destinations, settings.resolve);
  }

  /** A new endpoint and its signing secret, which is returned this once and stored only sealed. */
  async create(scope: WebhookScope, url: string): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const problem = endpointUrlProblem(url, scope.mode, this.settings.destinations);
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
    const { timedOut, cause, ...result } = await this.send(delivery.url, body, signature);

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
      { webhook: { deliveryId, endpointId: delivery.endpointId, eventType: event.type, attempt, statusCode: result.statusCode, latencyMs: result.latencyMs, ...(cause ? { cause } : {}) } },
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

  /**
   * One POST through the guarded agents: a destination the policy refuses is never connected to. A redirect is not
   * followed (the signed body must reach the registered URL itself), and only the status is read, never the body.
   */
  private send(url: string, body: string, signature: string): Promise<SendResult> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    const target = new URL(url);
    const transport = target.protocol === 'https:' ? https : http;
    return new Promise((resolve) => {
      const request = transport.request(
        target,
        {
          method: 'POST',
          agent: target.protocol === 'https:' ? this.agents['https:'] : this.agents['http:'],
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'Checkout-Webhooks/1.0',
            [SIGNATURE_HEADER]: signature,
          },
          signal: AbortSignal.timeout(this.settings.timeoutMs),
        },
        (response) => {
          resolve({ statusCode: response.statusCode ?? null, error: null, latencyMs: latency(), timedOut: false });
          response.destroy();
        },
      );
      request.on('error', (error) => resolve(this.describeFailure(error, latency())));
      request.end(body);
    });
  }

  private describeFailure(error: unknown, latencyMs: number): SendResult {
    const code = (error as { code?: unknown }).code;
    const cause = typeof code === 'string' ? code : error instanceof Error ? error.name : 'unknown';
    if (error instanceof DestinationRefusedError || UNRESOLVED_CODES.has(cause)) {
      return { statusCode: null, error: REFUSED_DESTINATION, latencyMs: null, timedOut: false, cause: error instanceof DestinationRefusedError ? `refused ${error.reason}` : cause };
    }
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      const seconds = this.settings.timeoutMs / 1000;
      return { statusCode: null, error: `No answer within ${seconds} second${seconds === 1 ? '' : 's'}.`, latencyMs, timedOut: true, cause: 'timeout' };
    }
    return { statusCode: null, error: TLS_CODE.test(cause) ? TLS_FAILED : CONNECTION_FAILED, latencyMs, timedOut: false, cause };
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
