import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { decode as cborDecode, encode as cborEncode } from 'cborg';
import fc from 'fast-check';
import { verifyAttestation, type AttestationResult } from '../../src/crypto/webauthn/attestation.js';
import { SoftwareAuthenticator, type Registration, type RegistrationOptions } from '../harness/authenticator.js';

const RP_IDS = ['wallet.example', 'localhost'];
const encoder = { encode: (value: unknown): Buffer => Buffer.from(cborEncode(value)) };
const decoder = { decode: (bytes: Uint8Array): unknown => cborDecode(bytes, { useMaps: true }) };
const bytes = (b64url: string) => Buffer.from(b64url, 'base64url');

function verify(registration: Registration, rpIds: readonly string[] = RP_IDS): AttestationResult {
  return verifyAttestation({ credentialId: bytes(registration.credentialId), clientDataJson: bytes(registration.clientDataJson), attestationObject: bytes(registration.attestationObject) }, rpIds);
}

function register(options: RegistrationOptions = {}, passkey = new SoftwareAuthenticator({ rpId: 'wallet.example' })): Registration {
  return passkey.register(options);
}

/** Decodes the attestation object, lets `change` edit the map (authData as a Buffer), encodes it again. */
function rewrite(registration: Registration, change: (object: Map<string, any>) => void): Registration {
  const object = decoder.decode(bytes(registration.attestationObject)) as Map<string, any>;
  object.set('authData', Buffer.from(object.get('authData')));
  change(object);
  return { ...registration, attestationObject: encoder.encode(object).toString('base64url') };
}

function codes(result: AttestationResult): string[] {
  return result.ok ? [] : result.failures.map((f) => `${f.field}:${f.code}`).sort();
}

