import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import { onFirstUse } from '../on-first-use.js';

const undici = onFirstUse<typeof Undici>('undici');

/*
 * viem's HTTP transport posts JSON-RPC with the global fetch. Under bench:transactions (two node calls before a
 * submission is recorded, one after it, one receipt for the watcher) fetch's web streams made each call cost about
 * 660 µs of the API's CPU against 130 µs for the same call through undici's request (docs/benchmarks.md#transactions).
 * This is the fetch viem calls (its `fetchFn` option), answering with just what viem reads of a Response: ok,
 * status, statusText, headers.get, and the body as text (body null, so viem reads it with text()).
 */

/** The most a node's answer may hold, as viem's own default (a larger one is an error, never buffered whole). */
export const MAX_RPC_RESPONSE_BYTES = 10 * 1024 * 1024;

export type RpcFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Keep-alive connections to the nodes, shared by every chain's client (undici's defaults, as fetch had them, but for the cap). */
let shared: Dispatcher | undefined;
const nodes = (): Dispatcher => (shared ??= new (undici().Agent)({ connections: 64 }));

function headerReader(headers: Dispatcher.ResponseData['headers']): Pick<Headers, 'get'> {
  return {
    get(name: string): string | null {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/** A node answered more than the limit: an error of the answer (rpc_error), not of the network. */
export class RpcResponseTooLarge extends Error {
  override readonly name = 'RpcResponseTooLarge';
}

async function readText(body: Dispatcher.ResponseData['body'], limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      body.destroy();
      throw new RpcResponseTooLarge(`the node's response is larger than ${limit} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** undici's own timeouts of a request (no answer's headers in time, or its body stalled). */
const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * One JSON-RPC request (a call or a batch) posted as it is, without viem: the request path's broadcast and pre-flight.
 * viem's HTTP client builds a TimeoutError for every request before sending it (in case it times out), which
 * stringifies the request, the signed transaction included: 6 % of the request thread under bench:transactions
 * (docs/benchmarks.md#transactions). The same failures, in the words classifyRpcError reads: no node or a cut
 * connection is "fetch failed" (rpc_unreachable), no answer within `timeoutMs` (for its headers, then between its
 * body's chunks: undici's own timers) "took too long" (rpc_unreachable), an HTTP error keeps the node's JSON-RPC
 * error when it sent one (an error status without one is an rpc_error), and an answer that is not JSON is an rpc_error.
 */
export async function postJsonRpc(url: string, body: unknown, options: { timeoutMs: number; maxResponseBytes?: number; dispatcher?: Dispatcher }): Promise<unknown> {
  const failed = (err: unknown) =>
    TIMEOUTS.has((err as { code?: unknown }).code as string) ? new Error('The request took too long to respond.', { cause: err }) : new TypeError('fetch failed', { cause: err });
  let text: string;
  let status: number;
  try {
    const res = await undici().request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      dispatcher: options.dispatcher ?? nodes(),
    });
    status = res.statusCode;
    text = await readText(res.body, options.maxResponseBytes ?? MAX_RPC_RESPONSE_BYTES);
  } catch (err) {
    if (err instanceof RpcResponseTooLarge) throw err;
    throw failed(err);
  }
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new Error(status >= 200 && status < 300 ? "the node's answer is not JSON" : `HTTP request failed. Status: ${status}`);
  }
  if (status < 200 || status >= 300) {
    const error = (answer as { error?: unknown } | null)?.error;
    throw new Error(`HTTP request failed. Status: ${status}${error === undefined ? '' : `. Details: ${JSON.stringify(error)}`}`);
  }
  return answer;
}

/**
 * A fetch for viem over undici's request. Network failures are thrown as fetch throws them (TypeError "fetch
 * failed", the cause attached), so they classify as rpc_unreachable exactly as before (classifyRpcError).
 */
export function rpcFetch(options: { maxResponseBytes?: number; dispatcher?: Dispatcher } = {}): RpcFetch {
  const limit = options.maxResponseBytes ?? MAX_RPC_RESPONSE_BYTES;
  return async (input, init = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    let res: Dispatcher.ResponseData;
    try {
      res = await undici().request(url, {
        method: (init.method ?? 'POST') as Dispatcher.HttpMethod,
        headers: init.headers as Record<string, string>,
        body: init.body as string,
        signal: init.signal ?? undefined,
        dispatcher: options.dispatcher ?? nodes(),
      });
    } catch (err) {
      if (init.signal?.aborted) throw err;
      throw new TypeError('fetch failed', { cause: err });
    }
    let text: string;
    try {
      text = await readText(res.body, limit);
    } catch (err) {
      if (init.signal?.aborted || err instanceof RpcResponseTooLarge) throw err;
      throw new TypeError('fetch failed', { cause: err });
    }
    const answer = {
      ok: res.statusCode >= 200 && res.statusCode < 300,
      status: res.statusCode,
      statusText: '',
      headers: headerReader(res.headers),
      body: null,
      text: () => Promise.resolve(text),
      json: () => Promise.resolve(JSON.parse(text) as unknown),
    };
    return answer as unknown as Response;
  };
}
