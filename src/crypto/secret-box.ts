import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const LEGACY_VERSION = 1;
const VERSION = 2;
const KEY_ID_BYTES = 8;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Text form of a sealed value: `s2.<key id>.<base64url of IV, tag, ciphertext>`; the prefix is readable by SQL. */
const TEXT_PREFIX = 's2.';

/** A sealed value names a key that is not in this process's ring. */
export class SealingKeyMissingError extends Error {
  override readonly name = 'SealingKeyMissingError';
}

interface RingKey {
  /** Hex of the key's fingerprint, first 8 bytes: what sealed values, the start-up check and `keys status` name it by. */
  id: string;
  encryptionKey: Buffer;
}

function derive(masterKey: Buffer, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), info, 32));
}

/** The subkey keyed hashes are made with, as derived from one master key (the first key a database was opened with). */
export function fingerprintKeyOf(masterKey: Buffer): Buffer {
  return derive(masterKey, 'integrator-api/fingerprint/v1');
}

/**
 * A master key's fingerprint (32 hex digits): an HMAC under its own fingerprint subkey. It tells keys apart and
 * reveals nothing of them; its first 16 digits are the key's id.
 */
export function keyFingerprint(masterKey: Buffer): string {
  return createHmac('sha256', fingerprintKeyOf(masterKey)).update('encryption-key-check\0the key that seals this database').digest('hex').slice(0, 32);
}

export const keyIdOf = (fingerprint: string): string => fingerprint.slice(0, KEY_ID_BYTES * 2);

/**
 * Secrets at rest: AES-256-GCM sealing and keyed fingerprints, from a ring of master keys (ENCRYPTION_KEYS, newest
 * first) via HKDF, so a fingerprint key can never decrypt and vice versa. Every sealed value names the key that
 * sealed it; any key of the ring opens, new seals use the newest (docs/key-management.md#rotating-the-sealing-key).
 * Keyed hashes (duplicate SSNs, invitation tokens, the sandbox treasury) use one fingerprint subkey that outlives
 * rotations: derived from the first key a database was opened with and kept sealed in it (key-check.ts).
 * `context` is bound as additional data: a ciphertext copied to another row (another context) does not open.
 */
export class SecretBox {
  private readonly masterKeys: Buffer[];
  private readonly ring: RingKey[];
  private readonly fingerprintKey: Buffer;

  constructor(masterKeys: Buffer | readonly Buffer[], options: { fingerprintKey?: Buffer } = {}) {
    const keys = Buffer.isBuffer(masterKeys) ? [masterKeys] : [...masterKeys];
    if (keys.length === 0 || keys.some((k) => k.length !== 32)) throw new Error('SecretBox needs one or more 32-byte keys');
    this.masterKeys = keys;
    this.ring = keys.map((k) => ({ id: keyIdOf(keyFingerprint(k)), encryptionKey: derive(k, 'integrator-api/seal/v1') }));
    this.fingerprintKey = options.fingerprintKey ?? fingerprintKeyOf(keys[0]!);
  }

  /** The same ring with the database's lasting fingerprint subkey. */
  withFingerprintKey(fingerprintKey: Buffer): SecretBox {
    return new SecretBox(this.masterKeys, { fingerprintKey });
  }

  /** The ring's keys' fingerprints (32 hex digits), newest first. */
  get keyFingerprints(): string[] {
    return this.masterKeys.map(keyFingerprint);
  }

  /** The id of the key new seals use. */
  get sealingKeyId(): string {
    return this.ring[0]!.id;
  }

  /** The fingerprint subkey a key of this ring would give (the key named by `keyId`), if the ring holds it. */
  fingerprintKeyFrom(keyId: string): Buffer | undefined {
    const index = this.ring.findIndex((k) => k.id === keyId);
    return index < 0 ? undefined : fingerprintKeyOf(this.masterKeys[index]!);
  }

  /** Binary form: version byte, key id, IV, tag, ciphertext. For large values (documents). */
  sealBytes(plaintext: Buffer | string, context: string): Buffer {
    const key = this.ring[0]!;
    const head = Buffer.allocUnsafe(1 + KEY_ID_BYTES);
    head[0] = VERSION;
    head.write(key.id, 1, 'hex');
    return encrypt(key.encryptionKey, plaintext, context, head);
  }

