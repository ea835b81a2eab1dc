import type { FastifyInstance } from 'fastify';

/**
 * Lets the routes of one scope take HTML form posts: browsers send them url-encoded, parsed here with the platform's
 * URLSearchParams (at most 4 KiB unless the scope says more). Only the page routes call it; the API keeps answering 415 to a form body.
 */
export function acceptHtmlForms(app: Pick<FastifyInstance, 'addContentTypeParser'>, bodyLimit = 4096): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
}
