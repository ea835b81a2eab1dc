import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { encryptedBodySchema } from '../../shared/encrypted.ts';
import { errorEnvelopeSchema } from '../../shared/envelope.ts';
import { payOrderResponseSchema } from '../../shared/payments.ts';
import {
  paymentKeysResponseSchema,
  paymentLinkInfoPlainSchema,
  paymentLinkInfoResponseSchema,
  savedCardResponseSchema,
  saveCardPlainSchema,
  tokenizedPayPlainSchema,
} from '../../shared/transactpay.ts';
import { toGatewayKeyFromPem } from '../crypto/gateway-key.ts';
import { LEGACY_KEY_ALGORITHM } from '../crypto/legacy-rsa.ts';
import { invalid, notFound } from '../errors.ts';
import { callerOf } from '../plugins/auth.ts';
import { presentPayAnswer } from '../presenters/payments.ts';
import { toSubsidiary } from '../services/links.ts';
import { pathFamily } from './transactpay-paths.ts';

/**
 * The four calls the TransactPay Dart package makes beyond the ePayClub API (issue 34 item 7), each under a
 * `/checkout` twin that `/payment/...` aliases. What they send is all the package shows: an encrypted map; what
 * they answer follows the gateway's envelope and the shapes its other answers use.
 */
const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema, 429: errorEnvelopeSchema };
const security = [{ apiKey: [] }];

/** A GET body is not parsed by Fastify; the Dart package sends its encrypted map in one. At most 16 KiB is read. */
async function readGetBody(request: FastifyRequest): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    size += (chunk as Buffer).length;
    if (size > 16_384) throw invalid('The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw invalid('The request body is not valid JSON.');
  }
}

const routes: FastifyPluginAsyncZod = async (app) => {
  app.patch(
    '/checkout/order/save-card',
    {
      config: { auth: 'any' },
      schema: {
        summary: 'Save the card that paid an order',
        description:
          'Encrypted `{"reference"}` (SaveCardPlain). Saves the card of the order\'s successful card payment for the customer the order was created for: ' +
          'with the customer session the order was created with, or with the secret key. An order made without a customer session saves nothing (AUTH403).',
        tags: ['Payments'],
        security,
        body: encryptedBodySchema,
        response: { 200: savedCardResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { reference } = await request.decryptPayload(saveCardPlainSchema);
      const card = await app.payments.saveCardOf(callerOf(request), reference);
      return { status: 'success' as const, statusCode: '00' as const, message: 'Card saved successfully', data: card };
    },
  );

  app.post(
    '/checkout/order/card/tokenized/pay',
    {
      config: { auth: 'any', idempotent: { plain: tokenizedPayPlainSchema } },
      schema: {
        summary: 'Pay an order with a saved card',
        description:
          'Encrypted (TokenizedPayPlain): the saved card\'s token and its CVV. The same payment as order/pay with `cardToken`, under the same rule: ' +
          'the card belongs to the customer the order was created for, and a browser needs that customer\'s session.',
        tags: ['Payments'],
        security,
        body: encryptedBodySchema,
        response: { 200: payOrderResponseSchema, ...errors },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const plain = await request.decryptPayload(tokenizedPayPlainSchema);
      const { order, payment } = await app.payments.pay(caller, {
        reference: plain.reference,
        paymentoption: 'C',
        country: plain.country,
        cardToken: plain.token,
        card: { cvv: plain.cvv },
      });
      return presentPayAnswer(order, payment, caller.merchant.name, pathFamily(request));
    },
  );

  app.get(
    '/checkout/paymentlink/info',
    {
      config: { auth: 'any' },
      schema: {
        summary: 'Fetch a payment link by its reference',
        description:
          'The reference in the query (`?reference=`), or encrypted in a GET body as the Dart package sends it. Answers as link creation does; ' +
          "only the key's own merchant and mode see a link.",
        tags: ['Payment links'],
        security,
        response: { 200: paymentLinkInfoResponseSchema, ...errors },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const query = request.query as { reference?: unknown };
      let reference: string;
      if (typeof query.reference === 'string' && query.reference !== '') {
        reference = query.reference;
      } else {
        (request as { body: unknown }).body = await readGetBody(request);
        ({ reference } = await request.decryptPayload(paymentLinkInfoPlainSchema));
      }
      const link = await app.links.findByReference(reference);
      if (!link || link.merchantId !== caller.merchant.id || link.mode !== caller.mode) throw notFound('No payment link with this reference exists for this merchant.');
      return {
        status: 'success' as const,
        statusCode: '00' as const,
        message: 'Payment details fetched successfully',
        data: { paymentLink: app.links.present(link, caller.merchant), subsidiary: toSubsidiary(caller.merchant) },
      };
    },
  );

  app.post(
    '/checkout/paymentlink/get-keys',
    {
      config: { auth: 'any' },
      schema: {
        summary: 'Fetch the public encryption keys',
        description:
          "The keys a client encrypts to, for the api-key's merchant and mode: the legacy RSA key in the gateway's format and the JWKs. " +
          'Public keys only; no api-key is ever returned. The body (the Dart package sends an encrypted `{}`) is not read.',
        tags: ['Encryption'],
        security,
        response: { 200: paymentKeysResponseSchema, ...errors },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const legacy = caller.merchant.legacyEncryption ? (await app.payloadKeys.active(caller.merchant.id, caller.mode)).get(LEGACY_KEY_ALGORITHM) : undefined;
      return {
        status: 'success' as const,
        statusCode: '00' as const,
        message: 'Operation successful',
        data: { encryptionKey: legacy ? toGatewayKeyFromPem(legacy.publicKey) : null, keys: await app.payloadKeys.publicJwks(caller.merchant.id, caller.mode) },
      };
    },
  );
};

export default routes;
