import { verifyAttestation, type AttestedCredential } from '../../../crypto/webauthn/attestation.js';
import { base64url, decodeBase64Loose } from '../../../crypto/webauthn/base64.js';
import { originProblem, parseClientData } from '../../../crypto/webauthn/client-data.js';
import type { RelyingPartyPolicy } from '../../../crypto/webauthn/relying-party.js';
import type { FieldError } from '../../errors.js';
import { fieldError, isAbsent, joinPointer, objectField, own, requiredString } from './fields.js';

/** AuthenticatorTransport values of WebAuthn Level 3 plus the legacy "cable" that older browsers report. */
export const AUTHENTICATOR_TRANSPORTS = ['usb', 'nfc', 'ble', 'internal', 'hybrid', 'smart-card', 'cable'] as const;

/** A registration that passed every check: what is stored in `authenticators`. */
export interface PreparedAuthenticator {
  authenticatorName: string;
  challenge: string;
  /** The credential id as canonical base64url (no padding), whatever alphabet it was submitted in. */
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports: string[];
  credential: AttestedCredential;
}

/**
 * authenticators: each {authenticatorName, challenge, attestation: {credentialId, clientDataJson,
 * attestationObject, transports[]}}. Strings non-blank (`required`); the three attestation blobs base64
 * or base64url (`invalid_base64`); clientDataJson decodes to JSON with type "webauthn.create"
 * (`invalid_client_data`) whose challenge is the submitted one (`challenge_mismatch`) and whose origin is
 * allowed (`origin_not_allowed`); the attestation object verifies (crypto/webauthn/attestation.ts:
 * `invalid_attestation`, `unsupported_attestation_format`, `unsupported_algorithm`, `rp_id_mismatch`,
 * `user_not_present`, and `credential_id_mismatch` on credentialId); transports from
 * AUTHENTICATOR_TRANSPORTS (`invalid_value`); credential ids distinct by decoded bytes
 * (`duplicate_credential_id`, on every repeat). Without a relying-party policy nothing is allowed.
 */
export function prepareAuthenticators(list: unknown, pointer: string, relyingParty: RelyingPartyPolicy | undefined): { errors: FieldError[]; prepared: PreparedAuthenticator[] } {
  if (isAbsent(list)) return { errors: [fieldError(pointer, 'required', 'is required')], prepared: [] };
  if (!Array.isArray(list)) return { errors: [fieldError(pointer, 'invalid_type', 'must be an array')], prepared: [] };
  const rp = relyingParty ?? { rpIds: [], origins: [] };
  const errors: FieldError[] = [];
  const prepared: PreparedAuthenticator[] = [];
  const seen = new Set<string>();
  list.forEach((item: unknown, index) => {
    const itemAt = joinPointer(pointer, index);
    const result = checkAuthenticator(item, itemAt, rp, errors);
    if (result.credentialId === undefined) return;
    const key = result.credentialId.toString('hex');
    if (seen.has(key)) errors.push(fieldError(joinPointer(itemAt, 'attestation', 'credentialId'), 'duplicate_credential_id', 'repeats the credential id of an earlier authenticator'));
    seen.add(key);
    if (result.prepared) prepared.push(result.prepared);
  });
  return { errors, prepared: errors.length === 0 ? prepared : [] };
}

export function validateAuthenticators(list: unknown, pointer: string, relyingParty: RelyingPartyPolicy | undefined): FieldError[] {
  return prepareAuthenticators(list, pointer, relyingParty).errors;
}

