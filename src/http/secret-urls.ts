import type { FastifyRequest, RouteOptions } from 'fastify';
import { scrubBearerTokens } from '../logging.js';

const REDACTED = '[redacted]';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Path parameters that are bearer secrets (the hosted invitation page's token): no log line shows them, the
     * URL is logged with `[redacted]` in their place. Each must be a whole path segment (`/invitations/:token`).
     */
    secretParams?: readonly string[];
  }
}

function segmentsOf(url: string): string[] {
  return url.split('/');
}

/** Where a route's secret parameters sit in its path split on '/'; throws at registration when one is not a whole segment. */
function secretPositions(routeUrl: string, params: readonly string[]): number[] {
  const segments = segmentsOf(routeUrl);
  return params.map((name) => {
    const at = segments.indexOf(`:${name}`);
    if (at < 0) throw new Error(`route ${routeUrl} declares secretParams ${name}, which is not a whole segment of its path`);
    return at;
  });
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The URLs log lines show. A route carrying a secret in its path declares it (`config.secretParams`), and its URL is
 * logged with that segment redacted. A request no route took (a 404 or 405: a link cut or extended by a mail
 * client, `/invitations/<token>/`) is cut after the static start of every such route's path, whatever follows and
 * however it is spelled (percent-encoded, upper case): `/invitations/[redacted]` (decoded and lower case).
 */
export class SecretUrls {
  /** The static start, lower case, of each path declaring a secret: `/invitations` for `/invitations/:token/accept`. */
  private readonly prefixes = new Set<string>();

  /** An onRoute hook: checks a declaration against its route's path and learns the path's static start. */
  readonly collect = (route: RouteOptions): void => {
    const params = route.config?.secretParams;
    if (!params || params.length === 0) return;
    const first = Math.min(...secretPositions(route.url, params));
    const prefix = segmentsOf(route.url).slice(0, first).join('/').toLowerCase();
    if (prefix.includes(':') || prefix.includes('*')) throw new Error(`route ${route.url}: a secret parameter must follow a static path`);
    this.prefixes.add(prefix);
  };

  /**
   * The request's URL as a log line may show it; a token anywhere else in it (a route that took it in another
   * parameter's place, `/onboarding//<token>`) is scrubbed by its shape as the log fence does.
   */
  loggable(request: FastifyRequest): string {
    return scrubBearerTokens(this.declared(request));
  }

  private declared(request: FastifyRequest): string {
    const url = request.url;
    const params = request.is404 ? undefined : request.routeOptions.config?.secretParams;
    if (params && params.length > 0 && request.routeOptions.url) {
      const at = url.indexOf('?');
      const segments = segmentsOf(at < 0 ? url : url.slice(0, at));
      for (const position of secretPositions(request.routeOptions.url, params)) if (position < segments.length) segments[position] = REDACTED;
      return segments.join('/') + (at < 0 ? '' : url.slice(at));
    }
    if (request.is404 && this.prefixes.size > 0) {
      const plain = safeDecode(url).toLowerCase();
      for (const prefix of this.prefixes) {
        const at = plain.indexOf(prefix);
        if (at >= 0) return `${plain.slice(0, at + prefix.length)}/${REDACTED}`;
      }
    }
    return url;
  }

  /** Fastify's `req` serializer (the fields of its default) with the URL as `loggable` gives it. */
  readonly serializer = (request: FastifyRequest) => ({
    method: request.method,
    url: this.loggable(request),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  });
}
