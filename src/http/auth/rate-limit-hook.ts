import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import type { RateCount, RateCounter } from './rate-counter.js';

/**
 * The per-credential rate limit (docs/errors.md#rate-limits) as one callback hook of the signed scope: counts the
 * request against its credential, sets the IETF draft headers RateLimit-Limit, -Remaining and -Reset (seconds), and
 * over the limit answers 429 `rate_limited` with Retry-After. Written here rather than taken from @fastify/rate-limit:
 * the plugin ran as a route-level hook (after the body's parse) unless registered by hand, and cost about 6 µs of CPU
 * per request (two promises, its options' lookups) on the path every signed request takes (docs/benchmarks.md).
 * A counter that can answer at once (in memory, or PostgreSQL's between its flushes) costs no promise at all.
 */
export function rateLimitHook(counter: RateCounter, limit: { max: number; windowMs: number }) {
  const { max, windowMs } = limit;
  const windowSeconds = Math.ceil(windowMs / 1000);
  /** The headers every counted answer carries, and the refusal when the count is over the limit. */
  const decide = (reply: FastifyReply, count: RateCount): ApiError | undefined => {
    const reset = Math.max(0, Math.ceil(count.ttl / 1000));
    reply.header('ratelimit-limit', max);
    reply.header('ratelimit-remaining', Math.max(0, max - count.current));
    reply.header('ratelimit-reset', reset);
    if (count.current <= max) return undefined;
    reply.header('retry-after', reset);
    return new ApiError('rate_limited', `Rate limit of ${max} requests per ${windowSeconds} s exceeded for this credential; the window ends in ${reset} s`);
  };
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    let counted: RateCount | Promise<RateCount>;
    try {
      // After the signature: a verified request counts against its credential; nothing else reaches this hook.
      counted = counter.incr(request.auth?.publicKey ?? request.ip, windowMs, max);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (counted instanceof Promise) counted.then((count) => done(decide(reply, count)), done);
    else done(decide(reply, counted));
  };
}
