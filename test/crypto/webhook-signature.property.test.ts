import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { verifyWebhook, WebhookVerificationError } from '../../packages/sdk/src/index.js';
import {
  anySignatureValid,
  generateEd25519KeyPair,
  privateKeyFromRaw,
  publicKeyFromText,
  signWebhook,
  PUBLIC_KEY_PREFIX,
} from '../../src/crypto/webhook-signature.js';

// Key generation is cheap for Ed25519, but a handful of keys is all the properties need.
const keys = Array.from({ length: 4 }, () => {
  const pair = generateEd25519KeyPair();
  return { text: `${PUBLIC_KEY_PREFIX}${pair.publicKey}`, signer: privateKeyFromRaw(pair.privateKey), verifier: publicKeyFromText(pair.publicKey)! };
});

/** An implementation independent of src/: the JWK form of the raw key and node:crypto's Ed25519 verify. */
function independentlyValid(publicKeyText: string, header: string, id: string, timestamp: string, body: Buffer): boolean {
  const raw = Buffer.from(publicKeyText.slice('whpk_'.length), 'base64');
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  const content = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), body]);
  return header
    .split(' ')
    .filter((e) => e.startsWith('v1a,'))
    .some((e) => verify(null, content, key, Buffer.from(e.slice(4), 'base64')));
}

const keyIndex = fc.integer({ min: 0, max: keys.length - 1 });
const twoKeys = fc.tuple(keyIndex, keyIndex).filter(([a, b]) => a !== b);
// Webhook ids are event uuids, but the scheme signs any text; printable ASCII covers the separators too.
const id = fc.oneof(fc.uuid(), fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 60 }));
const timestamp = fc.integer({ min: 1_000_000_000, max: 9_999_999_999 });
const bytes = fc.uint8Array({ maxLength: 2048 }).map((a) => Buffer.from(a));
const jsonBody = fc.json({ maxDepth: 3 });

/** The one byte at `at` (mod length) moved by `delta` (1..255): always a different byte. */
function flipByte(b: Buffer, at: number, delta: number): Buffer {
  const out = Buffer.from(b);
  const i = at % out.length;
  out[i] = (out[i]! + delta) % 256;
  return out;
}

/** One printable-ASCII character of `s` replaced by another printable-ASCII character. */
function flipChar(s: string, at: number, delta: number): string {
  const i = at % s.length;
  const code = s.charCodeAt(i);
  const next = 0x20 + ((code - 0x20 + (delta % 94) + 1) % 95);
  return s.slice(0, i) + String.fromCharCode(next) + s.slice(i + 1);
}

const headersOf = (id: string, ts: number | string, signature: string) => ({ 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signature });

