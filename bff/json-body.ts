import type { FastifyInstance } from 'fastify';
import { invalid } from './errors.ts';

/**
 * JSON bodies: objects and arrays nest at most `MAX_JSON_DEPTH` levels. No request of the API needs more than a few
 * (metadata allows five), and every walk over a parsed body (validation, canonical JSON, text checks) recurses, so a
 * body nested thousands deep would otherwise end as a stack overflow (500) somewhere after parsing. The depth is
 * counted over the text before it is parsed: one pass, nothing allocated. Decrypted payloads are not bounded here:
 * their schemas are checked before any deep walk and name the field (metadata nests at most five levels), which
 * hostile-input.test.ts holds to at 5,000 levels.
 */
export const MAX_JSON_DEPTH = 32;

/** Whether objects and arrays in `text` nest deeper than `limit` (strings and their escapes are skipped). */
export function jsonNestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

export const tooDeep = () => invalid(`The JSON body is nested too deeply: objects and arrays may nest at most ${MAX_JSON_DEPTH} levels.`);

/**
 * Replaces the `application/json` parser of `app`'s context with Fastify's own (prototype poisoning keys removed)
 * behind the depth bound; `emptyIsNoBody` reads an empty body as no body (the link and subscription routes).
 */
export function acceptJsonBodies(app: Pick<FastifyInstance, 'getDefaultJsonParser' | 'removeContentTypeParser' | 'addContentTypeParser'>, { emptyIsNoBody = false } = {}): void {
  const parseJson = app.getDefaultJsonParser('remove', 'remove');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (emptyIsNoBody && text.trim() === '') return done(null, undefined);
    if (jsonNestsDeeperThan(text)) return done(tooDeep(), undefined);
    return parseJson(request, text, done);
  });
}
