import { createPublicKey, type KeyObject } from 'node:crypto';
import { asBuffer, isBytes } from './cbor.js';

/** COSE algorithm identifiers (IANA "COSE Algorithms") that WebAuthn authenticators use. */
export const COSE_ALGORITHMS: Readonly<Record<number, string>> = {
  [-7]: 'ES256',
  [-35]: 'ES384',
  [-36]: 'ES512',
  [-8]: 'EdDSA',
  [-257]: 'RS256',
  [-258]: 'RS384',
  [-259]: 'RS512',
  [-37]: 'PS256',
};
export const ES256 = -7;

/** COSE_Key labels (RFC 9052 §7, RFC 9053 §7.1). */
const KTY = 1;
const ALG = 3;
const CRV = -1;
const X = -2;
const Y = -3;
const KTY_EC2 = 2;
const CRV_P256 = 1;

export type CoseKeyResult =
  | { ok: true; publicKey: KeyObject; algorithm: typeof ES256 }
  | { ok: false; code: 'unsupported_algorithm' | 'invalid_attestation'; detail: string };

export function algorithmName(alg: unknown): string {
  return typeof alg === 'number' && COSE_ALGORITHMS[alg] ? `${COSE_ALGORITHMS[alg]} (${alg})` : String(alg);
}

/**
 * Reads a credential public key. Only ES256 (alg -7: EC2, P-256, SHA-256) is accepted: it is what every
 * passkey platform offers and what Turnkey's stamps are verified with. The point must lie on the curve
 * (node:crypto checks that when importing the JWK).
 */
export function importCoseKey(cose: unknown): CoseKeyResult {
  if (!(cose instanceof Map)) return { ok: false, code: 'invalid_attestation', detail: 'has a credential public key that is not a COSE_Key map' };
  const alg = cose.get(ALG);
  if (typeof alg !== 'number') return { ok: false, code: 'invalid_attestation', detail: 'has a credential public key without an algorithm' };
  if (alg !== ES256) return { ok: false, code: 'unsupported_algorithm', detail: `has a credential key of algorithm ${algorithmName(alg)}; only ES256 (-7) is accepted` };
  const x = cose.get(X);
  const y = cose.get(Y);
  if (cose.get(KTY) !== KTY_EC2 || cose.get(CRV) !== CRV_P256 || !isBytes(x) || !isBytes(y) || x.length !== 32 || y.length !== 32) {
    return { ok: false, code: 'invalid_attestation', detail: 'has an ES256 credential key that is not an EC2 P-256 key with 32-byte coordinates' };
  }
  try {
    const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: asBuffer(x).toString('base64url'), y: asBuffer(y).toString('base64url') }, format: 'jwk' });
    return { ok: true, publicKey, algorithm: ES256 };
  } catch {
    return { ok: false, code: 'invalid_attestation', detail: 'has a credential key that is not a point on P-256' };
  }
}

/** SubjectPublicKeyInfo DER, the form stored (base64) and imported again for stamps. */
export function spkiDer(key: KeyObject): Buffer {
  return key.export({ format: 'der', type: 'spki' });
}
