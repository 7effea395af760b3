import type { FastifyInstance } from 'fastify';
import { ApiError } from '../domain/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as received: the signature covers these bytes, never a re-serialization. */
    rawBody?: Buffer;
  }
}

/**
 * JSON is the only accepted body type (anything else is a 415). The parser keeps the raw bytes for the
 * signature check and parses with Fastify's own prototype-poisoning-safe parser.
 */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(/^application\/([\w.+-]+\+)?json$/i, { parseAs: 'buffer' }, (request, body, done) => {
    const raw = body as Buffer;
    request.rawBody = raw;
    // Clients send Content-Type on every request, including bodiless DELETEs.
    if (raw.length === 0) return done(null, undefined);
    parseJson(request, raw.toString('utf8'), (err, parsed) => {
      if (err) return done(new ApiError('malformed_json', 'The request body is not valid JSON'), undefined);
      done(null, parsed);
    });
  });
}
