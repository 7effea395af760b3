import type { FastifyInstance, FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { ApiError } from '../domain/errors.js';
import { listOf } from './route-options.js';

export interface BodyLimits {
  /** Every operation without documents (BODY_LIMIT_BYTES). */
  bodyLimitBytes: number;
  /** Operations whose body carries documents as data URLs (DOCUMENT_BODY_LIMIT_BYTES). */
  documentBodyLimitBytes: number;
  /** Bodies above bodyLimitBytes read at once (LARGE_BODY_CONCURRENCY). */
  largeBodyConcurrency: number;
}

/** How long a large body waits for its turn before the answer is 503 with Retry-After. */
export const LARGE_BODY_WAIT_MS = 10_000;
/** Large bodies waiting at once; beyond this the answer is 503 at once (waiting costs a socket each). */
const MAX_WAITING = 64;
/** A `document` field whose schema allows more than this is a document upload. */
const DOCUMENT_FIELD_MIN = 1024 * 1024;

/** Whether a body schema has, at any depth, a `document` string field sized for files. */
export function carriesDocuments(schema: unknown, depth = 0): boolean {
  if (!schema || typeof schema !== 'object' || depth > 12) return false;
  const node = schema as Record<string, unknown>;
  const props = node.properties as Record<string, { maxLength?: number }> | undefined;
  if (props?.document && typeof props.document.maxLength === 'number' && props.document.maxLength > DOCUMENT_FIELD_MIN) return true;
  const children = [
    ...Object.values(props ?? {}),
    node.items,
    ...((node.anyOf as unknown[] | undefined) ?? []),
    ...((node.oneOf as unknown[] | undefined) ?? []),
    ...((node.allOf as unknown[] | undefined) ?? []),
  ];
  return children.some((child) => carriesDocuments(child, depth + 1));
}

/** A counting semaphore whose waiters give up after a deadline. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  /** Resolves true with a slot, false when none came free in time or too many already wait. */
  acquire(timeoutMs: number): Promise<boolean> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve(true);
    }
    if (this.waiting.length >= MAX_WAITING) return Promise.resolve(false);
    return new Promise((resolve) => {
      const grant = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(grant);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(false);
      }, timeoutMs);
      this.waiting.push(grant);
    });
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/** Whether the client is still to send a body the server has not read (a refusal then closes the connection). */
export function bodyPending(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return length !== undefined ? length !== '0' : request.headers['transfer-encoding'] !== undefined;
}

function isLarge(request: FastifyRequest, limit: number): boolean {
  const length = request.headers['content-length'];
  // Without a length (chunked), the body may be anything up to the route's limit.
  if (length === undefined) return request.headers['transfer-encoding'] !== undefined;
  return Number(length) > limit;
}

/**
 * Per-operation body limits and a bound on large bodies in memory. Documents routes take up to
 * DOCUMENT_BODY_LIMIT_BYTES, every other route BODY_LIMIT_BYTES (a larger declared length is a 413 before a byte
 * is read). Reading a body above BODY_LIMIT_BYTES takes one of LARGE_BODY_CONCURRENCY slots, held until the answer
 * is sent: the rest wait (their bytes stay in the kernel's buffers and the client's), then get a 503.
 * preParsing runs after onRequest, so on /v1 only requests whose key, timestamp and credential passed get here.
 */
export function registerBodyLimits(app: FastifyInstance, limits: BodyLimits): void {
  const slots = new Slots(limits.largeBodyConcurrency);

  const largeBody = async (request: FastifyRequest, reply: FastifyReply, payload: RequestPayload) => {
    if (!isLarge(request, limits.bodyLimitBytes)) return payload;
    if (!(await slots.acquire(LARGE_BODY_WAIT_MS))) {
      reply.header('connection', 'close');
      throw new ApiError('service_unavailable', 'Too many large request bodies are being received; retry shortly', { headers: { 'retry-after': '5' } });
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      slots.release();
    };
    // The client may have gone while it waited: its 'close' has fired already and would never free the slot.
    if (request.raw.destroyed || request.raw.socket?.destroyed) {
      release();
      throw new ApiError('service_unavailable', 'The connection closed while the body waited for its turn');
    }
    // 'close' fires once the response is finished or the connection died, whichever comes first.
    reply.raw.once('close', release);
    request.raw.once('error', release);
    return payload;
  };
  // Only routes that take more than BODY_LIMIT_BYTES get the slot hook: every other request (every GET) skips it.
  app.addHook('onRoute', (route) => {
    if (route.bodyLimit === undefined && carriesDocuments(route.schema?.body)) route.bodyLimit = limits.documentBodyLimitBytes;
    if ((route.bodyLimit ?? limits.bodyLimitBytes) <= limits.bodyLimitBytes) return;
    route.preParsing = [...listOf(route.preParsing), largeBody] as typeof route.preParsing;
  });
}
