import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { RelyingPartyPolicy } from '../../../src/crypto/webauthn/relying-party.js';
import { prepareAuthenticators, validateAuthenticators } from '../../../src/domain/onboarding/validation/authenticators.js';
import { SoftwareAuthenticator, type RegistrationOptions } from '../../harness/authenticator.js';
import { assertOnly, assertValid, withField } from './fixtures.js';

const P = '/authenticators';
const RP: RelyingPartyPolicy = { rpIds: ['wallet.example', 'localhost'], origins: ['https://wallet.example', 'http://localhost:*'] };
const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const std = (text: string) => Buffer.from(text, 'base64url').toString('base64');
const validate = (list: unknown, rp: RelyingPartyPolicy | undefined = RP) => validateAuthenticators(list, P, rp);

/** A fresh passkey's registration, as an authenticators[] entry. */
function authenticator(options: RegistrationOptions = {}) {
  return new SoftwareAuthenticator({ rpId: 'wallet.example', origin: 'https://wallet.example' }).authenticator({ name: 'MacBook Touch ID', ...options });
}

/** A registration whose clientDataJson is replaced by `clientData` (the attestation signature then no longer matches it, so only format none). */
function withClientData(clientData: unknown) {
  return withField(authenticator(), ['attestation', 'clientDataJson'], b64url(typeof clientData === 'string' ? clientData : JSON.stringify(clientData)));
}

