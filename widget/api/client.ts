import { safeParse, type GenericSchema } from 'valibot';
import type { ErrorReason } from '../../shared/contract/reasons.ts';
import type { ErrorCode } from '../../shared/envelope.ts';
import type { WIDGET_EVENTS } from '../../shared/events.ts';
import type { FeePlain } from '../../shared/fees.ts';
import type { CreateOrderPlain } from '../../shared/orders.ts';
import type { PayOrderPlain } from '../../shared/payments.ts';
import { chooseKey, encryptPayload } from './encrypt.ts';
import { beginAction, type PendingAction } from './idempotency.ts';
import {
  createOrderResponse,
  encryptionJwks,
  errorEnvelope,
  feeResponse,
  keysResponse,
  orderStatusResponse,
  payOrderResponse,
  resumeOrderResponse,
  trackEventResponse,
  type CreateOrderData,
  type FeeQuote,
  type OrderStatusResponse,
  type PayOrderResponse,
  type PublicEncryptionKey,
  type ResumeOrderData,
} from './wire.ts';

/**
 * Read through this module, the API chunk, rather than by importing the wire module on its own: the wire chunk
 * also holds valibot for the other API chunks, so a dynamic import of it would need a namespace object and the
 * bundler's runtime as one more chunk.
 */
export { readCreateOrderData } from './wire.ts';

export type WidgetEventName = (typeof WIDGET_EVENTS)[number];

/** Envelope codes, plus what can go wrong before an envelope arrives. */
export type ApiErrorCode = ErrorCode | 'NETWORK' | 'UNREADABLE' | 'NO_KEY';

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly requestId?: string,
    /** Why, from the contract's closed set (`shared/contract/reasons.ts`): what the checkout words, never the message. */
    readonly reason?: ErrorReason,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface PostOptions {
  signal?: AbortSignal | undefined;
  keepalive?: boolean;
  /** The call changes something: it carries an Idempotency-Key, kept while the action is unsettled. */
  idempotent?: boolean;
}

interface RequestOptions {
  signal?: AbortSignal | undefined;
  keepalive?: boolean;
  action?: PendingAction | undefined;
}

export interface ApiOptions {
  apiKey: string;
  /** Origin (and optional path prefix) of the checkout API; the page's own origin when empty. */
  baseUrl: string;
  /** The order's client token, from the merchant's server (`checkout-client-token`). */
  clientToken?: string | undefined;
  /** A customer session, from the merchant's server (`checkout-customer-session`). */
  customerSession?: string | undefined;
  /**
   * The merchant's public keys as JSON, when the page that serves the checkout knows them (the frame page does):
   * the first request then goes without a round trip to GET /checkout/keys. Keys of another shape are ignored.
   */
  keys?: string | undefined;
  /**
   * The frame session token when the checkout is a merchant's frame (`checkout-session`). Sent on every call, so
   * the backend can refuse a key that is not the one the session was opened for: the key comes from the embedding
   * page, the token from the backend.
   */
  frameSession?: string | undefined;
}

