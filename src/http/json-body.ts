import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, invalidFields, type FieldError } from '../domain/errors.js';
import { joinPointer } from '../domain/json-pointer.js';
import { bodyPending } from './body-limits.js';
import { jsonContentTypeRefusal, parseMediaType } from './media-type.js';
import { listOf } from './route-options.js';

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
      const child = joinPointer(pointer, key);
      if (key.includes('\u0000')) out.push({ pointer: child, code: 'invalid_characters', detail: 'a field name contains a NUL character', in: 'body' });
      else nulCharacters(item, child, out);
    }
  }
}

/**
 * The keys Fastify's safe parser (secure-json-parse, `protoAction` and `constructorAction` 'error') refuses:
 * `__proto__`, and `constructor` holding an object with its own `prototype`. Found in the parsed value, where
 * JSON.parse made them harmless own properties, rather than by that parser's two regular expressions over the text:
 * a document body is megabytes of base64, which those scans walked on every upload (1.30–1.38 ms to parse a 1.4 MB
 * body that way, 1.06–1.14 with JSON.parse alone, 1.08–1.20 with this walk and the depth scan), where the value has a
 * few dozen keys. test/http/json-poisoning.property.test.ts holds the two to the same answers. The path is built only
 * for a key refused.
 */
function forbiddenKeys(value: unknown, path: string[], out: FieldError[]): void {
  if (out.length >= MAX_REPORTED || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item === null || typeof item !== 'object') continue;
      path.push(String(i));
      forbiddenKeys(item, path, out);
      path.pop();
    }
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    const holdsObject = item !== null && typeof item === 'object';
    if (key === '__proto__' || (key === 'constructor' && holdsObject && Object.hasOwn(item, 'prototype'))) {
      out.push({ pointer: joinPointer('', ...path, key), code: 'forbidden_field_name', detail: `${key} is not accepted as a field name`, in: 'body' });
    } else if (holdsObject) {
      path.push(key);
      forbiddenKeys(item, path, out);
      path.pop();
    }
  }
}

/** Deepest nesting of arrays and objects a body may have; ours need a handful, recursion needs a bound. */
export const MAX_JSON_DEPTH = 64;

/**
 * Nesting depth of JSON text, measured on the text before any parser or recursive check sees it (a body nested
 * thousands deep would overflow their stacks). Iterative. It jumps from one structural character to the next
 * with a native regex and over strings with indexOf: a document body is megabytes of base64 inside one string,
 * which a character-by-character loop would walk at a fraction of the speed.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  const structural = /["[\]{}]/g;
  let depth = 0;
  let match: RegExpExecArray | null;
  while ((match = structural.exec(text)) !== null) {
    const c = text.charCodeAt(match.index);
    if (c === 0x22) {
      // The closing quote is the next one not escaped (preceded by an even number of backslashes).
      let end = match.index;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return false; // unterminated: the parser refuses it
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
        if (backslashes % 2 === 0) break;
      }
      structural.lastIndex = end + 1;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else depth--;
  }
  return false;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as received: the signature covers these bytes, never a re-serialization. */
    rawBody?: Buffer;
    /** Set once rawBody has been parsed into `body` (parsing waits until the request is authenticated). */
    bodyParsed?: boolean;
  }
}

/**
 * The body's JSON, refused with a problem naming what is wrong: too deep, not JSON, a prototype-poisoning key, a NUL
 * character. A leading byte order mark is skipped, as Fastify's parser does.
 */
export function parseJsonText(text: string): unknown {
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw invalidFields(
      [{ pointer: '', code: 'too_deep', detail: `arrays and objects may be nested at most ${MAX_JSON_DEPTH} levels deep`, in: 'body' }],
      `The body is nested more than ${MAX_JSON_DEPTH} levels deep`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw new ApiError('malformed_json', 'The request body is not valid JSON');
  }
  const forbidden: FieldError[] = [];
  forbiddenKeys(parsed, [], forbidden);
  if (forbidden.length > 0) throw invalidFields(forbidden);
  // Cheap pre-check on the text: NUL only ever arrives escaped as \u0000.
  if (text.includes('\\u0000')) {
    const errors: FieldError[] = [];
    nulCharacters(parsed, '', errors);
    if (errors.length > 0) throw invalidFields(errors, 'The body contains NUL characters');
  }
  return parsed;
}

/** Methods whose body Fastify never reads: their Content-Type is not judged either. */
const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);

/**
 * JSON is the only accepted body type (anything else is a 415, judged by media-type.ts from the header alone, in
 * preParsing: after onRequest's authentication, before a byte of the body is read). Reading and parsing are two
 * steps: the content parser only collects the bytes (within the route's body limit), and `parseBody` turns them
 * into `body` once the caller is known: the signed scope calls it after the signature is verified, every other
 * route through a route-level preValidation hook. An unauthenticated body is never parsed.
 */
export function registerJsonBody(app: FastifyInstance): (request: FastifyRequest) => Promise<void> {
  app.removeAllContentTypeParsers();
  // A callback hook, decided without waiting: an async one costs a promise on every request, bodyless ones included.
  app.addHook('preParsing', (request, reply, payload, done) => {
    // A path no route takes is a 404 (or 405) whatever its body; a request without a body needs no type.
    if (request.is404 || BODYLESS.has(request.method)) return done(null, payload);
    const contentType = request.headers['content-type'];
    if (contentType === undefined && !bodyPending(request)) return done(null, payload);
    const refused = jsonContentTypeRefusal(contentType);
    // A route that takes a document as XML (a bank statement) takes it raw, as application/xml or text/xml.
    if (refused && request.routeOptions.config?.xmlBody && isXml(contentType)) return done(null, payload);
    // The hosted onboarding flow's forms: its own parsers (urlencoded, multipart) and its own refusals.
    if (request.routeOptions.config?.formBody) return done(null, payload);
    if (refused) {
      if (bodyPending(request)) reply.header('connection', 'close');
      return done(refused);
    }
    done(null, payload);
  });
  // Every media type reaching the parser has passed the hook above: the parser only collects the bytes.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    request.rawBody = body as Buffer;
    done(null, undefined);
  });

  async function parseBody(request: FastifyRequest): Promise<void> {
    if (request.bodyParsed || request.routeOptions.config?.formBody) return;
    request.bodyParsed = true;
    const raw = request.rawBody;
    // Clients send Content-Type on every request, including bodiless DELETEs.
    if (!raw || raw.length === 0) return;
    const xml = request.routeOptions.config?.xmlBody;
    request.body = xml && isXml(request.headers['content-type']) ? xml(raw.toString('utf8')) : parseJsonText(raw.toString('utf8'));
  }

  app.addHook('onRoute', (route) => {
    // Fastify reads no body of these: nothing to parse.
    if (listOf(route.method).every((method) => BODYLESS.has(method))) return;
    // Route-level hooks run after every scope's hooks: the signed scope has parsed by then, others parse here.
    route.preValidation = [...listOf(route.preValidation), parseBody] as typeof route.preValidation;
  });
  return parseBody;
}

/** application/xml, text/xml or any application/*+xml: what a route with `xmlBody` takes besides JSON. */
function isXml(value: string | undefined): boolean {
  const media = value === undefined ? undefined : parseMediaType(value);
  return !!media && (media.type === 'application' || media.type === 'text') && (media.subtype === 'xml' || media.subtype.endsWith('+xml'));
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route also takes an XML document as its body (a bank statement): the JSON body the document stands for. */
    xmlBody?: (xml: string) => unknown;
    /** The route takes HTML forms (the hosted onboarding flow): its scope's parsers read them, never as JSON. */
    formBody?: boolean;
  }
}
