import type { FieldError } from '../../errors.js';
import { decodeBase64Loose } from './base64.js';
import { fieldError, isAbsent, joinPointer, objectField, own, requiredString } from './fields.js';

/** AuthenticatorTransport values of WebAuthn Level 3 plus the legacy "cable" that older browsers report. */
export const AUTHENTICATOR_TRANSPORTS = ['usb', 'nfc', 'ble', 'internal', 'hybrid', 'smart-card', 'cable'] as const;

/**
 * authenticators: each {authenticatorName, challenge, attestation: {credentialId, clientDataJson,
 * attestationObject, transports[]}}. Strings non-blank (`required`); the three attestation blobs base64
 * or base64url (`invalid_base64`); clientDataJson decodes to JSON with type "webauthn.create"
 * (`invalid_client_data`) whose challenge is the submitted one (`challenge_mismatch`); transports from
 * AUTHENTICATOR_TRANSPORTS (`invalid_value`); credential ids distinct by decoded bytes
 * (`duplicate_credential_id`, on every repeat). The attestation signature itself is not verified here.
 */
export function validateAuthenticators(list: unknown, pointer: string): FieldError[] {
  if (isAbsent(list)) return [fieldError(pointer, 'required', 'is required')];
  if (!Array.isArray(list)) return [fieldError(pointer, 'invalid_type', 'must be an array')];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  list.forEach((item: unknown, index) => {
    const itemAt = joinPointer(pointer, index);
    const credentialId = validateAuthenticator(item, itemAt, errors);
    if (credentialId === undefined) return;
    const key = credentialId.toString('hex');
    if (seen.has(key)) errors.push(fieldError(joinPointer(itemAt, 'attestation', 'credentialId'), 'duplicate_credential_id', 'repeats the credential id of an earlier authenticator'));
    seen.add(key);
  });
  return errors;
}

/** Checks one authenticator; returns the decoded credential id when it is valid. */
function validateAuthenticator(item: unknown, pointer: string, errors: FieldError[]): Buffer | undefined {
  const authenticator = objectField(item, pointer, errors);
  if (authenticator === undefined) return undefined;
  requiredString(own(authenticator, 'authenticatorName'), joinPointer(pointer, 'authenticatorName'), errors);
  const challenge = requiredString(own(authenticator, 'challenge'), joinPointer(pointer, 'challenge'), errors);
  const attestationAt = joinPointer(pointer, 'attestation');
  const attestation = objectField(own(authenticator, 'attestation'), attestationAt, errors);
  if (attestation === undefined) return undefined;

  const blob = (field: string): Buffer | undefined => {
    const text = requiredString(own(attestation, field), joinPointer(attestationAt, field), errors);
    if (text === undefined) return undefined;
    const bytes = decodeBase64Loose(text);
    if (bytes === null) errors.push(fieldError(joinPointer(attestationAt, field), 'invalid_base64', 'must be base64url (or standard base64)'));
    return bytes ?? undefined;
  };
  const credentialId = blob('credentialId');
  const clientData = blob('clientDataJson');
  blob('attestationObject');
  if (clientData !== undefined) errors.push(...checkClientData(clientData, challenge, joinPointer(attestationAt, 'clientDataJson')));

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
  return credentialId;
}

/**
 * clientDataJSON must be a registration ("webauthn.create") for this very challenge. The browser writes
 * the challenge base64url-encoded; the integrator may submit it in either alphabet, so both are compared
 * as bytes when they decode, and as text otherwise.
 */
function checkClientData(bytes: Buffer, challenge: string | undefined, pointer: string): FieldError[] {
  let clientData: unknown;
  try {
    clientData = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return [fieldError(pointer, 'invalid_client_data', 'must decode to UTF-8 JSON')];
  }
  if (typeof clientData !== 'object' || clientData === null || Array.isArray(clientData)) {
    return [fieldError(pointer, 'invalid_client_data', 'must decode to a JSON object')];
  }
  const type = own(clientData as Record<string, unknown>, 'type');
  if (type !== 'webauthn.create') return [fieldError(pointer, 'invalid_client_data', 'must have type "webauthn.create"')];
  if (challenge === undefined) return [];
  const signed = own(clientData as Record<string, unknown>, 'challenge');
  if (typeof signed !== 'string' || !sameChallenge(signed, challenge)) {
    return [fieldError(pointer, 'challenge_mismatch', 'must carry the submitted challenge')];
  }
  return [];
}

function sameChallenge(signed: string, submitted: string): boolean {
  if (signed === submitted) return true;
  const a = decodeBase64Loose(signed);
  const b = decodeBase64Loose(submitted);
  return a !== null && b !== null && a.equals(b);
}