describe('webauthn registration: attestation objects', () => {
  it('none: extracts the ES256 key, rp id, counter, AAGUID and flags', () => {
    const passkey = new SoftwareAuthenticator({ rpId: 'wallet.example', signCount: 3 });
    const result = verify(register({}, passkey));
    assert.ok(result.ok, JSON.stringify(codes(result)));
    const c = result.credential;
    assert.deepEqual(c.credentialId, passkey.credentialId);
    assert.deepEqual(c.publicKeySpki, passkey.publicKey.export({ format: 'der', type: 'spki' }));
    assert.equal(c.algorithm, -7);
    assert.equal(c.rpId, 'wallet.example');
    assert.deepEqual(c.rpIdHash, createHash('sha256').update('wallet.example').digest());
    assert.equal(c.signCount, 3);
    assert.equal(c.aaguid, '6e1a9c04-b0f3-4c1e-9a2b-5d7f3e8c0a11');
    assert.deepEqual([c.format, c.attestationType, c.userVerified], ['none', 'none', true]);
  });

  it('packed: self attestation, and x5c with an EC or RSA certificate (signature checked, chain not)', () => {
    const self = verify(register({ format: 'packed' }));
    assert.deepEqual(self.ok && [self.credential.format, self.credential.attestationType], ['packed', 'self']);
    for (const attestationKey of ['ES256', 'RS256'] as const) {
      const result = verify(register({ format: 'packed-x5c', attestationKey }));
      assert.ok(result.ok && result.credential.attestationType === 'basic', `${attestationKey}: ${codes(result)}`);
    }
  });

  it('packed signatures cover authData and the hash of the exact clientDataJSON', () => {
    for (const format of ['packed', 'packed-x5c'] as const) {
      const registration = register({ format });
      const other = JSON.stringify({ ...JSON.parse(bytes(registration.clientDataJson).toString()), origin: 'http://localhost:1' });
      assert.deepEqual(codes(verify({ ...registration, clientDataJson: Buffer.from(other).toString('base64url') })), ['attestationObject:invalid_attestation'], format);
      const flipped = rewrite(registration, (o) => o.get('authData')[40]!++); // inside the AAGUID: only the signature notices
      assert.deepEqual(codes(verify(flipped)), ['attestationObject:invalid_attestation'], format);
    }
    assert.ok(verify(rewrite(register(), (o) => o.get('authData')[40]!++)).ok, 'format none signs nothing, so the AAGUID is unprotected');
  });

  it('packed self attestation must use the credential key’s alg', () => {
    assert.deepEqual(codes(verify(register({ format: 'packed', packedAlg: -257 }))), ['attestationObject:invalid_attestation']);
  });

  it('refuses other credential key algorithms as unsupported_algorithm', () => {
    for (const algorithm of ['RS256', 'EdDSA'] as const) {
      const passkey = new SoftwareAuthenticator({ rpId: 'wallet.example', algorithm });
      assert.deepEqual(codes(verify(register({}, passkey))), ['attestationObject:unsupported_algorithm'], algorithm);
    }
  });

  it('refuses formats other than none and packed, and malformed statements', () => {
    assert.deepEqual(codes(verify(rewrite(register(), (o) => o.set('fmt', 'fido-u2f')))), ['attestationObject:unsupported_attestation_format']);
    assert.deepEqual(codes(verify(rewrite(register(), (o) => o.set('fmt', 'made-up')))), ['attestationObject:unsupported_attestation_format']);
    assert.deepEqual(codes(verify(rewrite(register(), (o) => o.set('attStmt', new Map([['sig', Buffer.alloc(8)]]))))), ['attestationObject:invalid_attestation']);
    assert.deepEqual(codes(verify(rewrite(register({ format: 'packed' }), (o) => o.get('attStmt').delete('sig')))), ['attestationObject:invalid_attestation']);
    assert.deepEqual(codes(verify(rewrite(register({ format: 'packed-x5c' }), (o) => o.get('attStmt').set('x5c', [Buffer.from('not a certificate')])))), ['attestationObject:invalid_attestation']);
    assert.deepEqual(codes(verify(rewrite(register({ format: 'packed-x5c' }), (o) => o.get('attStmt').set('x5c', [])))), ['attestationObject:invalid_attestation']);
  });

  it('refuses what is not an attestation object', () => {
    const registration = register();
    const raw = bytes(registration.attestationObject);
    for (const attestationObject of [raw.subarray(0, raw.length - 1), Buffer.concat([raw, Buffer.from([0])]), encoder.encode([1, 2]), encoder.encode('text'), randomBytes(40)]) {
      assert.deepEqual(codes(verify({ ...registration, attestationObject: attestationObject.toString('base64url') })), ['attestationObject:invalid_attestation']);
    }
    assert.deepEqual(codes(verify(rewrite(registration, (o) => o.set('authData', 'text')))), ['attestationObject:invalid_attestation']);
  });

  it('authData must hold exactly what its flags announce', () => {
    const at = ['attestationObject:invalid_attestation'];
    assert.deepEqual(codes(verify(rewrite(register(), (o) => o.set('authData', o.get('authData').subarray(0, 36))))), at, 'shorter than 37 bytes');
    assert.deepEqual(codes(verify(rewrite(register(), (o) => o.set('authData', Buffer.concat([o.get('authData'), Buffer.from([0xa0])]))))), at, 'a trailing item without ED');
    assert.deepEqual(codes(verify(rewrite(register(), (o) => (o.get('authData')[32] |= 0x80)))), at, 'ED without extensions');
    assert.deepEqual(codes(verify(rewrite(register(), (o) => (o.get('authData')[32] &= ~0x40)))), at, 'no attested credential data');
    assert.deepEqual(codes(verify(rewrite(register(), (o) => o.set('authData', o.get('authData').subarray(0, 60))))), at, 'cut inside the credential id');
    assert.deepEqual(codes(verify(rewrite(register(), (o) => o.get('authData').writeUInt16BE(0, 53)))), at, 'a zero-length credential id');
    const result = verify(register({ extensions: new Map([['credProtect', 2]]) }));
    assert.ok(result.ok, `extensions after the key: ${codes(result)}`);
  });

  it('the key must be a P-256 point', () => {
    const passkey = new SoftwareAuthenticator({ rpId: 'wallet.example' });
    const registration = register({}, passkey);
    const cose = encoder.encode(passkey.coseKey());
    const broken = passkey.coseKey();
    broken.set(-2, Buffer.alloc(32, 1));
    const result = verify(rewrite(registration, (o) => {
      const authData: Buffer = o.get('authData');
      o.set('authData', Buffer.concat([authData.subarray(0, authData.length - cose.length), encoder.encode(broken)]));
    }));
    assert.deepEqual(codes(result), ['attestationObject:invalid_attestation']);
  });

  it('rp id, user presence and credential id are each reported', () => {
    assert.deepEqual(codes(verify(register({ rpId: 'evil.example' }))), ['attestationObject:rp_id_mismatch']);
    assert.deepEqual(codes(verify(register(), ['localhost'])), ['attestationObject:rp_id_mismatch']);
    assert.deepEqual(codes(verify(register({ flags: 0x04 }))), ['attestationObject:user_not_present']);
    assert.deepEqual(codes(verify(register({ attestedCredentialId: randomBytes(16) }))), ['credentialId:credential_id_mismatch']);
    assert.deepEqual(codes(verify(register({ rpId: 'evil.example', flags: 0, attestedCredentialId: randomBytes(16) }))), [
      'attestationObject:rp_id_mismatch',
      'attestationObject:user_not_present',
      'credentialId:credential_id_mismatch',
    ]);
  });

  it('property: any change to a packed attestation object is refused, and nothing ever throws', () => {
    const passkey = new SoftwareAuthenticator({ rpId: 'wallet.example' });
    const registration = register({ format: 'packed' }, passkey);
    const raw = bytes(registration.attestationObject);
    fc.assert(
      fc.property(fc.nat({ max: raw.length - 1 }), fc.integer({ min: 1, max: 255 }), (index, delta) => {
        const changed = Buffer.from(raw);
        changed[index] = (changed[index]! + delta) & 0xff;
        const result = verify({ ...registration, attestationObject: changed.toString('base64url') });
        assert.equal(result.ok, false, `byte ${index} +${delta}`);
      }),
      { numRuns: 500 },
    );
  });

  it('property: arbitrary bytes never throw', () => {
    const registration = register();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (junk) => {
        const result = verify({ ...registration, attestationObject: Buffer.from(junk).toString('base64url') });
        assert.equal(result.ok, false);
      }),
      { numRuns: 500 },
    );
  });
});
