import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** OpenAPI generated from the routes' zod schemas: JSON at /docs/json, the UI at /docs. */
export default fp<{ publicBaseUrl: string }>(
  async (app, { publicBaseUrl }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Checkout API',
          description: 'The checkout wire contract: payment links, orders, payments, fees and verification.',
          version: '1.0.0',
        },
        servers: [{ url: publicBaseUrl }],
        components: {
          securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'api-key' } },
        },
      },
      transform: jsonSchemaTransform,
      transformObject: jsonSchemaTransformObject,
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'swagger' },
);
