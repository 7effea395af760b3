/** Signed requests from the bench, with the integrator key the admin CLI printed. */
import { generateP256KeyPair, importPrivateKey } from '../../src/crypto/p256.js';
import { signRequest } from '../../src/crypto/request-signature.js';

export type Key = ReturnType<typeof importPrivateKey>;
export { importPrivateKey };

/** A key no integrator has: enough for the bare server, which checks a signature against the key sent with it. */
export const randomKey = (): Key => importPrivateKey(generateP256KeyPair().privateKey);

export const nowSeconds = () => String(Math.floor(Date.now() / 1000));

/**
 * Fresh signature headers for a GET. The timestamp must be within 60 s of the server's clock and GETs are not
 * replay-guarded, so one set serves a whole run; signing again before each run keeps long runs in the window.
 */
export function signedGetHeaders(key: Key, pathAndQuery: string): Record<string, string> {
  return { ...signRequest(key, nowSeconds(), 'GET', pathAndQuery) };
}

/** Headers for a POST of exactly `body` (the signature covers its bytes). Each one may be sent once: replay guard. */
export function signedPostHeaders(key: Key, pathAndQuery: string, body: Buffer | string): Record<string, string> {
  return { 'content-type': 'application/json', ...signRequest(key, nowSeconds(), 'POST', pathAndQuery, body) };
}

/** One signed JSON POST (setup, checks); throws with the answer unless it is `expect`. */
export async function postJson<T>(baseUrl: string, key: Key, path: string, payload: unknown, expect = 201): Promise<T> {
  const body = JSON.stringify(payload);
  const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: signedPostHeaders(key, path, body), body, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  if (res.status !== expect) throw new Error(`POST ${path}: expected ${expect}, got ${res.status} ${text.slice(0, 800)}`);
  return JSON.parse(text) as T;
}
