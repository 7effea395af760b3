import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseStamp, stampChallenge, stampedBodyText, verifyStamp, type RegisteredCredential, type VerifyStampResult } from '../../src/crypto/webauthn/stamp.js';
import { FLAG, SoftwareAuthenticator, stampOf, type AssertionOptions } from '../harness/authenticator.js';
import { ROOT_URL } from '../harness/root.js';

const ORIGINS = ['https://wallet.example', 'http://localhost:*'];

/** The signedBody of the worked example in docs/passkeys.md, as an integrator would send it (any spacing). */
const EXAMPLE_RECEIVED = `{
  "type": "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
  "timestampMs": "1767225600000",
  "organizationId": "0193f3e1-7c2a-7d4e-9b1a-2f6c8d0e4a51",
  "parameters": {"signWith": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "unsignedTransaction": "02e801808459682f00843b9aca0082520894d8da6bf26964af9d7eed9e03e53415d37aa9604587038d7ea4c6800080c0", "type": "TRANSACTION_TYPE_ETHEREUM"}
}`;
const EXAMPLE_TEXT =
  '{"type":"ACTIVITY_TYPE_SIGN_TRANSACTION_V2","timestampMs":"1767225600000","organizationId":"0193f3e1-7c2a-7d4e-9b1a-2f6c8d0e4a51","parameters":{"signWith":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","unsignedTransaction":"02e801808459682f00843b9aca0082520894d8da6bf26964af9d7eed9e03e53415d37aa9604587038d7ea4c6800080c0","type":"TRANSACTION_TYPE_ETHEREUM"}}';
const EXAMPLE_HASH = 'cf9e2da2b344b759749aad61f9dfba1d6ab1e1c6137d5fc540b26c0051688350';
const EXAMPLE_CHALLENGE = 'Y2Y5ZTJkYTJiMzQ0Yjc1OTc0OWFhZDYxZjlkZmJhMWQ2YWIxZTFjNjEzN2Q1ZmM1NDBiMjZjMDA1MTY4ODM1MA';

/** A registered passkey: the authenticator and what the server stored for it. */
function registered(options: { counterStep?: number; signCount?: number } = {}) {
  const passkey = new SoftwareAuthenticator({ rpId: 'wallet.example', origin: 'https://wallet.example', ...options });
  const credential: RegisteredCredential = {
    credentialId: passkey.credentialId.toString('base64url'),
    publicKey: passkey.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    rpIdHash: createHash('sha256').update('wallet.example').digest('hex'),
    signCount: passkey.signCount,
  };
  return { passkey, credential };
}

function check(stamp: string, stampedBody: string, credential: RegisteredCredential): VerifyStampResult {
  return verifyStamp({ stamp, stampedBody, credential, origins: ORIGINS });
}

function code(result: VerifyStampResult): string {
  return result.ok ? 'ok' : result.code;
}

/** Replaces one member of a stamp's JSON. */
function withMember(stamp: string, member: string, value: unknown): string {
  return JSON.stringify({ ...JSON.parse(stamp), [member]: value });
}

