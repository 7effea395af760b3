import { ApiError } from '../../../domain/errors.js';
import { bearerMatches } from '../../../metrics/metrics-server.js';
import type { FailureLimiter } from '../../auth/failure-limiter.js';
import type { Api, Deps } from '../../types.js';

const WWW_AUTHENTICATE = { 'www-authenticate': 'Bearer realm="metrics"' };

/**
 * GET /metrics in Prometheus's text format (docs/metrics.md). With METRICS_TOKEN set it takes
 * `Authorization: Bearer <token>` (failures count towards the per-address limit, like signatures); without it the
 * sandbox serves it to anyone and production does not serve it at all (a plain 404). Not in the OpenAPI document:
 * it is for the operator's Prometheus, not for integrators.
 */
export function metricsRoute(api: Api, deps: Deps, failures: FailureLimiter): void {
  const { metrics } = deps;
  const token = deps.config.metricsToken;
  if (!metrics || (token === undefined && deps.config.appEnv === 'production')) return;
  api.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (token !== undefined && !bearerMatches(request.headers.authorization, token)) {
      throw failures.fail(request.ip, new ApiError('missing_auth_headers', 'GET /metrics requires Authorization: Bearer <METRICS_TOKEN>', { headers: WWW_AUTHENTICATE }));
    }
    const body = await metrics.registry.metrics();
    return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(body);
  });
}
