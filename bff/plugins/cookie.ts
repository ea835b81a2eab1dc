import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';

/** Cookie parsing and `reply.setCookie` (@fastify/cookie): only the team's session cookie uses them. */
export default fp(
  async (app) => {
    await app.register(cookie);
  },
  { name: 'cookie' },
);
