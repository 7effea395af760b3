import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';

/**
 * Standard Webhooks signatures with Ed25519 (the `v1a` scheme): the signed content is
 * `${webhook-id}.${webhook-timestamp}.${body}`, the header value space-separated `v1a,<base64 signature>`
 * entries (one per signing key), public keys shown as `whpk_<base64 of the raw 32 bytes>`.
 */
export const PUBLIC_KEY_PREFIX = 'whpk_';
export const SIGNATURE_SCHEME = 'v1a';

// DER prefixes of the fixed-size Ed25519 SPKI and PKCS#8 encodings; the raw key follows them.
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface Ed25519KeyPair {
  /** Raw 32-byte public key, base64. */
  publicKey: string;
  /** Raw 32-byte private key (seed). Seal it before storing. */
  privateKey: Buffer;
}

export function generateEd25519KeyPair(): Ed25519KeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' });
  return { publicKey: spki.subarray(SPKI_PREFIX.length).toString('base64'), privateKey: Buffer.from(pkcs8.subarray(PKCS8_PREFIX.length)) };
}

export function privateKeyFromRaw(raw: Buffer): KeyObject {
  if (raw.length !== 32) throw new Error('an Ed25519 private key is 32 bytes');
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, raw]), format: 'der', type: 'pkcs8' });
}

/** Accepts `whpk_<base64>` or bare base64 of the raw 32 bytes; undefined when it is not such a key. */
export function publicKeyFromText(text: string): KeyObject | undefined {
  const b64 = text.startsWith(PUBLIC_KEY_PREFIX) ? text.slice(PUBLIC_KEY_PREFIX.length) : text;
  const raw = Buffer.from(b64, 'base64');
  if (raw.length !== 32) return undefined;
  try {
    return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
}

export function signedContent(id: string, timestamp: number, body: string | Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), typeof body === 'string' ? Buffer.from(body, 'utf8') : body]);
}

/** One `v1a,<base64>` entry per key, space-separated, as the `webhook-signature` header carries them. */
export function signWebhook(keys: KeyObject[], id: string, timestamp: number, body: string | Buffer): string {
  const content = signedContent(id, timestamp, body);
  return keys.map((key) => `${SIGNATURE_SCHEME},${sign(null, content, key).toString('base64')}`).join(' ');
}

/** True when any `v1a` entry of the header is a valid signature of the content by `publicKey`. */
export function anySignatureValid(header: string, publicKey: KeyObject, id: string, timestamp: number, body: string | Buffer): boolean {
  const content = signedContent(id, timestamp, body);
  for (const entry of header.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== SIGNATURE_SCHEME) continue;
    const signature = Buffer.from(entry.slice(comma + 1), 'base64');
    if (signature.length !== 64) continue;
    if (verify(null, content, publicKey, signature)) return true;
  }
  return false;
}


/**
 * Standard Webhooks' symmetric scheme `v1`: HMAC-SHA256 over the same content, keyed with a secret shown as
 * `whsec_<base64>`. It is what the `standardwebhooks` and `svix` libraries verify.
 */
export const SECRET_PREFIX = 'whsec_';
export const HMAC_SCHEME = 'v1';
/** 32 random bytes: Standard Webhooks asks for 24 to 64. */
export const HMAC_SECRET_BYTES = 32;

export function generateHmacSecret(): Buffer {
  return randomBytes(HMAC_SECRET_BYTES);
}

/** One `v1,<base64>` entry per secret, space-separated. */
export function signWebhookHmac(secrets: Buffer[], id: string, timestamp: number, body: string | Buffer): string {
  const content = signedContent(id, timestamp, body);
  return secrets.map((secret) => `${HMAC_SCHEME},${createHmac('sha256', secret).update(content).digest('base64')}`).join(' ');
}