describe('validateAuthenticators', () => {
  it('accepts verified registrations of formats none, packed and packed with x5c, and an empty list', () => {
    assertValid(validate([authenticator(), authenticator({ format: 'packed' }), authenticator({ format: 'packed-x5c' })]));
    assertValid(validate([]));
    assertValid(validate([withField(authenticator(), ['attestation', 'transports'], [])]));
  });

  it('prepares what is stored: canonical base64url credential id, SPKI key, rpIdHash, counter, AAGUID and format', () => {
    const passkey = new SoftwareAuthenticator({ rpId: 'localhost', signCount: 7 });
    const entry = passkey.authenticator({ format: 'packed' });
    const { errors, prepared } = prepareAuthenticators([withField(entry, ['attestation', 'credentialId'], std(entry.attestation.credentialId))], P, RP);
    assert.deepEqual(errors, []);
    const [one] = prepared;
    assert.equal(one!.credentialId, b64url(passkey.credentialId));
    assert.deepEqual(one!.credential.publicKeySpki, passkey.publicKey.export({ format: 'der', type: 'spki' }));
    assert.equal(one!.credential.rpId, 'localhost');
    assert.equal(one!.credential.signCount, 7);
    assert.equal(one!.credential.format, 'packed');
    assert.equal(one!.credential.attestationType, 'self');
    assert.equal(one!.credential.aaguid, '6e1a9c04-b0f3-4c1e-9a2b-5d7f3e8c0a11');
  });

  it('accepts standard base64 with padding, and a challenge submitted in the other alphabet', () => {
    const a = authenticator();
    assertValid(validate([{ ...a, challenge: std(a.challenge), attestation: { ...a.attestation, credentialId: std(a.attestation.credentialId), clientDataJson: std(a.attestation.clientDataJson), attestationObject: std(a.attestation.attestationObject) } }]));
  });

  it('names and challenges are non-blank strings', () => {
    assertOnly(validate([{ ...authenticator(), authenticatorName: ' ' }]), `${P}/0/authenticatorName`, 'required');
    assertOnly(validate([withField(authenticator(), ['attestation'], undefined)]), `${P}/0/attestation`, 'required');
    assertOnly(validate([authenticator(), 'passkey']), `${P}/1`, 'invalid_type');
  });

  it('the attestation blobs must be base64', () => {
    for (const field of ['credentialId', 'clientDataJson', 'attestationObject']) {
      for (const bad of ['not base64!', 'abc+_def', 'a', 'QUJD=', '====']) {
        assertOnly(validate([withField(authenticator(), ['attestation', field], bad)]), `${P}/0/attestation/${field}`, 'invalid_base64');
      }
      assertOnly(validate([withField(authenticator(), ['attestation', field], '')]), `${P}/0/attestation/${field}`, 'required');
    }
  });

  it('clientDataJson is a registration for the submitted challenge, from an allowed origin', () => {
    const at = `${P}/0/attestation/clientDataJson`;
    assertOnly(validate([authenticator({ type: 'webauthn.get' })]), at, 'invalid_client_data');
    assertOnly(validate([withClientData('{"type":')]), at, 'invalid_client_data');
    assertOnly(validate([withClientData('[1,2]')]), at, 'invalid_client_data');
    assertOnly(validate([withField(authenticator(), ['attestation', 'clientDataJson'], b64url(Buffer.from([0xff, 0xfe])))]), at, 'invalid_client_data');
    const mismatched = authenticator();
    assertOnly(validate([{ ...mismatched, challenge: b64url(randomBytes(32)) }]), at, 'challenge_mismatch');
    assertOnly(validate([authenticator({ origin: 'https://evil.example' })]), at, 'origin_not_allowed');
    assertOnly(validate([authenticator({ origin: 'https://wallet.example.evil' })]), at, 'origin_not_allowed');
  });

  it('the attestation object is verified', () => {
    const at = `${P}/0/attestation/attestationObject`;
    const a = authenticator();
    const bytes = Buffer.from(a.attestation.attestationObject, 'base64url');
    assertOnly(validate([withField(a, ['attestation', 'attestationObject'], b64url(bytes.subarray(0, bytes.length - 3)))]), at, 'invalid_attestation');
    assertOnly(validate([withField(a, ['attestation', 'attestationObject'], b64url(randomBytes(64)))]), at, 'invalid_attestation');
    assertOnly(validate([authenticator({ rpId: 'evil.example' })]), at, 'rp_id_mismatch');
    assertOnly(validate([authenticator({ flags: 0x04 })]), at, 'user_not_present');
    const rsa = new SoftwareAuthenticator({ rpId: 'wallet.example', origin: 'https://wallet.example', algorithm: 'RS256' }).authenticator();
    assertOnly(validate([rsa]), at, 'unsupported_algorithm');
    assertOnly(validate([authenticator({ attestedCredentialId: randomBytes(32) })]), `${P}/0/attestation/credentialId`, 'credential_id_mismatch');
  });

  it('reports every independent problem of one authenticator at once', () => {
    const errors = validate([authenticator({ rpId: 'evil.example', origin: 'https://evil.example', attestedCredentialId: randomBytes(16) })]);
    assert.deepEqual(
      errors.map((e) => `${e.pointer} ${e.code}`).sort(),
      [`${P}/0/attestation/attestationObject rp_id_mismatch`, `${P}/0/attestation/clientDataJson origin_not_allowed`, `${P}/0/attestation/credentialId credential_id_mismatch`],
    );
  });

  it('without a relying-party policy nothing is accepted', () => {
    const errors = validateAuthenticators([authenticator()], P, undefined);
    assert.deepEqual(errors.map((e) => e.code).sort(), ['origin_not_allowed', 'rp_id_mismatch']);
  });

  it('transports come from the WebAuthn list', () => {
    assertOnly(validate([withField(authenticator(), ['attestation', 'transports'], ['usb', 'bluetooth'])]), `${P}/0/attestation/transports/1`, 'invalid_value');
    assertOnly(validate([withField(authenticator(), ['attestation', 'transports'], 'usb')]), `${P}/0/attestation/transports`, 'invalid_type');
    assertOnly(validate([withField(authenticator(), ['attestation', 'transports'], undefined)]), `${P}/0/attestation/transports`, 'required');
  });

  it('credential ids are unique within the list, compared as bytes', () => {
    const a = authenticator();
    const b = withField(a, ['attestation', 'credentialId'], std(a.attestation.credentialId));
    assertOnly(validate([a, authenticator(), b]), `${P}/2/attestation/credentialId`, 'duplicate_credential_id');
    assert.deepEqual(prepareAuthenticators([a, b], P, RP).prepared, [], 'nothing is prepared when anything is wrong');
  });

  it('a non-array is one error', () => {
    assertOnly(validate(authenticator()), P, 'invalid_type');
    assertOnly(validate(null), P, 'required');
  });

  it('property: any challenge bytes round-trip through clientDataJson', () => {
    const passkey = new SoftwareAuthenticator({ rpId: 'localhost' });
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.boolean(), (bytes, standard) => {
        const entry = passkey.authenticator({ challenge: b64url(bytes) });
        const challenge = standard ? Buffer.from(bytes).toString('base64') : b64url(bytes);
        assert.deepEqual(validate([{ ...entry, challenge }]), []);
      }),
      { numRuns: 100 },
    );
  });
});
