import { IntegratorApiError, IntegratorConnectionError } from './errors.js';
import type { operations } from './generated/openapi.js';
import { OPERATIONS, type OperationId } from './generated/operations.js';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { signingKey, signRequest } from './signing.js';

// ---------------------------------------------------------------------------------------------------------------
// Types from the OpenAPI document

type Op<K extends OperationId> = operations[K];
type ParamsOf<K extends OperationId> = Op<K> extends { parameters: infer P } ? P : never;
type PathOf<K extends OperationId> = ParamsOf<K> extends { path?: infer P } ? ([P] extends [never] ? undefined : P) : undefined;
type QueryOf<K extends OperationId> = ParamsOf<K> extends { query?: infer Q } ? ([Q] extends [never] ? undefined : Q) : undefined;
type RequestBodyOf<K extends OperationId> = Op<K> extends { requestBody?: infer R } ? R : undefined;
type BodyOf<K extends OperationId> = NonNullable<RequestBodyOf<K>> extends { content: { 'application/json': infer B } } ? (undefined extends RequestBodyOf<K> ? B | undefined : B) : undefined;
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : R extends { content?: never } ? void : never;
type ResponsesOf<K extends OperationId> = Op<K> extends { responses: infer R } ? R : never;
/** The body of the operation's success (200, 201, 202 or 204). */
export type ResultOf<K extends OperationId> = {
  [S in keyof ResponsesOf<K>]: S extends 200 | 201 | 202 | 204 ? JsonOf<ResponsesOf<K>[S]> : never;
}[keyof ResponsesOf<K>];

/** A member of the input: absent when the operation has no such part, optional when nothing in it is required. */
type Slot<N extends string, T> = [T] extends [undefined] ? unknown : undefined extends T ? { [P in N]?: Exclude<T, undefined> } : object extends T ? { [P in N]?: T } : { [P in N]: T };
/** What an operation takes: its path parameters, query and body, each only when it has them. */
export type InputOf<K extends OperationId> = Slot<'path', PathOf<K>> & Slot<'query', QueryOf<K>> & Slot<'body', BodyOf<K>>;
/** The arguments of a call: the input may be left out when nothing in it is required. */
type Args<K extends OperationId> = object extends InputOf<K> ? [input?: InputOf<K>, options?: CallOptions] : [input: InputOf<K>, options?: CallOptions];

export interface CallOptions {
  /** The Idempotency-Key of a POST, PATCH or DELETE; by default a fresh UUID, reused by every retry of this call. */
  idempotencyKey?: string;
  /** Abort the call (every attempt). */
  signal?: AbortSignal;
  /** Overrides the client's timeout for each attempt. */
  timeoutMs?: number;
}

// ---------------------------------------------------------------------------------------------------------------
// The client

