import { eq } from 'drizzle-orm';
import { keyIdOf, type SecretBox } from '../../crypto/secret-box.js';
import type { Db, Executor } from '../../db/database.js';
import { countAllSealedByKey, FINGERPRINT_KEY_SETTING, fingerprintKeyContext } from '../../db/repositories/sealed-values.js';
import { readSetting, writeSetting } from '../../db/repositories/system-settings.js';
import { systemSettings } from '../../db/schema/index.js';

/** The first key's fingerprint, written by the first process to open the database (kept from before key rings). */
const FIRST_KEY_SETTING = 'encryption_key_fingerprint';
/** Every key the database has seen, by id, and when each was found to seal nothing any more. */
const KEYS_SETTING = 'encryption_keys';

type KnownKeys = Record<string, { recordedAt: string; retiredAt?: string; order?: number }>;

/** A process's ENCRYPTION_KEYS lacks a key that still seals data, or leads with a retired one: it must not start. */
export class EncryptionKeyMismatchError extends Error {}

/**
 * Compares this process's key ring with the keys the database's secrets are sealed with, by fingerprint (an HMAC
 * under a key derived from each: it tells keys apart and reveals nothing of them). A process missing a key that still
 * seals a value would answer 500 on every read of it; one whose newest key is unknown records it. A key missing from
 * the ring that seals nothing any more (after `keys reseal`) is marked retired, found by counting, not assumed.
 * Returns the ring with the database's lasting fingerprint subkey, so keyed hashes survive rotations.
 */
export async function checkEncryptionKeys(db: Db, secrets: SecretBox, now: Date): Promise<SecretBox> {
  return db.transaction(async (tx) => {
    const ringIds = secrets.keyFingerprints.map(keyIdOf);
    // A new database's first key is its ring's oldest (the one a ring lists last).
    await tx.insert(systemSettings).values({ name: FIRST_KEY_SETTING, value: secrets.keyFingerprints.at(-1)!, createdAt: now }).onConflictDoNothing();
    // Locked: processes starting at once take turns, so each sees the keys the one before recorded.
    const [first] = await tx.select().from(systemSettings).where(eq(systemSettings.name, FIRST_KEY_SETTING)).for('update');
    const firstId = keyIdOf(first!.value);
    const known = await knownKeys(tx, firstId, first!.createdAt);

    // Recorded in ring order, oldest first, after every key known: `order` says which of two keys came later.
    let order = Math.max(-1, ...Object.values(known).map((k) => k.order ?? 0));
    for (const keyId of [...ringIds].reverse()) known[keyId] ??= { recordedAt: now.toISOString(), order: ++order };
    const newest = known[ringIds[0]!]!;
    if (newest.retiredAt) {
      throw new EncryptionKeyMismatchError(
        `the newest key of ENCRYPTION_KEYS (fingerprint ${ringIds[0]}) was retired from this database after its values were re-sealed under a newer key; ` +
          'put the current key first (docs/key-management.md#rotating-the-sealing-key)',
      );
    }
    let counts: Map<string, number> | undefined;
    for (const [keyId, state] of Object.entries(known)) {
      if (state.retiredAt || ringIds.includes(keyId)) continue;
      counts ??= await countAllSealedByKey(tx, firstId);
      const sealing = counts.get(keyId) ?? 0;
      if (sealing > 0) throw new EncryptionKeyMismatchError(missingKeyMessage(keyId, sealing, ringIds));
      // Only a key older than this ring's newest retires: a newer one missing here is a rolling restart's first step
      // (docs/key-management.md#runbook-rotating-the-sealing-key), not a key dropped for good.
      if ((state.order ?? 0) < (newest.order ?? 0)) state.retiredAt = now.toISOString();
    }
    await writeSetting(tx, KEYS_SETTING, JSON.stringify(known), now);

    const stored = await readSetting(tx, FINGERPRINT_KEY_SETTING);
    if (stored) return secrets.withFingerprintKey(secrets.open(stored, fingerprintKeyContext));
    // Before key rings the subkey was derived from the only key: the first one. Kept from now on, sealed.
    const fingerprintKey = secrets.fingerprintKeyFrom(firstId);
    if (!fingerprintKey) throw new EncryptionKeyMismatchError(missingKeyMessage(firstId, 1, ringIds));
    await writeSetting(tx, FINGERPRINT_KEY_SETTING, secrets.seal(fingerprintKey, fingerprintKeyContext), now);
    return secrets.withFingerprintKey(fingerprintKey);
  });
}

async function knownKeys(tx: Executor, firstId: string, firstRecordedAt: Date): Promise<KnownKeys> {
  const stored = await readSetting(tx, KEYS_SETTING);
  return stored ? (JSON.parse(stored) as KnownKeys) : { [firstId]: { recordedAt: firstRecordedAt.toISOString(), order: 0 } };
}

/** The keys the database knows, for `keys status`. */
export async function readKnownKeys(db: Executor): Promise<{ firstId: string | undefined; keys: KnownKeys }> {
  const [first] = await db.select().from(systemSettings).where(eq(systemSettings.name, FIRST_KEY_SETTING));
  if (!first) return { firstId: undefined, keys: {} };
  const firstId = keyIdOf(first.value);
  return { firstId, keys: await knownKeys(db, firstId, first.createdAt) };
}

function missingKeyMessage(keyId: string, sealing: number, ringIds: string[]): string {
  return ringIds.length === 1
    ? `ENCRYPTION_KEY is not the key this database's secrets were sealed with (the database's key has fingerprint ${keyId}, sealing ${sealing} value(s); this one ${ringIds[0]}). ` +
        'Start with the original key, or list both in ENCRYPTION_KEYS, newest first (docs/key-management.md#rotating-the-sealing-key)'
    : `ENCRYPTION_KEYS lacks the key with fingerprint ${keyId}, which still seals ${sealing} value(s) in this database (this process's keys: ${ringIds.join(', ')}). ` +
        'Add it back, run `keys reseal`, and drop it once `keys status` counts nothing for it (docs/key-management.md#rotating-the-sealing-key)';
}
