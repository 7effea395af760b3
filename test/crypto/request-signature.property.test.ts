import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { encodeDerSignature, flipS, parseDerSignature, P256_N } from '../../src/crypto/der-signature.js';
import { PublicKeyCache, generateP256KeyPair, importPrivateKey, verifyDer } from '../../src/crypto/p256.js';
import { buildSignedMessage, signRequest, signedPathCandidates } from '../../src/crypto/request-signature.js';

// Key generation is the slow part; a handful of keys covers the curve arithmetic, the properties vary the rest.
const keys = Array.from({ length: 4 }, () => {
  const pair = generateP256KeyPair();
  return { ...pair, signer: importPrivateKey(pair.privateKey) };
});
const cache = new PublicKeyCache(16);

const method = fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT');
const path = fc
  .tuple(fc.webPath(), fc.option(fc.webQueryParameters(), { nil: undefined }))
  .map(([p, q]) => `/v1${p.startsWith('/') ? p : `/${p}`}${q ? `?${q}` : ''}`);
const body = fc.option(fc.oneof(fc.json(), fc.string({ unit: 'binary' })), { nil: undefined });
const timestamp = fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }).map(String);
const keyIndex = fc.integer({ min: 0, max: keys.length - 1 });

function verifies(publicKey: string, ts: string, m: string, p: string, b: string | Buffer | undefined, sigHex: string): boolean {
  const sig = Buffer.from(sigHex.slice(2), 'hex');
  return signedPathCandidates(p).some((candidate) => verifyDer(cache.get(publicKey), buildSignedMessage(ts, m, candidate, b), sig));
}

describe('request signature scheme (property-based)', () => {
  it('any correctly signed method, path and body verifies, over the path with or without /v1', () => {
    fc.assert(
      fc.property(keyIndex, timestamp, method, path, body, fc.boolean(), (k, ts, m, p, b, stripV1) => {
        const key = keys[k]!;
        const signedPath = stripV1 ? p.slice(3) : p;
        const headers = signRequest(key.signer, ts, m, signedPath, b);
        assert.equal(headers['X-Pubkey'], key.publicKey);
        assert.match(headers['X-Signature'], /^0x30[0-9a-f]+$/);
        assert.ok(verifies(key.publicKey, ts, m, p, b, headers['X-Signature']));
      }),
      { numRuns: 300 },
    );
  });

  it('any one-byte change of timestamp, method, path, body or signature fails', () => {
    const part = fc.constantFrom('timestamp', 'method', 'path', 'body', 'signature');
    fc.assert(
      fc.property(keyIndex, timestamp, method, path, fc.json(), part, fc.nat(), fc.integer({ min: 1, max: 255 }), (k, ts, m, p, b, which, at, delta) => {
        const key = keys[k]!;
        const sig = signRequest(key.signer, ts, m, p, b)['X-Signature'];
        const flip = (s: string): string => {
          const bytes = Buffer.from(s, 'latin1');
          const i = at % bytes.length;
          bytes[i] = (bytes[i]! + delta) % 256;
          return bytes.toString('latin1');
        };
        let [ts2, m2, p2, b2, sig2]: [string, string, string, string, string] = [ts, m, p, b, sig];
        if (which === 'timestamp') ts2 = flip(ts);
        if (which === 'method') m2 = flip(m);
        if (which === 'path') p2 = flip(p);
        if (which === 'body') b2 = flip(b);
        if (which === 'signature') {
          const raw = Buffer.from(sig.slice(2), 'hex');
          const i = at % raw.length;
          raw[i] = (raw[i]! + delta) % 256;
          sig2 = `0x${raw.toString('hex')}`;
        }
        // A method changed only in case is a different message: the verifier normalises nothing.
        assert.equal(verifies(key.publicKey, ts2, m2, p2, b2, sig2), false, `${which} changed`);
      }),
      { numRuns: 500 },
    );
  });

  it('a signature by another key never verifies', () => {
    fc.assert(
      fc.property(timestamp, method, path, body, (ts, m, p, b) => {
        const sig = signRequest(keys[0]!.signer, ts, m, p, b)['X-Signature'];
        assert.equal(verifies(keys[1]!.publicKey, ts, m, p, b, sig), false);
      }),
      { numRuns: 100 },
    );
  });
});

describe('DER signature codec (property-based)', () => {
  const scalar = fc.bigInt({ min: 1n, max: P256_N - 1n });

  it('round-trips every (r, s) in range, and the high-S twin also verifies', () => {
    fc.assert(
      fc.property(scalar, scalar, (r, s) => {
        assert.deepEqual(parseDerSignature(encodeDerSignature({ r, s })), { r, s });
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(timestamp, path, (ts, p) => {
        const key = keys[2]!;
        const sig = signRequest(key.signer, ts, 'GET', p)['X-Signature'];
        const parsed = parseDerSignature(Buffer.from(sig.slice(2), 'hex'))!;
        const twin = `0x${encodeDerSignature(flipS(parsed)).toString('hex')}`;
        assert.ok(verifies(key.publicKey, ts, 'GET', p, undefined, twin));
      }),
      { numRuns: 100 },
    );
  });

  it('rejects out-of-range scalars, trailing bytes and non-minimal integers', () => {
    assert.equal(parseDerSignature(encodeDerSignature({ r: 0n, s: 1n })), null);
    assert.equal(parseDerSignature(encodeDerSignature({ r: 1n, s: P256_N })), null);
    fc.assert(
      fc.property(scalar, scalar, fc.uint8Array({ minLength: 1, maxLength: 4 }), (r, s, extra) => {
        const der = encodeDerSignature({ r, s });
        assert.equal(parseDerSignature(Buffer.concat([der, Buffer.from(extra)])), null);
      }),
    );
    // r = 1 encoded with a superfluous leading zero byte.
    assert.equal(parseDerSignature(Buffer.from('3007020200010201 01'.replace(/ /g, ''), 'hex')), null);
  });

  it('never throws on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const parsed = parseDerSignature(Buffer.from(bytes));
        assert.ok(parsed === null || (parsed.r > 0n && parsed.s > 0n));
      }),
      { numRuns: 2000 },
    );
  });
});
