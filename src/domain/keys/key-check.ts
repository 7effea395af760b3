import type { Executor } from '../db/database.js';
import { settingOrInsert } from '../db/repositories/system-settings.js';
import type { SecretBox } from './secret-box.js';

const SETTING = 'encryption_key_fingerprint';

/** A process's ENCRYPTION_KEY is not the one the database's secrets were sealed with: it must not start. */
export class EncryptionKeyMismatchError extends Error {}

/**
 * Compares this process's key with the one the database was first opened with, by fingerprint (an HMAC under a
 * key derived from it: it tells keys apart and reveals nothing of them). The first process to open a database
 * records its fingerprint. A different key would otherwise start, and answer 500 on every read of a sealed
 * secret (bank account numbers, SSNs, custody keys, stored idempotent answers) and seal new ones that the right key
 * cannot open.
 */
export async function checkEncryptionKey(db: Executor, secrets: SecretBox, now: Date): Promise<void> {
  const mine = secrets.fingerprint('the key that seals this database', 'encryption-key-check').slice(0, 32);
  const recorded = await settingOrInsert(db, SETTING, mine, now);
  if (recorded !== mine) {
    throw new EncryptionKeyMismatchError(
      `ENCRYPTION_KEY is not the key this database's secrets were sealed with (the database's key has fingerprint ${recorded.slice(0, 12)}…, this one ${mine.slice(0, 12)}…). ` +
        'Start with the original key (docs/security.md#encryption-key)',
    );
  }
}
