import { compactDecrypt, exportJWK, generateKeyPair, calculateJwkThumbprint } from 'jose';
import type { z } from 'zod';
import { bindKeys } from '../../../shared/binding.ts';
import { encryptedBodySchema } from '../../../shared/encrypted.ts';
import { errorEnvelopeSchema, ERROR_CODES, type ErrorCode } from '../../../shared/envelope.ts';
import { trackEventPlainSchema } from '../../../shared/events.ts';
import { feePlainSchema } from '../../../shared/fees.ts';
import { encryptionKeysResponseSchema, type EncryptionJwk } from '../../../shared/keys.ts';
import { createOrderPlainSchema, referencePlainSchema } from '../../../shared/orders.ts';
import { payOrderPlainSchema } from '../../../shared/payments.ts';
import { describeIssue } from '../../../shared/validation.ts';

/**
 * A stand-in for the checkout API inside the browser: it replaces `fetch`, publishes a real P-256 key at
 * GET /checkout/keys, decrypts every `{data}` body with the private half (so a payload the widget encrypted
 * wrongly fails the test), checks the plain JSON with the backend's own request schemas (a refused payload gets
 * the backend's VAL400 answer and is listed in `rejected`), and answers with whatever the test queued.
 */
type Answer = { status?: number; body: unknown; headers?: Record<string, string> } | { networkError: true } | { hang: true };
type Responder = (plain: unknown) => Answer | Promise<Answer>;

const PLAIN_SCHEMAS: Record<string, z.ZodType> = {
  '/checkout/order/create': createOrderPlainSchema,
  '/checkout/order/pay': payOrderPlainSchema,
  '/checkout/order/status': referencePlainSchema,
  '/checkout/order/fee': feePlainSchema,
  '/checkout/order/event/track': trackEventPlainSchema,
};

export interface RecordedRequest {
  path: string;
  headers: Headers;
  /** The decrypted plain JSON, after the backend's own binding and validation. */
  plain: unknown;
  /** The protected header of the JWE. */
  jweHeader: Record<string, unknown> | undefined;
}

export const API_KEY = 'pk_test_widget';

export class ApiStub {
  readonly requests: RecordedRequest[] = [];
  /** Payloads the backend's request schemas refused, with the reason. */
  readonly rejected: string[] = [];
  readonly #queues = new Map<string, Responder[]>();
  readonly #defaults = new Map<string, Responder>();
  #privateKey: CryptoKey | undefined;
  #publicJwk: EncryptionJwk | undefined;
  #originalFetch: typeof fetch | undefined;
  keysAnswer: Answer | undefined;

  static async install(): Promise<ApiStub> {
    const stub = new ApiStub();
    const { privateKey, publicKey } = await generateKeyPair('ECDH-ES+A256KW', { crv: 'P-256', extractable: true });
    stub.#privateKey = privateKey;
    const jwk = await exportJWK(publicKey);
    stub.#publicJwk = {
      kty: 'EC',
      crv: 'P-256',
      x: jwk.x!,
      y: jwk.y!,
      alg: 'ECDH-ES+A256KW',
      use: 'enc',
      kid: await calculateJwkThumbprint(jwk),
    };
    stub.#originalFetch = window.fetch;
    window.fetch = (input, init) => stub.#handle(input, init);
    // Tracking is best effort; answer it unless a test says otherwise.
    stub.answerAlways('/checkout/order/event/track', { body: { status: 'success', statusCode: '00', message: 'Event logged successfully', data: null } });
    return stub;
  }

  get kid(): string {
    return this.#publicJwk!.kid;
  }

  restore(): void {
    if (this.#originalFetch) window.fetch = this.#originalFetch;
  }

  /** Queues one answer for the next request to `path`. */
  answer(path: string, answer: Answer | Responder): this {
    const responder = typeof answer === 'function' ? answer : () => answer;
    this.#queues.set(path, [...(this.#queues.get(path) ?? []), responder]);
    return this;
  }

  /** Answers every request to `path` that has nothing queued. */
  answerAlways(path: string, answer: Answer | Responder): this {
    this.#defaults.set(path, typeof answer === 'function' ? answer : () => answer);
    return this;
  }

  fail(path: string, code: ErrorCode, message: string, requestId?: string): this {
    const body = errorEnvelopeSchema.parse({ status: 'failed', statusCode: code, message, ...(requestId ? { requestId } : {}) });
    return this.answer(path, { status: ERROR_CODES[code], body });
  }

  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  trackedEvents(): string[] {
    return this.requestsTo('/checkout/order/event/track').map((request) => (request.plain as { eventname: string }).eventname);
  }

  async #handle(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
    // As `fetch` does: an aborted request fails, also when the abort comes while the answer is being made.
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    const response = await this.#answer(input, init);
    signal?.throwIfAborted();
    return response;
  }

  async #answer(input: RequestInfo | URL, init: RequestInit): Promise<Response> {
    const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
    const headers = new Headers(init.headers);
    if (headers.get('api-key') !== API_KEY) return json(401, { status: 'failed', statusCode: 'AUTH401', message: 'The api-key header is missing or unknown.' });
    if (url.pathname === '/checkout/keys') {
      const answer = this.keysAnswer ?? {
        body: encryptionKeysResponseSchema.parse({ status: 'success', statusCode: '00', message: 'Operation successful', data: { keys: [this.#publicJwk] } }),
      };
      return respond(answer, init.signal);
    }
    const schema = PLAIN_SCHEMAS[url.pathname];
    if (!schema) throw new Error(`The widget called an endpoint the stub does not know: ${url.pathname}`);
    const { data } = encryptedBodySchema.parse(JSON.parse(String(init.body)));
    const { plaintext, protectedHeader } = await compactDecrypt(data, this.#privateKey!);
    const parsed = schema.safeParse(bindKeys(JSON.parse(new TextDecoder().decode(plaintext)), schema));
    if (!parsed.success) {
      // What the backend answers to a payload its schema refuses; kept so a test can show the reason.
      const message = describeIssue(parsed.error.issues[0]!);
      this.rejected.push(`${url.pathname}: ${message}`);
      return json(400, { status: 'failed', statusCode: 'VAL400', message });
    }
    const plain = parsed.data;
    this.requests.push({ path: url.pathname, headers, plain, jweHeader: protectedHeader as Record<string, unknown> });
    const responder = this.#queues.get(url.pathname)?.shift() ?? this.#defaults.get(url.pathname);
    if (!responder) throw new Error(`No answer queued for ${url.pathname}`);
    return respond(await responder(plain), init.signal ?? undefined);
  }
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...headers, 'content-type': 'application/json' } });
}

function respond(answer: Answer, signal?: AbortSignal | null): Promise<Response> {
  if ('networkError' in answer) return Promise.reject(new TypeError('Failed to fetch'));
  if ('hang' in answer) {
    return new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
  }
  return Promise.resolve(json(answer.status ?? 200, answer.body, answer.headers));
}
