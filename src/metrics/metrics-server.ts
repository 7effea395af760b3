import { createHash, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { bearerToken } from '../http/auth/bearer.js';
import type { BoundPort } from '../http/bound-port.js';
import type { Metrics } from './metrics.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether an Authorization header carries the bearer token (compared as hashes: no timing difference). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = bearerToken(header);
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/**
 * `npm run worker` has no API port: with METRICS_PORT it serves GET /metrics (and nothing else) on its own port,
 * bound at start before anything else (bound-port.ts), with the API's rules (METRICS_TOKEN as a bearer token when set).
 */
export function serveMetrics(metrics: Metrics, port: BoundPort, options: { host: string; token: string | undefined }): { url: string; close(): Promise<void> } {
  const { server } = port;
  port.serve((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (options.token !== undefined && !bearerMatches(req.headers.authorization, options.token)) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer realm="metrics"' }).end('GET /metrics requires Authorization: Bearer <METRICS_TOKEN>\n');
      return;
    }
    metrics.registry.metrics().then(
      (body) => res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }).end(body),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  return { url: `http://${options.host}:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