function givenKey(keys: string | undefined): PublicEncryptionKey | undefined {
  if (!keys) return undefined;
  try {
    const parsed = safeParse(encryptionJwks, JSON.parse(keys));
    return parsed.success ? chooseKey(parsed.output) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The checkout API as the widget speaks it: every order endpoint takes `{data: <JWE>}` and every answer is
 * parsed at the boundary before the components see it. Calls that change something (create, pay, track) carry an
 * `Idempotency-Key`, the same one when a call is sent again before an answer settled it (`idempotency.ts`).
 * Card data passes through `pay` and nowhere else, and nothing here logs.
 */
export class CheckoutApi {
  #keyPromise: Promise<PublicEncryptionKey> | undefined;

  constructor(readonly options: ApiOptions) {
    const given = givenKey(options.keys);
    if (given) this.#keyPromise = Promise.resolve(given);
  }

  /** Test keys (`pk_test_…`) reach the sandbox processor, which also takes the gateway's non-Luhn test card. */
  get testMode(): boolean {
    return /^(pk|sk)_test_/.test(this.options.apiKey);
  }

  createOrder(plain: CreateOrderPlain, signal?: AbortSignal): Promise<CreateOrderData> {
    return this.#postEncrypted('/checkout/order/create', plain, createOrderResponse, { signal, idempotent: true }).then((answer) => answer.data);
  }

  quoteFee(plain: Omit<FeePlain, 'paymentoption'> & { paymentoption: string }, signal?: AbortSignal): Promise<FeeQuote> {
    return this.#postEncrypted('/checkout/order/fee', plain, feeResponse, { signal }).then((answer) => answer.data);
  }

  /** Declines come back as values (`status: failed` with the payment in `data`), not as errors. */
  pay(plain: PayOrderPlain, signal?: AbortSignal): Promise<PayOrderResponse> {
    return this.#postEncrypted('/checkout/order/pay', plain, payOrderResponse, { signal, idempotent: true });
  }

  orderStatus(reference: string, signal?: AbortSignal): Promise<OrderStatusResponse> {
    return this.#postEncrypted('/checkout/order/status', { reference }, orderStatusResponse, { signal });
  }

  /** The order and its latest payment attempt, from the server: only the frame (its session) or a client token may ask. */
  resumeOrder(reference: string, signal?: AbortSignal): Promise<ResumeOrderData> {
    return this.#postEncrypted('/checkout/order/resume', { reference }, resumeOrderResponse, { signal }).then((answer) => answer.data);
  }

  /** Does the server answer `resumeOrder` for this checkout: from the merchant's frame, or with the order's client token. */
  get canResume(): boolean {
    return Boolean(this.options.frameSession || this.options.clientToken);
  }

  /** Best effort: the timeline is for the merchant's support staff, never a reason to stop a payment. */
  async track(eventname: WidgetEventName, orderreference: string, extra: Record<string, string> = {}): Promise<boolean> {
    try {
      await this.#postEncrypted('/checkout/order/event/track', { ...extra, eventname, orderreference }, trackEventResponse, { keepalive: true, idempotent: true });
      return true;
    } catch {
      return false;
    }
  }

  #url(path: string): string {
    const base = this.options.baseUrl.replace(/\/+$/, '');
    return `${base}${path}`;
  }

  #encryptionKey(signal?: AbortSignal): Promise<PublicEncryptionKey> {
    this.#keyPromise ??= this.#request('GET', '/checkout/keys', undefined, keysResponse, { signal }).then((answer) => {
      const key = chooseKey(answer.data.keys);
      if (!key) throw new ApiError('NO_KEY', 'The merchant publishes no key this checkout can encrypt with.');
      return key;
    });
    // A failed fetch must not poison later attempts (the customer may be back online).
    this.#keyPromise.catch(() => (this.#keyPromise = undefined));
    return this.#keyPromise;
  }

  /** `keepalive` lets a tracking call finish while the page navigates to the 3-D Secure page. */
  async #postEncrypted<T>(path: string, plain: unknown, schema: GenericSchema<unknown, T>, options: PostOptions): Promise<T> {
    const key = await this.#encryptionKey(options.signal);
    const [data, action] = await Promise.all([
      encryptPayload(plain, key),
      options.idempotent ? beginAction(this.options.baseUrl, this.options.apiKey, path, plain) : undefined,
    ]);
    return this.#request('POST', path, JSON.stringify({ data }), schema, { ...options, action });
  }

  async #request<T>(method: 'GET' | 'POST', path: string, body: string | undefined, schema: GenericSchema<unknown, T>, options: RequestOptions): Promise<T> {
    const { signal, keepalive = false, action } = options;
    const headers: Record<string, string> = { accept: 'application/json', 'api-key': this.options.apiKey };
    if (this.options.frameSession) headers['checkout-session'] = this.options.frameSession;
    if (this.options.clientToken) headers['checkout-client-token'] = this.options.clientToken;
    if (this.options.customerSession) headers['checkout-customer-session'] = this.options.customerSession;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (action) headers['idempotency-key'] = action.key;
    let response: Response;
    try {
      response = await fetch(this.#url(path), { method, headers, body, signal, keepalive, credentials: 'omit', cache: 'no-store' });
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      throw new ApiError('NETWORK', 'The checkout service could not be reached.');
    }
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      if (signal?.aborted) throw signal.reason;
      throw new ApiError(response.status >= 500 ? 'ERR500' : 'UNREADABLE', `The answer to ${path} was not JSON.`);
    }
    // The server's answer settles the action, unless it says to retry (nothing was run or stored: the same key).
    if (!response.headers.has('retry-after')) action?.settle();
    const failure = safeParse(errorEnvelope, json);
    if (failure.success) throw new ApiError(failure.output.statusCode, failure.output.message, failure.output.requestId, failure.output.reason);
    const parsed = safeParse(schema, json);
    if (!parsed.success) throw new ApiError('UNREADABLE', `The answer to ${path} did not have the expected shape.`);
    return parsed.output;
  }
}
