import { createHash, X509Certificate, type KeyObject } from 'node:crypto';
import { FLAGS, formatAaguid, hasFlag, parseAuthenticatorData, type AuthenticatorData } from './authenticator-data.js';
import { asBuffer, decodeCbor, isBytes } from './cbor.js';
import { algorithmName, importCoseKey, spkiDer, ES256 } from './cose-key.js';
import { MalformedWebAuthnData } from './malformed.js';
import { rpIdHash } from './relying-party.js';
import { isVerifiableAlgorithm, verifySignature } from './signatures.js';

export type AttestationFormat = 'none' | 'packed';
/** none: no statement; self: signed by the credential key itself; basic: signed by an x5c certificate (chain not verified). */
export type AttestationType = 'none' | 'self' | 'basic';

export interface AttestedCredential {
  credentialId: Buffer;
  publicKey: KeyObject;
  /** SubjectPublicKeyInfo DER of publicKey. */
  publicKeySpki: Buffer;
  algorithm: typeof ES256;
  rpId: string;
  rpIdHash: Buffer;
  signCount: number;
  aaguid: string;
  format: AttestationFormat;
  attestationType: AttestationType;
  userVerified: boolean;
  backupEligible: boolean;
  backedUp: boolean;
}

export type AttestationCode =
  | 'invalid_attestation'
  | 'unsupported_algorithm'
  | 'unsupported_attestation_format'
  | 'rp_id_mismatch'
  | 'user_not_present'
  | 'credential_id_mismatch';

/** What is wrong, and with which of the submitted fields. */
export interface AttestationFailure {
  field: 'attestationObject' | 'credentialId';
  code: AttestationCode;
  detail: string;
}

export type AttestationResult = { ok: true; credential: AttestedCredential } | { ok: false; failures: AttestationFailure[] };

export interface AttestationInput {
  attestationObject: Buffer;
  /** The exact clientDataJSON bytes: the attestation signature covers their SHA-256. */
  clientDataJson: Buffer;
  /** The credential id the integrator submitted; the attested one must be the same bytes. */
  credentialId: Buffer;
}

const OTHER_FORMATS = new Set(['fido-u2f', 'android-key', 'android-safetynet', 'tpm', 'apple', 'compound']);

/**
 * Verifies a registration's attestation object (WebAuthn §7.1 steps 11 to 21, less the trust path):
 * CBOR {fmt, attStmt, authData}; authData with attested credential data whose id is the submitted one and
 * whose key is ES256; rpIdHash the SHA-256 of one of `rpIds`; the user-present flag set; and the statement
 * of format `none` (empty) or `packed` (self attestation with the credential key, or an x5c leaf
 * certificate's key: the chain is not verified, so "basic" here says who signed, not that anyone vouches
 * for the authenticator). Every independent problem is reported, so a response can name them all.
 */
