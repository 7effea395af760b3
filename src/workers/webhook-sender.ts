import { isIP, type LookupFunction } from 'node:net';
import type * as Undici from 'undici';
import type { SendOutcome } from '../domain/webhooks/attempt-outcome.js';
import { isSuccess } from '../domain/webhooks/retry-policy.js';
import { addressRange, systemResolver, type Resolver } from '../domain/webhooks/url-safety.js';
import { onFirstUse } from '../on-first-use.js';

const undici = onFirstUse<typeof Undici>('undici');

/** A send's outcome before its duration is known. */
type Timeless<T> = T extends unknown ? Omit<T, 'durationMs'> : never;
type Unclocked = Timeless<SendOutcome>;

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

class TimeoutError extends Error {}

/** The recorded error is capped (a library's message can be long). */
const REASON_CHARS = 500;

/** A failed request as recorded: our own reasons as they are, others with their code. */
function describe(err: unknown): Unclocked {
  const chain: unknown[] = [];
  for (let e: unknown = err; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  const own = chain.find((e) => e instanceof BlockedAddressError || e instanceof TimeoutError) as Error | undefined;
  if (own) return { kind: own instanceof BlockedAddressError ? 'refused_address' : 'network_error', reason: own.message.slice(0, REASON_CHARS) };
  const root = (chain.find((e) => (e as { code?: unknown }).code !== undefined && !(e as Error).message?.startsWith('fetch failed')) ?? err) as NodeJS.ErrnoException;
  return { kind: 'network_error', reason: `${root.code ?? 'error'}: ${root.message}`.slice(0, REASON_CHARS) };
}

/**
 * POSTs webhook bodies. Every connection re-checks where it goes: host names resolve through a lookup that
 * refuses non-public addresses (so a name that re-resolves to 127.0.0.1 after the URL was accepted is still
 * refused), and address literals are judged before connecting. Redirects are not followed (a 3xx is a failure).
 */
export class WebhookSender {
  private connections: Undici.Agent | undefined;
  private readonly resolve: Resolver;

  constructor(private readonly options: SenderOptions) {
    this.resolve = options.resolve ?? systemResolver;
  }

  /** undici (keep-alive, up to 256 connections per origin), made with the first send: every new connection resolves through `lookup`. */
  private agent(): Undici.Agent {
    const lookup = this.lookup;
    return (this.connections ??= new (undici().Agent)({ connections: 256, connect: { lookup } }));
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

  send(url: string, headers: Record<string, string>, body: string): Promise<SendOutcome> {
    // undici is loaded with the first send, before the clock starts: its load is not the receiver's time.
    const dispatcher = this.agent();
    const started = performance.now();
    const done = (r: Unclocked): SendOutcome => ({ ...r, durationMs: Math.round(performance.now() - started) });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.resolve(done({ kind: 'refused_url', reason: 'invalid_url' }));
    }
    const host = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
    if (isIP(host)) {
      const blocked = this.blockedReason(host);
      if (blocked) return Promise.resolve(done({ kind: 'refused_address', reason: blocked }));
    }
    const secure = target.protocol === 'https:';
    if (!secure && !(target.protocol === 'http:' && this.options.allowPrivate)) {
      return Promise.resolve(done({ kind: 'refused_url', reason: `scheme_not_allowed: ${target.protocol}` }));
    }

    return this.post(target, headers, body, dispatcher).then(done);
  }

  private async post(target: URL, headers: Record<string, string>, body: string, dispatcher: Undici.Agent): Promise<Unclocked> {
    // One deadline for connecting, the headers and the body together.
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new TimeoutError(`timeout: no complete response within ${this.options.timeoutMs} ms`)), this.options.timeoutMs);
    try {
      const response = await undici().request(target, { method: 'POST', headers, body, dispatcher, signal: abort.signal });
      const kept: Buffer[] = [];
      let keptBytes = 0;
      let readBytes = 0;
      try {
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          readBytes += chunk.length;
          if (keptBytes < KEEP_BODY_BYTES) {
            const part = chunk.subarray(0, KEEP_BODY_BYTES - keptBytes);
            kept.push(part);
            keptBytes += part.length;
          }
          // Enough read: the rest is not worth the wait (the connection is dropped rather than reused).
          if (readBytes > DRAIN_LIMIT_BYTES) break;
        }
      } catch {
        // A body cut off midway still leaves the status and what was read.
      }
      const status = response.statusCode;
      // PostgreSQL text cannot hold NUL; the rest is kept as the receiver sent it.
      const text = Buffer.concat(kept).toString('utf8').replace(/\u0000/g, '');
      if (isSuccess(status)) return { kind: 'delivered', status, body: text };
      const retryAfter = response.headers['retry-after'];
      return { kind: 'http_error', status, body: text, retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined };
    } catch (err) {
      return describe(err);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    void this.connections?.destroy();
  }
}
