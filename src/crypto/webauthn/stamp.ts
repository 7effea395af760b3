import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { KeyObjectCache } from '../p256.js';
import { FLAGS, hasFlag, parseAuthenticatorData, type AuthenticatorData } from './authenticator-data.js';
import { base64url, decodeBase64Loose } from './base64.js';
import { originProblem, parseClientData } from './client-data.js';
import { ES256 } from './cose-key.js';
import { MalformedWebAuthnData } from './malformed.js';
import { verifySignature } from './signatures.js';

/**
 * Turnkey's WebAuthn stamp (the X-Stamp-Webauthn header value, our `webAuthnStamp`): JSON
 * {authenticatorData, clientDataJson, credentialId, signature}, each base64url. See docs/passkeys.md.
 */
export interface Stamp {
  authenticatorData: Buffer;
  clientDataJson: Buffer;
  credentialId: Buffer;
  /** DER ECDSA, as the authenticator wrote it. */
  signature: Buffer;
}

export type StampFailureCode =
  | 'malformed_stamp'
  | 'credential_mismatch'
  | 'credential_unverified'
  | 'invalid_client_data'
  | 'challenge_mismatch'
  | 'origin_not_allowed'
  | 'rp_id_mismatch'
  | 'user_not_present'
  | 'invalid_signature'
  | 'counter_regression';

export type ParseStampResult = { ok: true; stamp: Stamp } | { ok: false; code: 'malformed_stamp'; detail: string };

/** What was stored at registration (the authenticators row). */
export interface RegisteredCredential {
  /** base64url (any base64 is accepted) or bytes. */
  credentialId: string | Uint8Array;
  /** SubjectPublicKeyInfo DER, as bytes or base64 text, or an imported key; null for rows registered before attestation was verified. */
  publicKey: string | Uint8Array | KeyObject | null;
  /** SHA-256 of the rp id, hex or bytes; null as for publicKey. */
  rpIdHash: string | Uint8Array | null;
  signCount: number;
}

export interface VerifyStampInput {
  /** The header value (or a parsed stamp). */
  stamp: string | Stamp;
  /** The exact text whose hash the challenge commits to: for signedBody objects, stampedBodyText(signedBody). */
  stampedBody: string;
  credential: RegisteredCredential;
  /** Allowed origins (WEBAUTHN_ORIGINS). */
  origins: readonly string[];
}

export type VerifyStampResult =
  | { ok: true; signCount: number; challenge: string; userVerified: boolean }
  | { ok: false; code: StampFailureCode; detail: string };

const MAX_STAMP_CHARS = 64 * 1024;
const FIELDS = ['authenticatorData', 'clientDataJson', 'credentialId', 'signature'] as const;

/**
 * Reads a stamp: the JSON text itself, or that text base64-encoded (either alphabet), which is how some
 * clients put a JSON header into a single token. Unknown members are ignored (nothing signs them).
 */
export function parseStamp(value: string): ParseStampResult {
  const malformedStamp = (detail: string): ParseStampResult => ({ ok: false, code: 'malformed_stamp', detail });
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_STAMP_CHARS) return malformedStamp(`must be a non-empty string of at most ${MAX_STAMP_CHARS} characters`);
  let text = value.trim();
  if (!text.startsWith('{')) {
    const unwrapped = decodeBase64Loose(text);
    if (unwrapped === null) return malformedStamp('must be JSON, or JSON encoded in base64');
    text = unwrapped.toString('utf8');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return malformedStamp('must be JSON, or JSON encoded in base64');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return malformedStamp('must be a JSON object');
  const decoded: Partial<Stamp> = {};
  for (const field of FIELDS) {
    const member = Object.hasOwn(json, field) ? (json as Record<string, unknown>)[field] : undefined;
    const bytes = typeof member === 'string' ? decodeBase64Loose(member) : null;
    if (bytes === null) return malformedStamp(`must have ${field} as a non-empty base64url string`);
    decoded[field] = bytes;
  }
  return { ok: true, stamp: decoded as Stamp };
}

/**
 * The text a signedBody object is stamped over: JSON.stringify of the object as parsed from the request,
 * which keeps its key order (ECMAScript puts integer-like keys first, as JSON.stringify on the client did
 * too). Turnkey's client stamps JSON.stringify(body) and sends that same text, and JSON.stringify's output
 * parses back to an object that stringifies to the same text, so the server recomputes it exactly; it is
 * also the text forwarded with the stamp to the custody backend.
 */
export function stampedBodyText(signedBody: unknown): string {
  return JSON.stringify(signedBody);
}

/** clientData.challenge for a stamped body: base64url(UTF-8(hex(SHA-256(UTF-8(body))))), as @turnkey/webauthn-stamper computes it. */
export function stampChallenge(stampedBody: string): string {
  const hex = createHash('sha256').update(stampedBody, 'utf8').digest('hex');
  return base64url(Buffer.from(hex, 'utf8'));
}

