import { importPrivateKey } from '../crypto/p256.js';
import { signRequest } from '../crypto/request-signature.js';
import { anySignatureValid, publicKeyFromText } from '../crypto/webhook-signature.js';

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
 * JSON as this small client returns it when the caller names no type: loose on purpose, for tests and scripts that
 * read whatever the server answered (the typed SDK of issue 18 carries the OpenAPI document's types). The one `any`
 * of the shipped code.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LooseJson = any;

export interface ApiResponse<T = LooseJson> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * The signing client integrators import. It signs exactly as the spec says: SHA-256 over
 * `{timestamp}{METHOD}{path_and_query}{json_body}`, ECDSA P-256, DER, hex with 0x. The body is serialized
 * once and those same bytes are both signed and sent.
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

/** Why a webhook was refused by verifyWebhook. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export interface VerifyWebhookOptions {
  /** Seconds a delivery's webhook-timestamp may differ from now (default 300, Standard Webhooks' 5 minutes). */
  toleranceSeconds?: number;
  /** Unix seconds now (tests). */
  now?: number;
}

/**
 * Verifies a delivered webhook (Standard Webhooks, Ed25519 `v1a`): `rawBody` exactly as received (bytes or
 * text, before any JSON parsing), the request headers, and the subscription's `whpk_…` public key. Returns the
 * parsed event; throws WebhookVerificationError when a header is missing, the timestamp is outside the
 * tolerance, or no signature in the header is valid for the key. During a key rotation pass either key.
 */
export function verifyWebhook<T = LooseJson>(
  rawBody: string | Uint8Array,
  headers: Record<string, string | string[] | undefined> | Headers,
  publicKey: string,
  options: VerifyWebhookOptions = {},
): T {
  const get = (name: string): string | undefined => {
    if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
    const record = headers as Record<string, string | string[] | undefined>;
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    const value = key === undefined ? undefined : record[key];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = get('webhook-id');
  const timestamp = get('webhook-timestamp');
  const signature = get('webhook-signature');
  if (!id || !timestamp || !signature) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not Unix seconds');
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) throw new WebhookVerificationError('webhook-timestamp is outside the tolerance');
  const key = publicKeyFromText(publicKey);
  if (!key) throw new WebhookVerificationError('the public key is not a whpk_ Ed25519 key');
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  if (!anySignatureValid(signature, key, id, Number(timestamp), body)) throw new WebhookVerificationError('no valid signature');
  return JSON.parse(body.toString('utf8')) as T;
}