const body = (n = 1) => stampedBodyText({ type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', timestampMs: String(1767225600000 + n), organizationId: 'org', parameters: { signWith: '0xabc', unsignedTransaction: '02', type: 'TRANSACTION_TYPE_ETHEREUM' } });

describe('webauthn stamps: examples', () => {
  it('the challenge rule, on the worked example of docs/passkeys.md', () => {
    const text = stampedBodyText(JSON.parse(EXAMPLE_RECEIVED));
    assert.equal(text, EXAMPLE_TEXT);
    assert.equal(createHash('sha256').update(text).digest('hex'), EXAMPLE_HASH);
    assert.equal(stampChallenge(text), EXAMPLE_CHALLENGE);
    assert.equal(Buffer.from(EXAMPLE_CHALLENGE, 'base64url').toString('utf8'), EXAMPLE_HASH);
    const page = readFileSync(new URL('docs/passkeys.md', ROOT_URL), 'utf8');
    for (const value of [EXAMPLE_TEXT, EXAMPLE_HASH, EXAMPLE_CHALLENGE]) assert.ok(page.includes(value), `docs/passkeys.md shows ${value.slice(0, 40)}…`);
  });

  it('verifies a stamp and returns the new counter; each use must raise it', () => {
    const { passkey, credential } = registered();
    const first = check(passkey.stamp(body(1)), body(1), credential);
    assert.deepEqual(first, { ok: true, signCount: 1, challenge: stampChallenge(body(1)), userVerified: true });
    const second = check(passkey.stamp(body(2)), body(2), { ...credential, signCount: 1 });
    assert.equal(second.ok && second.signCount, 2);
    const replayed = passkey.stamp(body(3));
    assert.equal(code(check(replayed, body(3), { ...credential, signCount: 3 })), 'counter_regression', 'the same assertion twice');
    assert.equal(code(check(passkey.stamp(body(4), { signCount: 2 }), body(4), { ...credential, signCount: 3 })), 'counter_regression', 'going backwards');
    assert.equal(code(check(passkey.stamp(body(5), { signCount: 0 }), body(5), { ...credential, signCount: 3 })), 'counter_regression', 'back to zero');
  });

  it('a passkey that keeps no counter (always 0) stamps any number of times', () => {
    const { passkey, credential } = registered({ counterStep: 0 });
    for (let i = 0; i < 3; i++) assert.deepEqual(check(passkey.stamp(body(i)), body(i), credential), { ok: true, signCount: 0, challenge: stampChallenge(body(i)), userVerified: true });
  });

  it('accepts the stamp base64-wrapped, in either alphabet, and parsed', () => {
    const { passkey, credential } = registered();
    const stamp = passkey.stamp(body());
    for (const wrapped of [Buffer.from(stamp).toString('base64'), Buffer.from(stamp).toString('base64url'), ` ${stamp}\n`]) {
      assert.equal(code(check(wrapped, body(), credential)), 'ok');
    }
    const parsed = parseStamp(stamp);
    assert.ok(parsed.ok);
    assert.equal(code(verifyStamp({ stamp: parsed.stamp, stampedBody: body(), credential, origins: ORIGINS })), 'ok');
  });

  it('refuses malformed stamps', () => {
    const { passkey } = registered();
    const stamp = passkey.stamp(body());
    for (const bad of ['', 'not json', '[]', '{"authenticatorData":1}', withMember(stamp, 'signature', 'not base64!'), withMember(stamp, 'clientDataJson', ''), Buffer.from('[1]').toString('base64'), 'x'.repeat(70_000)]) {
      const parsed = parseStamp(bad);
      assert.equal(parsed.ok, false, bad.slice(0, 40));
      assert.equal(!parsed.ok && parsed.code, 'malformed_stamp');
    }
    assert.ok(parseStamp(withMember(stamp, 'extra', 'ignored')).ok, 'unknown members are ignored');
  });

  it('each check has its code', () => {
    const { passkey, credential } = registered();
    const at = (options: AssertionOptions) => passkey.stamp(body(), options);
    assert.equal(code(check(passkey.stamp(body(2)), body(1), credential)), 'challenge_mismatch', 'another body');
    assert.equal(code(check(at({ type: 'webauthn.create' }), body(), credential)), 'invalid_client_data');
    assert.equal(code(check(at({ origin: 'https://evil.example' }), body(), credential)), 'origin_not_allowed');
    assert.equal(code(check(at({ rpId: 'evil.example' }), body(), credential)), 'rp_id_mismatch');
    assert.equal(code(check(at({ flags: FLAG.UV }), body(), credential)), 'user_not_present');
    assert.equal(code(check(at({ signWith: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey }), body(), credential)), 'invalid_signature', 'wrong key');
    assert.equal(code(check(withMember(passkey.stamp(body()), 'credentialId', 'AAAA'), body(), credential)), 'credential_mismatch');
    assert.equal(code(check(passkey.stamp(body()), body(), { ...credential, publicKey: null })), 'credential_unverified');
    assert.equal(code(check(withMember(passkey.stamp(body()), 'authenticatorData', 'AAAA'), body(), credential)), 'malformed_stamp');
    const crossOrigin = passkey.assert(Buffer.from(createHash('sha256').update(body()).digest('hex')));
    const json = JSON.parse(crossOrigin.clientDataJson.toString());
    assert.equal(code(check(stampOf(passkey.credentialId, { ...crossOrigin, clientDataJson: Buffer.from(JSON.stringify({ ...json, crossOrigin: true })) }), body(), credential)), 'origin_not_allowed');
  });

  it('user verification is reported, not required', () => {
    const { passkey, credential } = registered();
    const result = check(passkey.stamp(body(), { flags: FLAG.UP }), body(), credential);
    assert.equal(result.ok && result.userVerified, false);
  });
});

describe('webauthn stamps: properties', () => {
  const { passkey, credential } = registered({ counterStep: 0 });

  it('any signedBody: the stamped text is a fixed point of parse + stringify, and its stamp verifies', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = stampedBodyText(value);
        assert.equal(stampedBodyText(JSON.parse(text)), text);
        assert.equal(code(check(passkey.stamp(text), text, credential)), 'ok');
      }),
      { numRuns: 200 },
    );
  });

  it('a tampered body is refused', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (signed, sent) => {
        fc.pre(stampedBodyText(signed) !== stampedBodyText(sent));
        assert.equal(code(check(passkey.stamp(stampedBodyText(signed)), stampedBodyText(sent), credential)), 'challenge_mismatch');
      }),
      { numRuns: 200 },
    );
  });

  it('any change to authenticatorData, clientDataJson or the signature is refused', () => {
    const assertion = passkey.assert(Buffer.from(createHash('sha256').update(body()).digest('hex')));
    fc.assert(
      fc.property(fc.constantFrom('authenticatorData', 'clientDataJson', 'signature') as fc.Arbitrary<'authenticatorData' | 'clientDataJson' | 'signature'>, fc.nat(), fc.integer({ min: 1, max: 255 }), (part, at, delta) => {
        const changed = Buffer.from(assertion[part]);
        const index = at % changed.length;
        changed[index] = (changed[index]! + delta) & 0xff;
        const result = check(stampOf(passkey.credentialId, { ...assertion, [part]: changed }), body(), credential);
        assert.equal(result.ok, false, `${part}[${index}] +${delta}`);
      }),
      { numRuns: 500 },
    );
  });

  it('a stamp made with another key is refused', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 50 }), (text) => {
        const other = new SoftwareAuthenticator({ rpId: 'wallet.example', origin: 'https://wallet.example', credentialId: passkey.credentialId, counterStep: 0 });
        assert.equal(code(check(other.stamp(text), text, credential)), 'invalid_signature');
      }),
      { numRuns: 30 },
    );
  });

  it('without the user-present flag nothing passes', () => {
    fc.assert(
      // AT and ED announce data after the counter, which an assertion has none of: the other six bits.
      fc.property(fc.integer({ min: 0, max: 0x3f }), (flags) => {
        const result = check(passkey.stamp(body(), { flags, signCount: 0 }), body(), credential);
        assert.equal(code(result), flags & FLAG.UP ? 'ok' : 'user_not_present');
      }),
      { numRuns: 200 },
    );
  });

  it('the counter: accepted exactly when it rises, or when both sides are 0', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant(0), fc.nat({ max: 2 ** 32 - 1 })), fc.oneof(fc.constant(0), fc.nat({ max: 2 ** 32 - 1 })), (stored, next) => {
        const result = check(passkey.stamp(body(), { signCount: next }), body(), { ...credential, signCount: stored });
        const expected = next > stored || (next === 0 && stored === 0);
        assert.equal(code(result), expected ? 'ok' : 'counter_regression', `stored ${stored}, next ${next}`);
        if (result.ok) assert.equal(result.signCount, next);
      }),
      { numRuns: 300 },
    );
  });
});
