import { keyIdOf, type SecretBox } from '../../crypto/secret-box.js';
import type { Executor } from '../../db/database.js';
import { countAllSealedByKey } from '../../db/repositories/sealed-values.js';
import { readKnownKeys } from './key-check.js';

export interface KeyStatus {
  /** The key id (the first 16 hex digits of its fingerprint), as the start-up check and sealed values name it. */
  fingerprint: string;
  inThisRing: boolean;
  newest: boolean;
  recordedAt: string | undefined;
  retiredAt: string | undefined;
  /** Sealed values in the database this key still seals. */
  sealedValues: number;
}

/** Every key the database knows or this process holds, with how many values each still seals (`keys status`). */
export async function keyStatus(db: Executor, secrets: SecretBox): Promise<{ keys: KeyStatus[]; sealedValues: number }> {
  const { firstId, keys: known } = await readKnownKeys(db);
  const counts = await countAllSealedByKey(db, firstId);
  const ring = secrets.keyFingerprints.map(keyIdOf);
  const ids = [...new Set([...ring, ...Object.keys(known), ...counts.keys()])];
  const keys = ids.map((id) => ({
    fingerprint: id,
    inThisRing: ring.includes(id),
    newest: id === ring[0],
    recordedAt: known[id]?.recordedAt,
    retiredAt: known[id]?.retiredAt,
    sealedValues: counts.get(id) ?? 0,
  }));
  return { keys, sealedValues: keys.reduce((sum, k) => sum + k.sealedValues, 0) };
}
