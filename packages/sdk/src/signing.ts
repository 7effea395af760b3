import { p256 } from '@noble/curves/p256';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils';

/** The three headers of a signed request (docs/authentication.md). */
export interface SignatureHeaders {
  'X-Pubkey': string;
  'X-Timestamp': string;
  'X-Signature': string;
}

/** A P-256 key as the API uses it: the 32-byte private key (hex, 0x) and its compressed public key. */
export interface SigningKey {
  privateKey: Uint8Array;
  /** Compressed SEC1 public key, hex with 0x: the X-Pubkey header. */
  publicKey: string;
}

export function signingKey(privateKeyHex: string): SigningKey {
  const hex = privateKeyHex.startsWith('0x') ? privateKeyHex.slice(2) : privateKeyHex;
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new TypeError('privateKey must be 32 bytes of hex (0x...)');
  const privateKey = hexToBytes(hex);
  return { privateKey, publicKey: `0x${bytesToHex(p256.getPublicKey(privateKey, true))}` };
}

/** A fresh key pair, for registering a credential of your own (POST /v1/integrator/credentials with publicKey). */
export function generateSigningKey(): { privateKey: string; publicKey: string } {
  const privateKey = `0x${bytesToHex(p256.utils.randomPrivateKey())}`;
  return { privateKey, publicKey: signingKey(privateKey).publicKey };
}

/**
 * Signs a request as the spec says: ECDSA P-256 over SHA-256 of `{timestamp}{METHOD}{path_and_query}{body}`, where
 * body is exactly the bytes sent (empty for none); the signature DER-encoded, hex with 0x.
 */
export function signRequest(key: SigningKey, timestamp: number, method: string, pathAndQuery: string, body?: string): SignatureHeaders {
  const message = utf8ToBytes(`${timestamp}${method}${pathAndQuery}${body ?? ''}`);
  const signature = p256.sign(sha256(message), key.privateKey);
  return { 'X-Pubkey': key.publicKey, 'X-Timestamp': String(timestamp), 'X-Signature': `0x${signature.toDERHex()}` };
}
