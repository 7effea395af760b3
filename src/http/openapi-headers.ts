/**
 * Response headers in the OpenAPI documents. Fastify route schemas describe bodies only, so the headers every
 * response carries are declared here, once under `components.headers`, and referred to from each response:
 * - `X-Request-Id` on every response (app.ts sets it before anything else runs);
 * - on signed /v1 operations, the IETF draft `RateLimit-*` fields (auth/signed-scope.ts): declared on success;
 *   most errors after authentication carry them too;
 * - `Retry-After` on 429 (always) and 503 (when a retry can help);
 * - `Idempotent-Replayed: true` on the success of an operation that takes an `Idempotency-Key`, when replayed.
 */

import { isObject, type JsonObject } from './openapi-json.js';
import { FORMATS } from './schemas/patterns.js';

const integer = { type: 'integer', minimum: 0 };
const RETRY_AFTER = 'Seconds to wait before retrying (with the same Idempotency-Key for a mutation)';
const HEADERS: JsonObject = {
  'X-Request-Id': { required: true, description: 'This request’s id (also the problem body’s requestId): quote it to support', schema: { type: 'string', pattern: FORMATS.requestId.pattern } },
  'RateLimit-Limit': { required: true, description: 'Requests allowed per window for this credential (IETF draft RateLimit fields)', schema: integer },
  'RateLimit-Remaining': { required: true, description: 'Requests left in the current window', schema: integer },
  'RateLimit-Reset': { required: true, description: 'Seconds until the window resets', schema: integer },
  'Retry-After': { required: true, description: RETRY_AFTER, schema: integer },
  'Idempotent-Replayed': { required: false, description: 'true when this is the stored response of an earlier request with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } },
};
/** On a 503, Retry-After is sent where a retry can help (a busy record, an unreachable database, a large-body queue), not for a missing configuration. */
const RETRY_AFTER_IF_RETRYABLE: JsonObject = { required: false, description: `${RETRY_AFTER}; present when a retry can help`, schema: integer };

const RATE_LIMIT = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const ref = (name: string): JsonObject => ({ $ref: `#/components/headers/${name}` });

/** Declares the response headers of every operation of `doc` (in place) and returns it. */
export function declareResponseHeaders<T extends object>(doc: T): T {
  const root = doc as unknown as JsonObject;
  const components = (isObject(root.components) ? root.components : (root.components = {})) as JsonObject;
  components.headers = { ...(isObject(components.headers) ? components.headers : {}), ...HEADERS };
  const paths = isObject(root.paths) ? root.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method) || !isObject(operation) || !isObject(operation.responses)) continue;
      const signed = path.startsWith('/v1/');
      const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
      const idempotent = parameters.some((p) => isObject(p) && p.in === 'header' && typeof p.name === 'string' && p.name.toLowerCase() === 'idempotency-key');
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!isObject(response)) continue;
        const success = /^2/.test(status);
        const headers: JsonObject = { 'X-Request-Id': ref('X-Request-Id') };
        if (signed && success) for (const name of RATE_LIMIT) headers[name] = ref(name);
        if (status === '429') headers['Retry-After'] = ref('Retry-After');
        if (status === '503') headers['Retry-After'] = RETRY_AFTER_IF_RETRYABLE;
        if (idempotent && success) headers['Idempotent-Replayed'] = ref('Idempotent-Replayed');
        response.headers = { ...(isObject(response.headers) ? response.headers : {}), ...headers };
      }
    }
  }
  return doc;
}