/** Checks one authenticator; returns the decoded credential id when it decodes, and the registration when all is well. */
function checkAuthenticator(item: unknown, pointer: string, rp: RelyingPartyPolicy, errors: FieldError[]): { credentialId?: Buffer; prepared?: PreparedAuthenticator } {
  const before = errors.length;
  const authenticator = objectField(item, pointer, errors);
  if (authenticator === undefined) return {};
  const name = requiredString(own(authenticator, 'authenticatorName'), joinPointer(pointer, 'authenticatorName'), errors);
  const challenge = requiredString(own(authenticator, 'challenge'), joinPointer(pointer, 'challenge'), errors);
  const attestationAt = joinPointer(pointer, 'attestation');
  const attestation = objectField(own(authenticator, 'attestation'), attestationAt, errors);
  if (attestation === undefined) return {};

  const blob = (field: string): { text: string; bytes: Buffer } | undefined => {
    const text = requiredString(own(attestation, field), joinPointer(attestationAt, field), errors);
    if (text === undefined) return undefined;
    const bytes = decodeBase64Loose(text);
    if (bytes === null) errors.push(fieldError(joinPointer(attestationAt, field), 'invalid_base64', 'must be base64url (or standard base64)'));
    return bytes === null ? undefined : { text, bytes };
  };
  const credentialId = blob('credentialId');
  const clientData = blob('clientDataJson');
  const attestationObject = blob('attestationObject');
  if (clientData !== undefined) errors.push(...checkClientData(clientData.bytes, challenge, rp, joinPointer(attestationAt, 'clientDataJson')));

  const transportsAt = joinPointer(attestationAt, 'transports');
  const transports = own(attestation, 'transports');
  if (isAbsent(transports)) errors.push(fieldError(transportsAt, 'required', 'is required (it may be empty)'));
  else if (!Array.isArray(transports)) errors.push(fieldError(transportsAt, 'invalid_type', 'must be an array'));
  else {
    transports.forEach((transport: unknown, index) => {
      if (typeof transport !== 'string' || !(AUTHENTICATOR_TRANSPORTS as readonly string[]).includes(transport)) {
        errors.push(fieldError(joinPointer(transportsAt, index), 'invalid_value', `must be one of: ${AUTHENTICATOR_TRANSPORTS.join(', ')}`));
      }
    });
  }

  if (credentialId === undefined || clientData === undefined || attestationObject === undefined) return { credentialId: credentialId?.bytes };
  const verified = verifyAttestation({ credentialId: credentialId.bytes, clientDataJson: clientData.bytes, attestationObject: attestationObject.bytes }, rp.rpIds);
  if (!verified.ok) {
    for (const failure of verified.failures) errors.push(fieldError(joinPointer(attestationAt, failure.field), failure.code, failure.detail));
    return { credentialId: credentialId.bytes };
  }
  if (errors.length > before || name === undefined || challenge === undefined) return { credentialId: credentialId.bytes };
  return {
    credentialId: credentialId.bytes,
    prepared: {
      authenticatorName: name,
      challenge,
      credentialId: base64url(credentialId.bytes),
      clientDataJson: clientData.text,
      attestationObject: attestationObject.text,
      transports: transports as string[],
      credential: verified.credential,
    },
  };
}

/**
 * clientDataJSON must be a registration ("webauthn.create") for this very challenge, made on an allowed
 * origin. The browser writes the challenge base64url-encoded; the integrator may submit it in either
 * alphabet, so both are compared as bytes when they decode, and as text otherwise.
 */
function checkClientData(bytes: Buffer, challenge: string | undefined, rp: RelyingPartyPolicy, pointer: string): FieldError[] {
  const clientData = parseClientData(bytes);
  if (clientData === null) return [fieldError(pointer, 'invalid_client_data', 'must decode to UTF-8 JSON of an object')];
  if (clientData.type !== 'webauthn.create') return [fieldError(pointer, 'invalid_client_data', 'must have type "webauthn.create"')];
  const errors: FieldError[] = [];
  if (challenge !== undefined && (typeof clientData.challenge !== 'string' || !sameChallenge(clientData.challenge, challenge))) {
    errors.push(fieldError(pointer, 'challenge_mismatch', 'must carry the submitted challenge'));
  }
  const originIssue = originProblem(clientData, rp.origins);
  if (originIssue !== null) errors.push(fieldError(pointer, 'origin_not_allowed', originIssue));
  return errors;
}

function sameChallenge(signed: string, submitted: string): boolean {
  if (signed === submitted) return true;
  const a = decodeBase64Loose(signed);
  const b = decodeBase64Loose(submitted);
  return a !== null && b !== null && a.equals(b);
}