  openBytes(sealed: Buffer, context: string): Buffer {
    if (sealed[0] === VERSION && sealed.length >= 1 + KEY_ID_BYTES + IV_BYTES + TAG_BYTES) {
      return decrypt(this.keyNamed(sealed.subarray(1, 1 + KEY_ID_BYTES).toString('hex')), sealed.subarray(1 + KEY_ID_BYTES), context);
    }
    if (sealed[0] === LEGACY_VERSION && sealed.length >= 1 + IV_BYTES + TAG_BYTES) return this.openLegacy(sealed.subarray(1), context);
    throw new Error('unrecognised sealed secret');
  }

  /** Text form, for small secrets kept in text columns. */
  seal(plaintext: Buffer | string, context: string): string {
    const key = this.ring[0]!;
    return `${TEXT_PREFIX}${key.id}.${encrypt(key.encryptionKey, plaintext, context).toString('base64url')}`;
  }

  open(sealed: string, context: string): Buffer {
    if (sealed.startsWith(TEXT_PREFIX)) {
      const dot = sealed.indexOf('.', TEXT_PREFIX.length);
      if (dot !== TEXT_PREFIX.length + KEY_ID_BYTES * 2) throw new Error('unrecognised sealed secret');
      return decrypt(this.keyNamed(sealed.slice(TEXT_PREFIX.length, dot)), Buffer.from(sealed.slice(dot + 1), 'base64url'), context);
    }
    // Before key ids: the binary form in base64url (its alphabet has no '.').
    return this.openBytes(Buffer.from(sealed, 'base64url'), context);
  }

  /** Which key sealed a value: its id, or `legacy` for values sealed before key ids (by the database's first key). */
  static sealedBy(sealed: string | Buffer): string {
    if (typeof sealed === 'string') return sealed.startsWith(TEXT_PREFIX) ? sealed.slice(TEXT_PREFIX.length, TEXT_PREFIX.length + KEY_ID_BYTES * 2) : 'legacy';
    return sealed[0] === VERSION ? sealed.subarray(1, 1 + KEY_ID_BYTES).toString('hex') : 'legacy';
  }

  /** Deterministic keyed hash (HMAC-SHA-256), to find equal secrets without decrypting them. */
  fingerprint(value: string, purpose: string): string {
    return createHmac('sha256', this.fingerprintKey).update(`${purpose}\0${value}`).digest('hex');
  }

  private keyNamed(id: string): Buffer {
    const key = this.ring.find((k) => k.id === id);
    if (!key) throw new SealingKeyMissingError(`the value was sealed by the key with fingerprint ${id}, which ENCRYPTION_KEYS does not hold`);
    return key.encryptionKey;
  }

  /** Version 1 does not name its key (it was the database's only key then): each key of the ring is tried. */
  private openLegacy(body: Buffer, context: string): Buffer {
    let failure: unknown;
    for (const key of this.ring) {
      try {
        return decrypt(key.encryptionKey, body, context);
      } catch (err) {
        failure = err;
      }
    }
    throw failure;
  }
}

/**
 * `head`, then IV, tag, ciphertext, in one buffer written once: a document is megabytes, and each copy of it is
 * external memory whose churn sets off V8's full collections (docs/benchmarks.md, issue 55).
 */
function encrypt(key: Buffer, plaintext: Buffer | string, context: string, head?: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = cipher.update(plaintext);
  const rest = cipher.final(); // empty for GCM, which is a stream mode
  const start = (head?.length ?? 0) + IV_BYTES + TAG_BYTES;
  const out = Buffer.allocUnsafe(start + ciphertext.length + rest.length);
  head?.copy(out, 0);
  iv.copy(out, start - IV_BYTES - TAG_BYTES);
  cipher.getAuthTag().copy(out, start - TAG_BYTES);
  ciphertext.copy(out, start);
  rest.copy(out, start + ciphertext.length);
  return out;
}

/** `body` is IV, tag, ciphertext. */
function decrypt(key: Buffer, body: Buffer, context: string): Buffer {
  if (body.length < IV_BYTES + TAG_BYTES) throw new Error('unrecognised sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(body.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  const plaintext = decipher.update(body.subarray(IV_BYTES + TAG_BYTES));
  const rest = decipher.final(); // empty for GCM; it checks the tag
  return rest.length === 0 ? plaintext : Buffer.concat([plaintext, rest]);
}

export const SEALED_TEXT_PREFIX = TEXT_PREFIX;
export const SEALED_BYTES_VERSION = VERSION;
