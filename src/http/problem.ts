import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { isTransientConflict } from '../db/conflicts.js';
import { databaseUnavailableCause } from '../db/unavailable.js';
import { ApiError, ERROR_CODES, type ErrorCode, type FieldError, type ProblemExtensions } from '../domain/errors.js';
import type { Problem } from './schemas/problem.js';
import { toFieldErrors } from './validation.js';
import { listOf } from './route-options.js';
import { scrubBearerTokens } from '../logging.js';
import { badAddressPage, notFoundPage } from './pages/not-found-page.js';
import { PAGE_HEADERS, wantsHtmlPage } from './pages/page-layout.js';

export function problemBody(request: FastifyRequest, code: ErrorCode, detail: string, errors?: FieldError[], extensions?: ProblemExtensions): Problem {
  const { status, title } = ERROR_CODES[code];
  const body: Problem = { type: `/problems/${code}`, title, status, detail, code, requestId: String(request.id), ...extensions };
  if (errors && errors.length > 0) body.errors = errors;
  return body;
}

function sendProblem(reply: FastifyReply, code: ErrorCode, detail: string, errors?: FieldError[], extensions?: ProblemExtensions): FastifyReply {
  // A 404 to a browser asking for a page outside the JSON APIs is the HTML 404 page: decided here, where every problem
  // is answered, rather than in an onSend hook that every answer of the server would run through.
  if (ERROR_CODES[code].status === 404 && wantsHtmlPage(reply.request)) {
    return reply
      .code(404)
      .headers({ ...PAGE_HEADERS, 'cache-control': 'no-store' })
      .type('text/html; charset=utf-8')
      .send(notFoundPage(reply.request.url.split('?')[0] ?? '/'));
  }
  return reply
    .code(ERROR_CODES[code].status)
    .type('application/problem+json')
    .send(problemBody(reply.request, code, detail, errors, extensions));
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_failed',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_json',
};

/** Retry-After of a 503 database_unavailable: a lost connection is replaced at the next request once the server answers. */
const DATABASE_RETRY_AFTER_SECONDS = '2';

/** Errors the router raises before any hook runs (a URL that cannot be decoded). */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  // A browser following a damaged link (a hosted page's, say) gets a page, with the pages' headers, not a problem.
  if (wantsHtmlPage(request)) {
    void reply.code(400).headers({ ...PAGE_HEADERS, 'cache-control': 'no-store' }).type('text/html; charset=utf-8').send(badAddressPage());
    return;
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    void sendProblem(reply, 'malformed_url', 'The URL contains an invalid percent-encoding');
    return;
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    // The router cannot say which parameter: the path as a whole is named.
    void sendProblem(reply, 'validation_failed', 'A path parameter is too long', [{ pointer: '', code: 'too_long', detail: 'a path parameter is longer than the router accepts', in: 'path' }]);
    return;
  }
  void sendProblem(reply, 'validation_failed', ERROR_CODES.validation_failed.title);
}

/**
 * The route's domain checks on a body the schema refused, minus anything at, above or below a field the schema
 * already reported (the domain's view of a structurally broken field adds nothing). Best effort: the checks
 * are written to accept any input, and a failure here must never replace the 400.
 */
function domainErrorsBeside(request: FastifyRequest, schemaErrors: FieldError[]): FieldError[] {
  const checks = request.routeOptions.config?.bodyChecks;
  if (!checks) return [];
  const related = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
  try {
    return checks(request.body).filter((e) => !schemaErrors.some((s) => related(e.pointer, s.pointer)));
  } catch (err) {
    request.log.warn({ err }, 'body checks failed on a refused body');
    return [];
  }
}

/** One handler renders every failure as RFC 9457; nothing else builds error bodies. */
export function registerProblemHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      if (error.options.headers) reply.headers(error.options.headers);
      if (error.status >= 500) request.log.error({ err: error }, 'request failed');
      return sendProblem(reply, error.code, error.detail, error.options.errors, error.options.extensions);
    }
    if (error.validation) {
      const errors = toFieldErrors(error.validation as never, error.validationContext ?? 'body');
      if (error.validationContext === 'body') errors.push(...domainErrorsBeside(request, errors));
      return sendProblem(reply, 'validation_failed', `${errors.length} field(s) failed validation`, errors);
    }
    const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (mapped) return sendProblem(reply, mapped, ERROR_CODES[mapped].title);
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'client error');
      return sendProblem(reply, 'validation_failed', 'The request could not be processed as sent');
    }
    if (isTransientConflict(error)) {
      // A 5xx, so the Idempotency-Key is given back and the same request can be retried (a 4xx would be stored).
      request.log.warn({ err: error }, 'transaction lost a lock conflict; nothing was changed');
      reply.header('retry-after', '1');
      return sendProblem(reply, 'resource_busy', 'Another request or the webhook worker was changing the same records; nothing was changed. Retry with the same Idempotency-Key');
    }
    const unavailable = databaseUnavailableCause(error);
    if (unavailable) {
      // The driver's code and message only: the wrapping error quotes the statement and its parameters.
      request.log.warn({ cause: unavailable }, 'database unavailable');
      reply.header('retry-after', DATABASE_RETRY_AFTER_SECONDS);
      return sendProblem(
        reply,
        'database_unavailable',
        'The database could not be reached or did not answer in time. Retry with the same Idempotency-Key; a change lost while committing may have been made',
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, 'internal_error', 'An internal error occurred; quote the requestId when reporting it');
  });

  // A shadow router answers "is there a route at this path for another method?" so that case is a 405.
  const shadow = FindMyWay();
  app.addHook('onRoute', (route) => {
    const methods = listOf(route.method);
    for (const method of methods) {
      if (!shadow.hasRoute(method as HTTPMethod, route.url)) shadow.on(method as HTTPMethod, route.url, () => {});
    }
  });

  app.setNotFoundHandler((request, reply) => {
    const raw = request.url.split('?')[0] ?? '/';
    const allowed = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).filter((m) => shadow.find(m, raw) !== null);
    // A hosted page's token in a path no route took (a link cut or extended) is not repeated in the detail.
    const path = scrubBearerTokens(raw);
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      return sendProblem(reply, 'method_not_allowed', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`);
    }
    return sendProblem(reply, 'route_not_found', `No endpoint ${request.method} ${path}`);
  });
}