/**
 * Verifies a stamp against the body it claims and the credential registered under its id (WebAuthn §7.2):
 * the credential id is the registered one; clientData is a webauthn.get for stampChallenge(stampedBody)
 * from an allowed origin; authenticator data is for the registered rpIdHash with user presence; the ES256
 * signature over authenticatorData || SHA-256(clientDataJSON) verifies with the registered key; and the
 * signature counter, when either side is non-zero, is above the stored one. On success the new counter is
 * returned: the caller stores it with a compare-and-set on the old value, so two requests racing with the
 * same assertion cannot both pass.
 */
export function verifyStamp(input: VerifyStampInput): VerifyStampResult {
  const fail = (code: StampFailureCode, detail: string): VerifyStampResult => ({ ok: false, code, detail });
  let stamp: Stamp;
  if (typeof input.stamp === 'string') {
    const parsed = parseStamp(input.stamp);
    if (!parsed.ok) return parsed;
    stamp = parsed.stamp;
  } else {
    stamp = input.stamp;
  }

  const registered = registeredMaterial(input.credential);
  if (registered === null) return fail('credential_unverified', 'the credential has no verified public key (registered before attestation was verified)');
  if (!stamp.credentialId.equals(registered.credentialId)) return fail('credential_mismatch', 'the stamp is for another credential');

  const clientData = parseClientData(stamp.clientDataJson);
  if (clientData === null) return fail('invalid_client_data', 'clientDataJson is not UTF-8 JSON of an object');
  if (clientData.type !== 'webauthn.get') return fail('invalid_client_data', 'clientDataJson must have type "webauthn.get"');
  const challenge = stampChallenge(input.stampedBody);
  if (clientData.challenge !== challenge) return fail('challenge_mismatch', 'the stamp was made for another body');
  const originIssue = originProblem(clientData, input.origins);
  if (originIssue !== null) return fail('origin_not_allowed', `clientDataJson ${originIssue}`);

  let authData: AuthenticatorData;
  try {
    authData = parseAuthenticatorData(stamp.authenticatorData);
  } catch (err) {
    if (err instanceof MalformedWebAuthnData) return fail('malformed_stamp', `authenticatorData ${err.message}`);
    throw err;
  }
  if (!authData.rpIdHash.equals(registered.rpIdHash)) return fail('rp_id_mismatch', 'authenticatorData is for another relying party id than the registration');
  if (!hasFlag(authData, FLAGS.userPresent)) return fail('user_not_present', 'authenticatorData does not have the user-present flag set');

  const signedData = Buffer.concat([stamp.authenticatorData, createHash('sha256').update(stamp.clientDataJson).digest()]);
  if (!verifySignature(ES256, registered.publicKey, signedData, stamp.signature)) return fail('invalid_signature', 'the signature does not verify with the registered key');

  // Counters that stay at zero mean the authenticator keeps none (synced passkeys); otherwise each use must
  // raise it, and an equal or lower value means a cloned authenticator or a replayed assertion.
  const stored = input.credential.signCount;
  if ((authData.signCount !== 0 || stored !== 0) && authData.signCount <= stored) {
    return fail('counter_regression', `the signature counter ${authData.signCount} is not above the stored ${stored}`);
  }
  return { ok: true, signCount: authData.signCount, challenge, userVerified: hasFlag(authData, FLAGS.userVerified) };
}

/**
 * Registered passkeys' keys by their SPKI DER in base64: every stamp of a passkey is checked against the same key,
 * and importing it cost about as much as two verifications (3 % of the API's CPU under bench:transactions).
 */
const passkeyKeys = new KeyObjectCache((spkiBase64) => createPublicKey({ key: Buffer.from(spkiBase64, 'base64'), format: 'der', type: 'spki' }));

function registeredMaterial(credential: RegisteredCredential): { credentialId: Buffer; publicKey: KeyObject; rpIdHash: Buffer } | null {
  if (credential.publicKey === null || credential.rpIdHash === null) return null;
  const credentialId = typeof credential.credentialId === 'string' ? decodeBase64Loose(credential.credentialId) : Buffer.from(credential.credentialId);
  const rpIdHash = typeof credential.rpIdHash === 'string' ? Buffer.from(credential.rpIdHash, 'hex') : Buffer.from(credential.rpIdHash);
  if (credentialId === null || rpIdHash.length !== 32) return null;
  try {
    const key = credential.publicKey;
    const publicKey = typeof key === 'string' || key instanceof Uint8Array ? passkeyKeys.get(typeof key === 'string' ? key : Buffer.from(key).toString('base64')) : key;
    return { credentialId, publicKey, rpIdHash };
  } catch {
    return null;
  }
}
