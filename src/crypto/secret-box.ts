import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Secrets at rest: AES-256-GCM sealing and keyed fingerprints, both from one master key (ENCRYPTION_KEY) via
 * HKDF, so a fingerprint key can never decrypt and vice versa. `context` is bound as additional data: a
 * ciphertext copied to another row (another context) does not open.
 */
export class SecretBox {
  private readonly encryptionKey: Buffer;
  private readonly fingerprintKey: Buffer;

  constructor(masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('SecretBox needs a 32-byte key');
    this.encryptionKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'integrator-api/seal/v1', 32));
    this.fingerprintKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'integrator-api/fingerprint/v1', 32));
  }

  /** Binary form: version byte, IV, tag, ciphertext. For large values (documents). */
  sealBytes(plaintext: Buffer | string, context: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), ciphertext]);
  }

  openBytes(sealed: Buffer, context: string): Buffer {
    if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== VERSION) throw new Error('unrecognised sealed secret');
    const iv = sealed.subarray(1, 1 + IV_BYTES);
    const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, iv);
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
  }

  /** Text form (base64url of the binary form), for small secrets kept in text columns. */
  seal(plaintext: Buffer | string, context: string): string {
    return this.sealBytes(plaintext, context).toString('base64url');
  }

  open(sealed: string, context: string): Buffer {
    return this.openBytes(Buffer.from(sealed, 'base64url'), context);
  }

  /** Deterministic keyed hash (HMAC-SHA-256), to find equal secrets without decrypting them. */
  fingerprint(value: string, purpose: string): string {
    return createHmac('sha256', this.fingerprintKey).update(`${purpose}\0${value}`).digest('hex');
  }
}
