import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the receiver got it. */
export interface ReceivedRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  /** Node's lower-cased header record. */
  headers: http.IncomingHttpHeaders;
  /** The body exactly as received. */
  rawBody: Buffer;
  /** Epoch milliseconds when the request's headers arrived (monotonic within the process). */
  receivedAt: number;
  /** Its position among every request the receiver got, from 0. */
  index: number;
  /** The body as UTF-8 text. */
  text(): string;
  /** The body parsed as JSON. */
  json<T = any>(): T;
  /** A single-valued header (the first value of a repeated one). */
  header(name: string): string | undefined;
}

/** What the receiver answers to one request. */
export interface ReceiverResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Answers only once this settles (the request is recorded on arrival): a test holds a delivery in flight. */
  until?: Promise<unknown>;
}

export interface Receiver {
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** Every request so far, in arrival order. */
  readonly requests: readonly ReceivedRequest[];
  /** Queues answers, used one per request in arrival order; when the queue is empty the default answers. */
  respond(...responses: ReceiverResponse[]): void;
  /** The answer once the queue is empty (initially 200 "ok"). */
  setDefault(response: ReceiverResponse): void;
  /**
   * The next request not yet taken by `next()` (a cursor over `requests`): resolves at once when one is
   * already there, else on its arrival. Rejects after `timeoutMs` so that a missing delivery fails the test.
   */
  next(timeoutMs?: number): Promise<ReceivedRequest>;
  /** Resolves with every request once at least `count` have arrived (in total, not since the last call). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const epochNow = () => performance.timeOrigin + performance.now();

interface Waiter {
  ready: () => boolean;
  settle: () => void;
  fail: (err: Error) => void;
}

/**
 * A real HTTP server on 127.0.0.1 with a free port that records every request and answers from a
 * programmable queue. Waiting is driven by arrivals (promises resolved from the request handler), never by
 * sleeping or polling; the timeout only turns a request that never comes into a failure.
 */
export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const queue: ReceiverResponse[] = [];
  let fallback: ReceiverResponse = { status: 200, body: 'ok' };
  let cursor = 0;
  let closed = false;
  const waiters = new Set<Waiter>();

  const wake = () => {
    for (const w of [...waiters]) {
      if (w.ready()) {
        waiters.delete(w);
        w.settle();
      }
    }
  };

  const server = http.createServer((req, res) => {
    const receivedAt = epochNow();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const headers = req.headers;
      const entry: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers,
        rawBody,
        receivedAt,
        index: requests.length,
        text: () => rawBody.toString('utf8'),
        json: () => JSON.parse(rawBody.toString('utf8')),
        header: (name) => {
          const v = headers[name.toLowerCase()];
          return Array.isArray(v) ? v[0] : v;
        },
      };
      const answer = queue.shift() ?? fallback;
      requests.push(entry);
      const send = () => {
        res.statusCode = answer.status ?? 200;
        for (const [k, v] of Object.entries(answer.headers ?? {})) res.setHeader(k, v);
        res.end(answer.body ?? '');
      };
      if (answer.until) void answer.until.finally(send);
      else send();
      wake();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  function wait<T>(ready: () => boolean, value: () => T, timeoutMs: number, what: string): Promise<T> {
    if (ready()) return Promise.resolve(value());
    if (closed) return Promise.reject(new Error(`receiver closed while waiting for ${what}`));
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`receiver: timed out after ${timeoutMs} ms waiting for ${what} (got ${requests.length} request(s))`));
      }, timeoutMs);
      const waiter: Waiter = {
        ready,
        settle: () => {
          clearTimeout(timer);
          resolve(value());
        },
        fail: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      waiters.add(waiter);
    });
  }

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    respond: (...responses) => void queue.push(...responses),
    setDefault: (response) => void (fallback = response),
    next(timeoutMs = DEFAULT_TIMEOUT_MS) {
      const at = cursor++;
      return wait(
        () => requests.length > at,
        () => requests[at]!,
        timeoutMs,
        `request #${at + 1}`,
      );
    },
    waitFor(count, timeoutMs = DEFAULT_TIMEOUT_MS) {
      return wait(
        () => requests.length >= count,
        () => requests.slice(),
        timeoutMs,
        `${count} request(s)`,
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const w of waiters) w.fail(new Error('receiver closed'));
      waiters.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
