import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { loadOrCreateSandboxKey, parseEncryptionKey } from '../../src/crypto/encryption-key.js';
import { SecretBox } from '../../src/crypto/secret-box.js';

describe('secrets at rest (AES-256-GCM)', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips any plaintext under its context', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), fc.string(), (plain, context) => {
        const sealed = box.seal(Buffer.from(plain), context);
        assert.deepEqual(box.open(sealed, context), Buffer.from(plain));
      }),
    );
  });

  it('refuses another context, another key, or any tampering', () => {
    const sealed = box.seal('wallet private key', 'wallet:1');
    assert.throws(() => box.open(sealed, 'wallet:2'));
    assert.throws(() => new SecretBox(randomBytes(32)).open(sealed, 'wallet:1'));
    const bytes = Buffer.from(sealed, 'base64url');
    for (const at of [0, 5, 20, bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[at] = tampered[at]! ^ 1;
      assert.throws(() => box.open(tampered.toString('base64url'), 'wallet:1'), `byte ${at}`);
    }
    assert.notEqual(box.seal('same', 'c'), box.seal('same', 'c'), 'fresh IV each time');
  });

  it('seals large binary values, and fingerprints deterministically per purpose without revealing the value', () => {
    const doc = randomBytes(1024 * 1024);
    assert.deepEqual(box.openBytes(box.sealBytes(doc, 'doc:1'), 'doc:1'), doc);
    assert.equal(box.fingerprint('123456789', 'ssn'), box.fingerprint('123456789', 'ssn'));
    assert.notEqual(box.fingerprint('123456789', 'ssn'), box.fingerprint('123456789', 'other'));
    assert.notEqual(box.fingerprint('123456789', 'ssn'), new SecretBox(randomBytes(32)).fingerprint('123456789', 'ssn'));
    assert.ok(!box.fingerprint('123456789', 'ssn').includes('123456789'));
  });

  it('parses keys as hex or base64 and nothing else', () => {
    const key = randomBytes(32);
    assert.deepEqual(parseEncryptionKey(key.toString('hex')), key);
    assert.deepEqual(parseEncryptionKey(`0x${key.toString('hex')}`), key);
    assert.deepEqual(parseEncryptionKey(key.toString('base64')), key);
    assert.deepEqual(parseEncryptionKey(key.toString('base64url')), key);
    assert.equal(parseEncryptionKey('short'), null);
    assert.equal(parseEncryptionKey(randomBytes(31).toString('hex')), null);
  });

  it('generates a sandbox key once (mode 0600) and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'key-'));
    try {
      const first = loadOrCreateSandboxKey(dir);
      assert.deepEqual(loadOrCreateSandboxKey(dir), first);
      assert.equal(statSync(join(dir, 'encryption.key')).mode & 0o777, 0o600);
      assert.equal(readFileSync(join(dir, 'encryption.key'), 'utf8').trim(), first.toString('hex'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