export function verifyAttestation(input: AttestationInput, rpIds: readonly string[]): AttestationResult {
  const fail = (code: AttestationCode, detail: string): AttestationResult => ({ ok: false, failures: [{ field: 'attestationObject', code, detail }] });

  let object: unknown;
  try {
    object = decodeCbor(input.attestationObject);
  } catch {
    return fail('invalid_attestation', 'is not well-formed CBOR');
  }
  if (!(object instanceof Map)) return fail('invalid_attestation', 'is not a CBOR map');
  const fmt = object.get('fmt');
  const attStmt = object.get('attStmt');
  const rawAuthData = object.get('authData');
  if (typeof fmt !== 'string' || !(attStmt instanceof Map) || !isBytes(rawAuthData)) {
    return fail('invalid_attestation', 'must be a map of fmt (text), attStmt (map) and authData (bytes)');
  }
  if (fmt !== 'none' && fmt !== 'packed') {
    return fail('unsupported_attestation_format', OTHER_FORMATS.has(fmt) ? 'has an attestation format other than none and packed' : 'has an unknown attestation format');
  }

  const authDataBytes = asBuffer(rawAuthData);
  let authData: AuthenticatorData;
  try {
    authData = parseAuthenticatorData(authDataBytes);
  } catch (err) {
    if (err instanceof MalformedWebAuthnData) return fail('invalid_attestation', `has authenticator data that ${err.message}`);
    throw err;
  }
  const attested = authData.attested;
  if (!attested) return fail('invalid_attestation', 'has authenticator data without attested credential data (AT flag)');

  const failures: AttestationFailure[] = [];
  const matchedRpId = rpIds.find((rpId) => rpIdHash(rpId).equals(authData.rpIdHash));
  if (matchedRpId === undefined) failures.push({ field: 'attestationObject', code: 'rp_id_mismatch', detail: 'was made for a relying party id that is not allowed' });
  if (!hasFlag(authData, FLAGS.userPresent)) failures.push({ field: 'attestationObject', code: 'user_not_present', detail: 'does not have the user-present flag set' });
  if (!attested.credentialId.equals(input.credentialId)) {
    failures.push({ field: 'credentialId', code: 'credential_id_mismatch', detail: 'differs from the credential id in the attestation object' });
  }

  const key = importCoseKey(attested.publicKey);
  if (!key.ok) {
    failures.push({ field: 'attestationObject', code: key.code, detail: key.detail });
    return { ok: false, failures };
  }

  const signedData = Buffer.concat([authDataBytes, createHash('sha256').update(input.clientDataJson).digest()]);
  const statement = fmt === 'none' ? checkNone(attStmt) : checkPacked(attStmt, signedData, key.publicKey);
  if ('problem' in statement) failures.push({ field: 'attestationObject', code: 'invalid_attestation', detail: statement.problem });

  if (failures.length > 0 || 'problem' in statement || matchedRpId === undefined) return { ok: false, failures };
  return {
    ok: true,
    credential: {
      credentialId: Buffer.from(attested.credentialId),
      publicKey: key.publicKey,
      publicKeySpki: spkiDer(key.publicKey),
      algorithm: key.algorithm,
      rpId: matchedRpId,
      rpIdHash: Buffer.from(authData.rpIdHash),
      signCount: authData.signCount,
      aaguid: formatAaguid(attested.aaguid),
      format: fmt,
      attestationType: statement.type,
      userVerified: hasFlag(authData, FLAGS.userVerified),
      backupEligible: hasFlag(authData, FLAGS.backupEligible),
      backedUp: hasFlag(authData, FLAGS.backedUp),
    },
  };
}

/** The attestation type a statement proves, or why it is refused. */
type StatementCheck = { type: AttestationType } | { problem: string };

/** Format none: the statement is an empty map. */
function checkNone(attStmt: Map<unknown, unknown>): StatementCheck {
  return attStmt.size === 0 ? { type: 'none' } : { problem: 'has format none with a non-empty attStmt' };
}

/**
 * Format packed (WebAuthn §8.2): attStmt {alg, sig, x5c?}; sig over authData || SHA-256(clientDataJSON).
 * With x5c the first certificate's key signs (alg may then be RSA or another curve); without, the
 * credential key itself signs and alg must be the credential's (ES256).
 */
function checkPacked(attStmt: Map<unknown, unknown>, signedData: Buffer, credentialKey: KeyObject): StatementCheck {
  const alg = attStmt.get('alg');
  const sig = attStmt.get('sig');
  const x5c = attStmt.get('x5c');
  if (typeof alg !== 'number' || !isBytes(sig)) return { problem: 'has a packed statement without alg (integer) and sig (bytes)' };
  if (attStmt.has('ecdaaKeyId')) return { problem: 'uses ECDAA, which WebAuthn has withdrawn' };
  if (x5c === undefined) {
    if (alg !== ES256) return { problem: `has a packed self attestation with alg ${algorithmName(alg)}, not the credential key's ES256 (-7)` };
    return verifySignature(alg, credentialKey, signedData, sig) ? { type: 'self' } : { problem: 'has a packed self-attestation signature that does not verify with the credential key' };
  }
  if (!Array.isArray(x5c) || x5c.length === 0 || !x5c.every(isBytes)) return { problem: 'has a packed x5c that is not a non-empty array of certificates' };
  if (!isVerifiableAlgorithm(alg)) return { problem: `has a packed statement with an unsupported alg ${algorithmName(alg)}` };
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(asBuffer(x5c[0] as Uint8Array));
  } catch {
    return { problem: 'has a packed x5c whose first certificate is not DER X.509' };
  }
  return verifySignature(alg, leaf.publicKey, signedData, sig) ? { type: 'basic' } : { problem: 'has a packed signature that does not verify with the x5c certificate key' };
}
