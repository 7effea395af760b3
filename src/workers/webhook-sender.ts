import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { addressRange, systemResolver, type Resolver } from '../domain/webhooks/url-safety.js';

export interface SendResult {
  status: number | null;
  /** The first 1 KiB of the response body, as text. */
  body: string | null;
  retryAfter: string | undefined;
  error: string | null;
  durationMs: number;
}

export interface SenderOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  resolve?: Resolver;
}

const KEEP_BODY_BYTES = 1024;
/** Read this much of a response at most (so the connection can be reused); a longer one is cut off. */
const DRAIN_LIMIT_BYTES = 64 * 1024;

class BlockedAddressError extends Error {
  readonly code = 'EBLOCKED';
}

/**
 * POSTs webhook bodies. Every connection re-checks where it goes: host names resolve through a lookup that
 * refuses non-public addresses (so a name that re-resolves to 127.0.0.1 after the URL was accepted is still
 * refused), and address literals are judged before connecting. Redirects are not followed (a 3xx is a failure).
 */
export class WebhookSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly resolve: Resolver;

  constructor(private readonly options: SenderOptions) {
    this.resolve = options.resolve ?? systemResolver;
    const lookup = this.lookup;
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets: 256, lookup } as http.AgentOptions);
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 256, lookup } as https.AgentOptions);
  }

  private blockedReason(address: string): string | undefined {
    if (this.options.allowPrivate) return undefined;
    const range = addressRange(address);
    return range === 'unicast' ? undefined : `blocked_address: ${address} is a ${range} address`;
  }

  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolve(hostname).then(
      (addresses) => {
        const family = (a: string) => (isIP(a) === 6 ? 6 : 4);
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => family(a) === options.family) : addresses;
        const blocked = wanted.map((a) => this.blockedReason(a)).find((r) => r !== undefined);
        if (blocked) return callback(new BlockedAddressError(blocked), '', 4);
        if (wanted.length === 0) return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
        if (options.all) return (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, wanted.map((a) => ({ address: a, family: family(a) })));
        return callback(null, wanted[0]!, family(wanted[0]!));
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, '', 4),
    );
  };

  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.resolve(done({ status: null, body: null, retryAfter: undefined, error: 'invalid_url' }));
    }
    const host = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
    if (isIP(host)) {
      const blocked = this.blockedReason(host);
      if (blocked) return Promise.resolve(done({ status: null, body: null, retryAfter: undefined, error: blocked }));
    }
    const secure = target.protocol === 'https:';
    if (!secure && !(target.protocol === 'http:' && this.options.allowPrivate)) {
      return Promise.resolve(done({ status: null, body: null, retryAfter: undefined, error: `scheme_not_allowed: ${target.protocol}` }));
    }

    return new Promise<SendResult>((resolvePromise) => {
      let settled = false;
      const finish = (r: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolvePromise(done(r));
      };
      const payload = Buffer.from(body, 'utf8');
      const request = (secure ? https : http).request(target, {
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        headers: { ...headers, 'content-length': String(payload.length) },
      });
      const timer = setTimeout(() => {
        request.destroy(new Error(`timeout: no complete response within ${this.options.timeoutMs} ms`));
      }, this.options.timeoutMs);

      request.on('error', (err: NodeJS.ErrnoException) => {
        const message = err instanceof BlockedAddressError ? err.message : err.message.startsWith('timeout') ? err.message : `${err.code ?? 'error'}: ${err.message}`;
        finish({ status: null, body: null, retryAfter: undefined, error: message.slice(0, 500) });
      });
      request.on('response', (response) => {
        const kept: Buffer[] = [];
        let keptBytes = 0;
        let readBytes = 0;
        const retryAfter = typeof response.headers['retry-after'] === 'string' ? response.headers['retry-after'] : undefined;
        const result = () => ({
          status: response.statusCode ?? null,
          // PostgreSQL text cannot hold NUL; the rest is kept as the receiver sent it.
          body: Buffer.concat(kept).toString('utf8').replace(/\u0000/g, ''),
          retryAfter,
          error: null,
        });
        response.on('data', (chunk: Buffer) => {
          readBytes += chunk.length;
          if (keptBytes < KEEP_BODY_BYTES) {
            const part = chunk.subarray(0, KEEP_BODY_BYTES - keptBytes);
            kept.push(part);
            keptBytes += part.length;
          }
          if (readBytes > DRAIN_LIMIT_BYTES) {
            finish(result());
            response.destroy();
          }
        });
        response.on('end', () => finish(result()));
        response.on('error', () => finish(result()));
        response.on('aborted', () => finish(result()));
      });
      request.end(payload);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
