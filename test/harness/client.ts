import { importPrivateKey } from '../../src/crypto/p256.js';
import { signRequest } from '../../src/crypto/request-signature.js';

export interface ClientOptions {
  /** e.g. http://127.0.0.1:8080 (no trailing /v1: paths carry it). */
  baseUrl: string;
  /** 32-byte P-256 private key, hex with 0x. */
  privateKey: string;
  /** Seconds since the epoch; injectable for tests of the timestamp window. */
  now?: () => number;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent exactly as given instead of JSON.stringify(body): for tests of raw-byte signing. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /** Which path form to sign: as sent (default) or without the leading /v1 (both are accepted). */
  signedPath?: 'as-sent' | 'without-v1';
}

/**
 * JSON as this test client returns it when the caller names no type: loose on purpose, for tests that read whatever
 * the server answered (integrators use the typed SDK, packages/sdk, which carries the OpenAPI document's types).
 */
export type LooseJson = any;

export interface ApiResponse<T = LooseJson> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * The tests' raw signing client: it can send bytes the SDK never would (a raw body, the path signed without /v1,
 * any header) and returns every answer, problem or not, for the test to assert on. It signs exactly as the spec
 * says: SHA-256 over `{timestamp}{METHOD}{path_and_query}{json_body}`, ECDSA P-256, DER, hex with 0x; the body is
 * serialized once and those same bytes are both signed and sent.
 */
export function createClient(options: ClientOptions) {
  const key = importPrivateKey(options.privateKey);
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const base = options.baseUrl.replace(/\/+$/, '');

  async function request<T = LooseJson>(method: string, pathAndQuery: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const upper = method.toUpperCase();
    const payload = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    const signedPath = opts.signedPath === 'without-v1' ? pathAndQuery.replace(/^\/v1(?=\/|\?|$)/, '') || '/' : pathAndQuery;
    const auth = signRequest(key, String(now()), upper, signedPath, payload);
    const response = await fetch(`${base}${pathAndQuery}`, {
      method: upper,
      headers: { 'content-type': 'application/json', ...auth, ...opts.headers },
      ...(payload === undefined ? {} : { body: payload }),
    });
    const text = await response.text();
    let body: unknown = undefined;
    if (text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    return { status: response.status, headers: response.headers, body: body as T, text };
  }

  return {
    publicKey: key.publicKey,
    request,
    get: <T = LooseJson>(path: string, opts?: RequestOptions) => request<T>('GET', path, opts),
    post: <T = LooseJson>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, { ...opts, body }),
    patch: <T = LooseJson>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PATCH', path, { ...opts, body }),
    delete: <T = LooseJson>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, opts),
  };
}

export type Client = ReturnType<typeof createClient>;
