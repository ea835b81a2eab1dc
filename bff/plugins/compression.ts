import fp from 'fastify-plugin';
import compress from '@fastify/compress';

/**
 * Responses of 1 KB and more (pages, API answers, docs) are compressed in the encoding the client asks for, brotli
 * or gzip (@fastify/compress, brotli at its recommended speed). Files already compressed when the widget was built,
 * and the hosted pages' stylesheet and script compressed at start, go out as they are. Request bodies are not
 * decompressed: no client of the gateway's API sends them compressed, and a compressed body would only let a small
 * request become a large one.
 */
export default fp(
  async (app) => {
    await app.register(compress, { globalDecompression: false, encodings: ['br', 'gzip'] });
  },
  { name: 'compression' },
);
