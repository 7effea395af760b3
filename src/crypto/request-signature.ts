import { createHash, webcrypto, type KeyObject } from 'node:crypto';
import { signDer } from './p256.js';

/**
 * The spec's signed message: `{timestamp}{METHOD}{path_and_query}{json_body}` with no separators.
 * The body is the raw bytes as sent, so a signature never depends on how JSON is re-serialized.
 */
export function buildSignedMessage(timestamp: string, method: string, pathAndQuery: string, body?: Buffer | string): Buffer {
  // The method exactly as given: the verifier must not make two different requests sign alike.
  const head = Buffer.from(`${timestamp}${method}${pathAndQuery}`, 'utf8');
  if (body === undefined || body.length === 0) return head;
  return Buffer.concat([head, typeof body === 'string' ? Buffer.from(body, 'utf8') : body]);
}

export function messageHash(message: Buffer): Buffer {
  return createHash('sha256').update(message).digest();
}

/** Above this size, hashing runs on libuv's thread pool: megabytes would stall the event loop (signature checks always do, authenticate.ts). */
export const OFF_THREAD_BYTES = 256 * 1024;

/** SHA-256: inline for small inputs (a thread hop costs more than the hash), on the thread pool (WebCrypto) for large. */
export async function sha256(data: Buffer): Promise<Buffer> {
  if (data.length <= OFF_THREAD_BYTES) return messageHash(data);
  return Buffer.from(await webcrypto.subtle.digest('SHA-256', data));
}

/** The path forms a signature may cover: as received, and without the leading `/v1` (see docs/authentication.md). */
export function signedPathCandidates(pathAndQuery: string): string[] {
  if (pathAndQuery.startsWith('/v1/') || pathAndQuery.startsWith('/v1?') || pathAndQuery === '/v1') {
    const stripped = pathAndQuery.slice(3);
    return [pathAndQuery, stripped.startsWith('/') ? stripped : `/${stripped}`];
  }
  return [pathAndQuery];
}

export interface SignatureHeaders {
  'X-Pubkey': string;
  'X-Timestamp': string;
  'X-Signature': string;
}

export function signRequest(
  key: { keyObject: KeyObject; publicKey: string },
  timestamp: string,
  method: string,
  pathAndQuery: string,
  body?: Buffer | string,
): SignatureHeaders {
  const signature = signDer(key.keyObject, buildSignedMessage(timestamp, method.toUpperCase(), pathAndQuery, body));
  return { 'X-Pubkey': key.publicKey, 'X-Timestamp': timestamp, 'X-Signature': `0x${signature.toString('hex')}` };
}