describe('webhook signatures (property-based)', () => {
  it('sign then verify round-trips for any id, timestamp and body, in src and in an independent implementation', () => {
    fc.assert(
      fc.property(keyIndex, id, timestamp, bytes, (k, i, ts, body) => {
        const key = keys[k]!;
        const header = signWebhook([key.signer], i, ts, body);
        assert.match(header, /^v1a,[A-Za-z0-9+/]{86}==$/);
        assert.ok(anySignatureValid(header, key.verifier, i, ts, body));
        assert.ok(independentlyValid(key.text, header, i, String(ts), body));
      }),
      { numRuns: 300 },
    );
  });

  it('verifyWebhook accepts a signed JSON body as text or bytes and returns it parsed', () => {
    fc.assert(
      fc.property(keyIndex, id, timestamp, jsonBody, fc.boolean(), (k, i, ts, body, asBytes) => {
        const key = keys[k]!;
        const headers = headersOf(i, ts, signWebhook([key.signer], i, ts, body));
        const raw = asBytes ? new Uint8Array(Buffer.from(body, 'utf8')) : body;
        assert.deepEqual(verifyWebhook(raw, headers, key.text, { now: ts }), JSON.parse(body));
      }),
      { numRuns: 200 },
    );
  });

  it('any single-byte change of the body, the id or the timestamp fails', () => {
    const part = fc.constantFrom('body', 'id', 'timestamp');
    fc.assert(
      fc.property(keyIndex, id, timestamp, bytes.filter((b) => b.length > 0), part, fc.nat(), fc.integer({ min: 1, max: 255 }), (k, i, ts, body, which, at, delta) => {
        const key = keys[k]!;
        const header = signWebhook([key.signer], i, ts, body);
        let [i2, ts2, body2]: [string, string, Buffer] = [i, String(ts), body];
        if (which === 'body') body2 = flipByte(body, at, delta);
        if (which === 'id') i2 = flipChar(i, at, delta);
        if (which === 'timestamp') ts2 = flipChar(String(ts), at, delta);
        assert.ok(!independentlyValid(key.text, header, i2, ts2, body2), 'independent verifier');
        if (which !== 'timestamp' || /^\d+$/.test(ts2)) {
          assert.ok(!anySignatureValid(header, key.verifier, i2, Number(ts2), body2), `src verifier (${which})`);
        }
        // A timestamp byte changed to a non-digit is refused as not Unix seconds: also a WebhookVerificationError.
        assert.throws(() => verifyWebhook(body2, headersOf(i2, ts2, header), key.text, { now: ts, toleranceSeconds: 1e10 }), WebhookVerificationError);
      }),
      { numRuns: 300 },
    );
  });

  it('a header with extra entries of unknown schemes (and broken v1a entries) still verifies', () => {
    const junk = fc.oneof(
      fc.base64String({ minLength: 4, maxLength: 88 }).map((s) => `v1,${s}`),
      fc.base64String({ minLength: 4, maxLength: 88 }).map((s) => `v2a,${s}`),
      fc.stringMatching(/^[a-z0-9]{1,8},[A-Za-z0-9+/=]{0,40}$/).filter((s) => !s.startsWith('v1a,')),
      fc.stringMatching(/^[A-Za-z0-9+/=]{1,20}$/),
      fc.base64String({ minLength: 4, maxLength: 40 }).map((s) => `v1a,${s}`),
    );
    fc.assert(
      fc.property(keyIndex, id, timestamp, jsonBody, fc.array(junk, { maxLength: 5 }), fc.nat(), (k, i, ts, body, extras, position) => {
        const key = keys[k]!;
        const valid = signWebhook([key.signer], i, ts, body);
        const entries = [...extras];
        entries.splice(position % (extras.length + 1), 0, valid);
        const header = entries.join(' ');
        assert.ok(anySignatureValid(header, key.verifier, i, ts, body));
        assert.ok(independentlyValid(key.text, header, i, String(ts), Buffer.from(body, 'utf8')));
        assert.deepEqual(verifyWebhook(body, headersOf(i, ts, header), key.text, { now: ts }), JSON.parse(body));
      }),
      { numRuns: 200 },
    );
  });

  it('a signature by another key fails; a header signed by two keys verifies with either', () => {
    fc.assert(
      fc.property(twoKeys, id, timestamp, jsonBody, ([a, b], i, ts, body) => {
        const signer = keys[a]!;
        const other = keys[b]!;
        const header = signWebhook([signer.signer], i, ts, body);
        assert.ok(!anySignatureValid(header, other.verifier, i, ts, body));
        assert.ok(!independentlyValid(other.text, header, i, String(ts), Buffer.from(body, 'utf8')));
        assert.throws(() => verifyWebhook(body, headersOf(i, ts, header), other.text, { now: ts }), WebhookVerificationError);

        const both = signWebhook([signer.signer, other.signer], i, ts, body);
        assert.equal(both.split(' ').length, 2);
        for (const key of [signer, other]) assert.deepEqual(verifyWebhook(body, headersOf(i, ts, both), key.text, { now: ts }), JSON.parse(body));
      }),
      { numRuns: 150 },
    );
  });

  it('verifyWebhook enforces the 5-minute tolerance and the presence of every header', () => {
    const key = keys[0]!;
    const ts = 1_700_000_000;
    const body = '{"id":"x"}';
    const headers = headersOf('msg_1', ts, signWebhook([key.signer], 'msg_1', ts, body));
    for (const now of [ts - 300, ts, ts + 300]) assert.deepEqual(verifyWebhook(body, headers, key.text, { now }), { id: 'x' });
    for (const now of [ts - 301, ts + 301]) assert.throws(() => verifyWebhook(body, headers, key.text, { now }), /outside the tolerance/);
    for (const missing of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const { [missing]: _, ...rest } = headers;
      assert.throws(() => verifyWebhook(body, rest, key.text, { now: ts }), WebhookVerificationError);
    }
    assert.throws(() => verifyWebhook(body, headers, 'whpk_not-a-key', { now: ts }), WebhookVerificationError);
    // Headers may come as a fetch Headers object, with any letter case.
    const fetchHeaders = new Headers({ 'Webhook-Id': 'msg_1', 'Webhook-Timestamp': String(ts), 'Webhook-Signature': headers['webhook-signature'] });
    assert.deepEqual(verifyWebhook(body, fetchHeaders, key.text, { now: ts }), { id: 'x' });
  });
});
