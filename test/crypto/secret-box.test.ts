import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { loadOrCreateSandboxKey, parseEncryptionKey } from '../../src/crypto/encryption-key.js';
import { createCipheriv, hkdfSync } from 'node:crypto';
import { fingerprintKeyOf, keyFingerprint, SealingKeyMissingError, SecretBox } from '../../src/crypto/secret-box.js';

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
    for (let at = 0; at < sealed.length; at += 7) {
      const flipped = sealed[at] === 'A' ? 'B' : 'A';
      assert.throws(() => box.open(`${sealed.slice(0, at)}${flipped}${sealed.slice(at + 1)}`, 'wallet:1'), `character ${at}`);
    }
    const bytes = box.sealBytes('document', 'doc:1');
    for (const at of [0, 5, 20, bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[at] = tampered[at]! ^ 1;
      assert.throws(() => box.openBytes(tampered, 'doc:1'), `byte ${at}`);
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

  it('the binary form is version 2, the key id, IV, tag and ciphertext, as stored rows hold it (written in one buffer since issue 55)', () => {
    const master = randomBytes(32);
    const ring = new SecretBox(master);
    const encryptionKey = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'integrator-api/seal/v1', 32));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), fc.string(), (plain, context) => {
        const sealed = ring.sealBytes(Buffer.from(plain), context);
        assert.equal(sealed.length, 1 + 8 + 12 + 16 + plain.length);
        assert.equal(sealed[0], 2);
        assert.equal(sealed.subarray(1, 9).toString('hex'), keyFingerprint(master).slice(0, 16));
        // What the rows of every earlier release were sealed as opens the same: the layout is the format.
        const iv = sealed.subarray(9, 21);
        const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
        cipher.setAAD(Buffer.from(context, 'utf8'));
        const ciphertext = Buffer.concat([cipher.update(Buffer.from(plain)), cipher.final()]);
        assert.deepEqual(sealed.subarray(21, 37), cipher.getAuthTag());
        assert.deepEqual(sealed.subarray(37), ciphertext);
        assert.deepEqual(ring.openBytes(sealed, context), Buffer.from(plain));
      }),
    );
  });

  it('a ring: the newest key seals and names itself, any key opens, a missing key is named by its fingerprint', () => {
    const [k0, k1, k2] = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const old = new SecretBox(k0);
    const ring = new SecretBox([k1, k0]);
    const sealedOld = old.seal('ssn 123', 'ssn:1');
    const docOld = old.sealBytes('pdf bytes', 'doc:1');
    assert.equal(ring.open(sealedOld, 'ssn:1').toString(), 'ssn 123');
    assert.equal(ring.openBytes(docOld, 'doc:1').toString(), 'pdf bytes');
    const sealedNew = ring.seal('ssn 123', 'ssn:1');
    assert.equal(SecretBox.sealedBy(sealedNew), keyFingerprint(k1).slice(0, 16));
    assert.equal(SecretBox.sealedBy(ring.sealBytes('x', 'c')), keyFingerprint(k1).slice(0, 16));
    assert.equal(SecretBox.sealedBy(sealedOld), keyFingerprint(k0).slice(0, 16));
    assert.match(sealedNew, /^s2\.[0-9a-f]{16}\.[A-Za-z0-9_-]+$/);
    assert.throws(() => new SecretBox([k1]).open(sealedOld, 'ssn:1'), (err: unknown) => err instanceof SealingKeyMissingError && err.message.includes(keyFingerprint(k0).slice(0, 16)));
    assert.throws(() => new SecretBox([k2, k1]).openBytes(docOld, 'doc:1'), SealingKeyMissingError);
    assert.deepEqual(ring.keyFingerprints, [keyFingerprint(k1), keyFingerprint(k0)]);
    // Keyed hashes outlive the rotation once the database's lasting subkey is given (key-check.ts keeps it).
    const lasting = new SecretBox([k2]).withFingerprintKey(fingerprintKeyOf(k0));
    assert.equal(lasting.fingerprint('123456789', 'ssn'), old.fingerprint('123456789', 'ssn'));
    assert.equal(ring.fingerprint('x', 'p'), new SecretBox(k1).fingerprint('x', 'p'), 'without it, the newest key derives it');
  });

  it('opens every value any key of a ring sealed, whatever the ring order', () => {
    const keys = [randomBytes(32), randomBytes(32), randomBytes(32)];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 }), fc.shuffledSubarray([0, 1, 2], { minLength: 3, maxLength: 3 }), fc.string(), (sealer, order, text) => {
        const sealed = new SecretBox([keys[sealer]!]).seal(text, 'ctx');
        assert.equal(new SecretBox(order.map((i) => keys[i]!)).open(sealed, 'ctx').toString('utf8'), Buffer.from(text).toString('utf8'));
      }),
      { numRuns: 50 },
    );
  });

  it('opens values sealed before key ids (version 1, which named no key) with whichever key of the ring sealed them', () => {
    const [k0, k1] = [randomBytes(32), randomBytes(32)];
    // Version 1 as it was written: version byte, IV, tag, ciphertext, under the HKDF sealing subkey.
    const sealV1 = (master: Buffer, plain: string, context: string) => {
      const key = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'integrator-api/seal/v1', 32));
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context));
      const ct = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([Buffer.from([1]), iv, cipher.getAuthTag(), ct]);
    };
    const legacy = sealV1(k0, 'bank 12345678', 'bank_account:1');
    assert.equal(new SecretBox([k1, k0]).open(legacy.toString('base64url'), 'bank_account:1').toString(), 'bank 12345678');
    assert.equal(new SecretBox([k1, k0]).openBytes(legacy, 'bank_account:1').toString(), 'bank 12345678');
    assert.equal(SecretBox.sealedBy(legacy.toString('base64url')), 'legacy');
    assert.throws(() => new SecretBox([k1]).open(legacy.toString('base64url'), 'bank_account:1'));
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
