import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * The framework's floor on this machine, in a process of its own like the server: a bare GET and a POST whose JSON
 * body is validated by a zod schema, answered with a small envelope. Prints its address and serves until killed.
 */
const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);

app.get('/bare', async () => ({ status: 'success', statusCode: '00', message: 'ok' }));
app.post(
  '/validated',
  { schema: { body: z.object({ data: z.string().min(1).max(8192) }), response: { 200: z.object({ status: z.string(), statusCode: z.string(), message: z.string() }) } } },
  async () => ({ status: 'success', statusCode: '00', message: 'ok' }),
);

const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${address}\n`);
