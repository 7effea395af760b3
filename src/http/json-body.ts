import type { FastifyInstance } from 'fastify';
import { ApiError, type FieldError } from '../domain/errors.js';

const MAX_REPORTED = 20;

/**
 * PostgreSQL cannot store U+0000 in text or jsonb, and no field of this API has a use for it: every string and
 * key holding one is refused up front, by pointer, instead of failing deep in a write.
 */
function nulCharacters(value: unknown, pointer: string, out: FieldError[]): void {
  if (out.length >= MAX_REPORTED) return;
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out.push({ pointer, code: 'invalid_characters', detail: `${pointer.slice(1) || 'the body'} contains a NUL character`, in: 'body' });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => nulCharacters(item, `${pointer}/${i}`, out));
    return;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const child = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (key.includes('\u0000')) out.push({ pointer: child, code: 'invalid_characters', detail: 'a field name contains a NUL character', in: 'body' });
      else nulCharacters(item, child, out);
    }
  }
}

/**
 * Keys the prototype-poisoning-safe parser refuses (`__proto__`, and `constructor` holding `prototype`), found
 * in a plain JSON.parse of the same text (which makes them own properties, harmlessly) so the answer can name them.
 */
function forbiddenKeys(value: unknown, pointer: string, out: FieldError[]): void {
  if (out.length >= MAX_REPORTED || !value || typeof value !== 'object') return;
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((item, i) => [String(i), item]) : Object.entries(value);
  for (const [key, item] of entries) {
    const child = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const poisoning = !Array.isArray(value) && (key === '__proto__' || (key === 'constructor' && !!item && typeof item === 'object' && Object.hasOwn(item, 'prototype')));
    if (poisoning) out.push({ pointer: child, code: 'forbidden_field_name', detail: `${key} is not accepted as a field name`, in: 'body' });
    else forbiddenKeys(item, child, out);
  }
}

function parseError(text: string): ApiError {
  let plain: unknown;
  try {
    plain = JSON.parse(text);
  } catch {
    return new ApiError('malformed_json', 'The request body is not valid JSON');
  }
  const errors: FieldError[] = [];
  forbiddenKeys(plain, '', errors);
  return errors.length > 0
    ? new ApiError('validation_failed', `${errors.length} field(s) failed validation`, { errors })
    : new ApiError('malformed_json', 'The request body is not valid JSON');
}

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
    const text = raw.toString('utf8');
    parseJson(request, text, (err, parsed) => {
      if (err) return done(parseError(text), undefined);
      // Cheap pre-check on the text: NUL only ever arrives escaped as \u0000.
      if (text.includes('\\u0000')) {
        const errors: FieldError[] = [];
        nulCharacters(parsed, '', errors);
        if (errors.length > 0) return done(new ApiError('validation_failed', 'The body contains NUL characters', { errors }), undefined);
      }
      done(null, parsed);
    });
  });
}