export interface ClientOptions {
  /** The server, e.g. https://api.example.com or http://127.0.0.1:8080 (paths carry /v1). */
  baseUrl: string;
  /** The credential's 32-byte P-256 private key, hex with 0x. */
  privateKey: string;
  /** Per attempt (default 30 s). */
  timeoutMs?: number;
  /** Retries after the first attempt on network errors, 429, 503 and 409 idempotency_request_in_progress (default 3). */
  maxRetries?: number;
  /** The first backoff (default 500 ms); each next one doubles, with full jitter, capped at 30 s. */
  retryBaseMs?: number;
  /** Unix seconds now (tests of the clock window). */
  now?: () => number;
  /** A fetch implementation (default the global one). */
  fetch?: typeof fetch;
  /** Waits between retries (tests). */
  sleep?: (ms: number) => Promise<void>;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

const MUTATING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const MAX_BACKOFF_MS = 30_000;
/** How long a signed mutation's timestamp is remembered: the server's window (60 s) and a margin. */
const REMEMBER_SECONDS = 120;
/** Bodies up to this many characters are told apart by hash when looking for a repeated message. */
const HASHED_BODY_CHARS = 65_536;

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(headers: Headers, nowMs: number): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

function retryable(status: number, body: unknown): boolean {
  if (status === 429 || status === 503) return true;
  return status === 409 && (body as { code?: unknown } | undefined)?.code === 'idempotency_request_in_progress';
}

function parse(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function expandPath(template: string, params: Record<string, unknown> | undefined): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new TypeError(`path parameter ${name} is required`);
    return encodeURIComponent(String(value));
  });
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null) search.append(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

export function createIntegratorClient(options: ClientOptions) {
  const key = signingKey(options.privateKey);
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const maxRetries = options.maxRetries ?? 3;
  const baseMs = options.retryBaseMs ?? 500;

  /**
   * One call, retried on network errors, 429, 503 and an in-progress idempotent request, after Retry-After when the
   * server gives one, else exponential backoff with full jitter. Every attempt is signed afresh (a new timestamp); a
   * mutation carries the same Idempotency-Key on every attempt, so it takes effect once.
   */
  // The last timestamp each mutating message was signed with. Two identical mutations in one second (a user asking
  // for two one-time codes in a row) would be one signed message, which the server's replay guard refuses as 409
  // duplicate_request: the later one is signed with the next second instead (the server accepts ±60 s). A large body
  // (a document upload) is not hashed a second time for this: its length stands for it, and a same-length upload to
  // the same path in the same second only moves to the next second.
  const lastSigned = new Map<string, number>();
  function timestampFor(method: string, pathAndQuery: string, payload: string | undefined): number {
    const current = now();
    if (!MUTATING.has(method)) return current;
    const body = payload === undefined ? '' : payload.length > HASHED_BODY_CHARS ? `#${payload.length}` : bytesToHex(sha256(utf8ToBytes(payload)));
    const message = `${method} ${pathAndQuery}\n${body}`;
    const last = lastSigned.get(message);
    const timestamp = last !== undefined && last >= current ? last + 1 : current;
    if (lastSigned.size > 1000) for (const [m, at] of lastSigned) if (at < current - REMEMBER_SECONDS) lastSigned.delete(m);
    lastSigned.set(message, timestamp);
    return timestamp;
  }

  async function request(method: string, pathAndQuery: string, body?: unknown, call: CallOptions = {}): Promise<RawResponse> {
    const upper = method.toUpperCase();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const idempotencyKey = MUTATING.has(upper) ? (call.idempotencyKey ?? globalThis.crypto.randomUUID()) : undefined;
    const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? 30_000;
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { ...signRequest(key, timestampFor(upper, pathAndQuery, payload), upper, pathAndQuery, payload), accept: 'application/json' };
      if (payload !== undefined) headers['content-type'] = 'application/json';
      if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
      let response: Response;
      let text: string;
      try {
        response = await doFetch(`${base}${pathAndQuery}`, { method: upper, headers, signal, ...(payload === undefined ? {} : { body: payload }) });
        text = await response.text();
      } catch (err) {
        if (call.signal?.aborted) throw err;
        if (attempt >= maxRetries) throw new IntegratorConnectionError(`${upper} ${pathAndQuery}: no answer after ${attempt + 1} attempt(s): ${(err as Error).message}`, err);
        await sleep(backoff(attempt, undefined));
        continue;
      }
      const parsed = parse(text);
      if (response.status < 300) return { status: response.status, headers: response.headers, body: parsed };
      if (attempt < maxRetries && retryable(response.status, parsed)) {
        await sleep(backoff(attempt, retryAfterMs(response.headers, Date.now())));
        continue;
      }
      const problem = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : { detail: String(parsed ?? '') };
      throw new IntegratorApiError(response.status, problem, response.headers.get('x-request-id') ?? undefined);
    }
  }

  function backoff(attempt: number, retryAfter: number | undefined): number {
    if (retryAfter !== undefined) return Math.min(retryAfter, MAX_BACKOFF_MS);
    return Math.random() * Math.min(MAX_BACKOFF_MS, baseMs * 2 ** attempt);
  }

  /** Calls an operation by its operationId with typed input and result. */
  async function call<K extends OperationId>(operationId: K, ...args: Args<K>): Promise<ResultOf<K>> {
    const [input, callOptions] = args as unknown as [{ path?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown } | undefined, CallOptions | undefined];
    const op = OPERATIONS[operationId];
    const path = expandPath(op.path, input?.path) + queryString(input?.query);
    return (await request(op.method, path, input?.body, callOptions)).body as ResultOf<K>;
  }

  /**
   * Every item of a paginated list, page after page (`startingAfter` = the last item's id), as an async iterator:
   * `for await (const event of api.paginate('listEvents', { query: { order: 'asc' } })) ...`.
   */
  async function* paginate<K extends PaginatedId>(operationId: K, ...args: Args<K>): AsyncGenerator<ItemOf<K>> {
    const [input, callOptions] = args as unknown as [{ path?: Record<string, unknown>; query?: Record<string, unknown> } | undefined, CallOptions | undefined];
    const op = OPERATIONS[operationId];
    let startingAfter = input?.query?.startingAfter as string | undefined;
    for (;;) {
      const path = expandPath(op.path, input?.path) + queryString({ ...input?.query, ...(startingAfter ? { startingAfter } : {}) });
      const page = (await request(op.method, path, undefined, callOptions)).body as { data: Record<string, unknown>[]; hasMore: boolean };
      for (const item of page.data) yield item as ItemOf<K>;
      const last = page.data[page.data.length - 1];
      if (!page.hasMore || !last) return;
      startingAfter = String(last[op.cursor!]);
    }
  }

  const methods = Object.fromEntries((Object.keys(OPERATIONS) as OperationId[]).map((id) => [id, (...args: unknown[]) => (call as (id: OperationId, ...rest: unknown[]) => Promise<unknown>)(id, ...args)])) as unknown as Methods;

  return { ...methods, call, paginate, request, publicKey: key.publicKey };
}

/** One method per operation, named by its operationId: `api.listVaults()`, `api.prepareVaultDeposit({ body })`. */
export type Methods = { [K in OperationId]: (...args: Args<K>) => Promise<ResultOf<K>> };

type PaginatedId = { [K in OperationId]: (typeof OPERATIONS)[K]['cursor'] extends string ? K : never }[OperationId];
type ItemOf<K extends OperationId> = ResultOf<K> extends { data: (infer I)[] } ? I : never;

export type IntegratorClient = ReturnType<typeof createIntegratorClient>;
