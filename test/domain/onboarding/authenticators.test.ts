import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { validateAuthenticators } from '../../../src/domain/onboarding/validation/authenticators.js';
import { assertOnly, assertValid, withField } from './fixtures.js';

const P = '/authenticators';
const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');

function authenticator(options: { challenge?: string; type?: string; signedChallenge?: string } = {}) {
  const challenge = options.challenge ?? b64url(randomBytes(32));
  const clientData = { type: options.type ?? 'webauthn.create', challenge: options.signedChallenge ?? challenge, origin: 'https://wallet.example', crossOrigin: false };
  return {
    authenticatorName: 'MacBook Touch ID',
    challenge,
    attestation: {
      credentialId: b64url(randomBytes(16)),
      clientDataJson: b64url(JSON.stringify(clientData)),
      attestationObject: b64url(randomBytes(64)),
      transports: ['internal', 'hybrid'],
    },
  };
}

describe('validateAuthenticators', () => {
  it('accepts well-formed registrations, and an empty list', () => {
    assertValid(validateAuthenticators([authenticator(), { ...authenticator(), authenticatorName: 'YubiKey 5C' }], P));
    assertValid(validateAuthenticators([], P));
    assertValid(validateAuthenticators([withField(authenticator(), ['attestation', 'transports'], [])], P));
  });

  it('accepts standard base64 with padding, and a challenge submitted in the other alphabet', () => {
    const a = authenticator();
    const std = (text: string) => Buffer.from(text, 'base64url').toString('base64');
    assertValid(validateAuthenticators([{ ...a, challenge: std(a.challenge), attestation: { ...a.attestation, credentialId: std(a.attestation.credentialId), clientDataJson: std(a.attestation.clientDataJson) } }], P));
  });

  it('names and challenges are non-blank strings', () => {
    assertOnly(validateAuthenticators([{ ...authenticator(), authenticatorName: ' ' }], P), `${P}/0/authenticatorName`, 'required');
    assertOnly(validateAuthenticators([withField(authenticator(), ['attestation'], undefined)], P), `${P}/0/attestation`, 'required');
    assertOnly(validateAuthenticators([authenticator(), 'passkey'], P), `${P}/1`, 'invalid_type');
  });

  it('the attestation blobs must be base64', () => {
    for (const field of ['credentialId', 'clientDataJson', 'attestationObject']) {
      for (const bad of ['not base64!', 'abc+_def', 'a', 'QUJD=', '====']) {
        assertOnly(validateAuthenticators([withField(authenticator(), ['attestation', field], bad)], P), `${P}/0/attestation/${field}`, 'invalid_base64');
      }
      assertOnly(validateAuthenticators([withField(authenticator(), ['attestation', field], '')], P), `${P}/0/attestation/${field}`, 'required');
    }
  });

  it('clientDataJson is a registration for the submitted challenge', () => {
    const at = `${P}/0/attestation/clientDataJson`;
    assertOnly(validateAuthenticators([authenticator({ type: 'webauthn.get' })], P), at, 'invalid_client_data');
    assertOnly(validateAuthenticators([withField(authenticator(), ['attestation', 'clientDataJson'], b64url('{"type":'))], P), at, 'invalid_client_data');
    assertOnly(validateAuthenticators([withField(authenticator(), ['attestation', 'clientDataJson'], b64url('[1,2]'))], P), at, 'invalid_client_data');
    assertOnly(validateAuthenticators([withField(authenticator(), ['attestation', 'clientDataJson'], b64url(Buffer.from([0xff, 0xfe])))], P), at, 'invalid_client_data');
    assertOnly(validateAuthenticators([authenticator({ signedChallenge: b64url(randomBytes(32)) })], P), at, 'challenge_mismatch');
  });

  it('transports come from the WebAuthn list', () => {
    assertOnly(validateAuthenticators([withField(authenticator(), ['attestation', 'transports'], ['usb', 'bluetooth'])], P), `${P}/0/attestation/transports/1`, 'invalid_value');
    assertOnly(validateAuthenticators([withField(authenticator(), ['attestation', 'transports'], 'usb')], P), `${P}/0/attestation/transports`, 'invalid_type');
    assertOnly(validateAuthenticators([withField(authenticator(), ['attestation', 'transports'], undefined)], P), `${P}/0/attestation/transports`, 'required');
  });

  it('credential ids are unique within the list, compared as bytes', () => {
    const a = authenticator();
    const b = withField(authenticator(), ['attestation', 'credentialId'], Buffer.from(a.attestation.credentialId, 'base64url').toString('base64'));
    assertOnly(validateAuthenticators([a, authenticator(), b], P), `${P}/2/attestation/credentialId`, 'duplicate_credential_id');
  });

  it('a non-array is one error', () => {
    assertOnly(validateAuthenticators(authenticator(), P), P, 'invalid_type');
    assertOnly(validateAuthenticators(null, P), P, 'required');
  });

  it('property: any challenge bytes round-trip through clientDataJson', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.boolean(), (bytes, standard) => {
        const challenge = standard ? Buffer.from(bytes).toString('base64') : b64url(bytes);
        const errors = validateAuthenticators([authenticator({ challenge, signedChallenge: b64url(bytes) })], P);
        assert.deepEqual(errors, []);
      }),
      { numRuns: 200 },
    );
  });
});
