import { ed25519 } from '@noble/curves/ed25519';
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { utf8ToBytes } from '@noble/hashes/utils';

/** Why verifyWebhook refused a delivery. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export interface VerifyWebhookOptions {
  /** How far webhook-timestamp may be from now, either way (default 300 s, Standard Webhooks' 5 minutes). */
  toleranceSeconds?: number;
  /** Unix seconds now (tests). */
  now?: number;
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

function base64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * Verifies a delivered webhook (Standard Webhooks) and returns its event. `rawBody` is the body exactly as
 * received (before any JSON parsing); `keys` the subscription's `whpk_…` public keys (Ed25519, `v1a`) or `whsec_…`
 * secrets (HMAC-SHA256, `v1`), several during a rotation. The delivery is accepted when any signature entry verifies
 * with any key and its timestamp is within the tolerance; otherwise WebhookVerificationError.
 */
export function verifyWebhook<T = unknown>(rawBody: string | Uint8Array, headers: HeaderBag, keys: string | string[], options: VerifyWebhookOptions = {}): T {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('webhook-id, webhook-timestamp and webhook-signature are required');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not Unix seconds');
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) throw new WebhookVerificationError('webhook-timestamp is outside the tolerance');
  const body = typeof rawBody === 'string' ? utf8ToBytes(rawBody) : rawBody;
  const content = new Uint8Array([...utf8ToBytes(`${id}.${timestamp}.`), ...body]);
  const entries = signatures.split(' ').map((entry) => {
    const comma = entry.indexOf(',');
    return comma < 0 ? undefined : { scheme: entry.slice(0, comma), value: entry.slice(comma + 1) };
  });
  for (const key of Array.isArray(keys) ? keys : [keys]) {
    for (const entry of entries) {
      if (!entry) continue;
      try {
        if (key.startsWith('whsec_') && entry.scheme === 'v1') {
          if (equal(hmac(sha256, base64(key.slice(6)), content), base64(entry.value))) return JSON.parse(new TextDecoder().decode(body)) as T;
        } else if (key.startsWith('whpk_') && entry.scheme === 'v1a') {
          if (ed25519.verify(base64(entry.value), content, base64(key.slice(5)))) return JSON.parse(new TextDecoder().decode(body)) as T;
        }
      } catch {
        // A malformed entry or key verifies nothing; the next may.
      }
    }
  }
  throw new WebhookVerificationError('no signature verifies with the given keys');
}
