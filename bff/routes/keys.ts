import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '../../shared/envelope.ts';
import { encryptionKeysResponseSchema } from '../../shared/keys.ts';
import { callerOf } from '../plugins/auth.ts';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/checkout/keys',
    {
      config: { auth: 'any' },
      schema: {
        summary: 'Fetch the encryption keys',
        description:
          'The public JWKs (ECDH-ES+A256KW on P-256, RSA-OAEP-256) that encrypted request bodies use, for the mode of the api-key sent. ' +
          'Encrypt with enc A256GCM and send the key\'s kid in the protected header.',
        tags: ['Encryption'],
        security: [{ apiKey: [] }],
        response: { 200: encryptionKeysResponseSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return {
        status: 'success' as const,
        statusCode: '00',
        message: 'Operation successful',
        data: { keys: await app.payloadKeys.publicJwks(caller.merchant.id, caller.mode) },
      };
    },
  );
};

export default routes;
