import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyObjectCache, generateP256KeyPair, importCompressedPublicKey } from '../../src/crypto/p256.js';

describe('KeyObjectCache', () => {
  it('imports each key once while it stays among the most recently used, evicts the least recent, caches no failure', () => {
    const imported: string[] = [];
    const cache = new KeyObjectCache((hex) => {
      imported.push(hex);
      return importCompressedPublicKey(hex);
    }, 2);
    const [a, b, c] = [generateP256KeyPair(), generateP256KeyPair(), generateP256KeyPair()].map((k) => k.publicKey) as [string, string, string];

    const first = cache.get(a);
    assert.equal(cache.get(a), first, 'the same KeyObject for the same key');
    cache.get(b);
    cache.get(a); // a is now the most recent: c evicts b
    cache.get(c);
    cache.get(a);
    assert.deepEqual(imported, [a, b, c]);
    cache.get(b);
    assert.deepEqual(imported, [a, b, c, b], 'b was evicted');
    assert.equal(cache.get(c).asymmetricKeyType, 'ec');

    assert.throws(() => cache.get('0x02nothex'));
    assert.throws(() => cache.get('0x02nothex'));
    assert.equal(imported.filter((k) => k === '0x02nothex').length, 2, 'a failed import is tried again, never cached');
  });
});
