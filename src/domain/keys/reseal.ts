import { setTimeout as pause } from 'node:timers/promises';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Db } from '../../db/database.js';
import { countAllSealedByKey, lockRowsNotSealedBy, SEALED_COLUMNS, writeSealedBatch, type SealedColumn } from '../../db/repositories/sealed-values.js';
import { readSetting, writeSetting } from '../../db/repositories/system-settings.js';
import { readKnownKeys } from './key-check.js';

/** Values re-sealed per transaction (documents: their column's own, smaller, batch). */
export const RESEAL_BATCH = 200;
/** The key the last complete pass re-sealed everything under: a start with the same newest key has nothing to do. */
const RESEALED_TO_SETTING = 'resealed_to';

export interface ResealProgress {
  /** `table.column` */
  column: string;
  resealed: number;
}

/**
 * One transaction: the next values of a column not sealed by the newest key, opened and sealed again under it. Rows a
 * request holds are skipped (the pass comes back for them); rows are locked until the batch commits, so a request
 * changing one meanwhile waits and then writes its own value, sealed under the newest key too.
 */
async function resealBatch(db: Db, secrets: SecretBox, c: SealedColumn, after: string[] | undefined, limit: number): Promise<{ resealed: number; last: string[] | undefined }> {
  return db.transaction(async (tx) => {
    const rows = await lockRowsNotSealedBy(tx, c, secrets.sealingKeyId, after, limit);
    const resealed = rows.map((row) => {
      const context = c.context(row.contextRow);
      const plain = typeof row.sealed === 'string' ? secrets.open(row.sealed, context) : secrets.openBytes(row.sealed, context);
      try {
        return { ctid: row.ctid, sealed: typeof row.sealed === 'string' ? secrets.seal(plain, context) : secrets.sealBytes(plain, context) };
      } finally {
        plain.fill(0);
      }
    });
    await writeSealedBatch(tx, c, resealed);
    return { resealed: rows.length, last: rows.at(-1)?.keyValues ?? after };
  });
}

/**
 * Re-seals every sealed value (SEALED_COLUMNS) under the newest key of the ring, in bounded batches, while the
 * service runs. Resumable by construction: a value already under the newest key is not read again, so a pass cut
 * short by a kill loses at most one batch's work. Repeats until nothing is left under an older key.
 */
export async function resealAll(db: Db, secrets: SecretBox, options: { batch?: number; now: () => Date; onProgress?: (p: ResealProgress) => void; signal?: AbortSignal }): Promise<{ resealed: number; complete: boolean }> {
  let resealed = 0;
  for (let attempt = 0; ; attempt++) {
    let thisPass = 0;
    for (const c of SEALED_COLUMNS) {
      const limit = Math.min(options.batch ?? RESEAL_BATCH, c.batch ?? RESEAL_BATCH);
      let done = 0;
      for (let after: string[] | undefined; ; ) {
        if (options.signal?.aborted) return { resealed: resealed + thisPass + done, complete: false };
        const batch = await resealBatch(db, secrets, c, after, limit);
        done += batch.resealed;
        after = batch.last;
        if (batch.resealed < limit) break;
        options.onProgress?.({ column: `${c.table}.${c.column}`, resealed: done });
      }
      if (done > 0) options.onProgress?.({ column: `${c.table}.${c.column}`, resealed: done });
      thisPass += done;
    }
    resealed += thisPass;
    const left = await valuesUnderOlderKeys(db, secrets);
    if (left === 0) break;
    // Only rows other transactions held were left: they commit within a request's time.
    if (thisPass === 0 && attempt > 50) throw new Error(`${left} sealed value(s) stayed locked under an older key; run keys reseal again`);
    if (thisPass === 0) await pause(100, undefined, options.signal ? { signal: options.signal } : {}).catch(() => {});
  }
  await writeSetting(db, RESEALED_TO_SETTING, secrets.sealingKeyId, options.now());
  return { resealed, complete: true };
}

async function valuesUnderOlderKeys(db: Db, secrets: SecretBox): Promise<number> {
  const { firstId } = await readKnownKeys(db);
  let left = 0;
  for (const [keyId, n] of await countAllSealedByKey(db, firstId)) if (keyId !== secrets.sealingKeyId) left += n;
  return left;
}

/** Whether the last complete pass already re-sealed everything under this ring's newest key. */
export async function resealedToNewest(db: Db, secrets: SecretBox): Promise<boolean> {
  return (await readSetting(db, RESEALED_TO_SETTING)) === secrets.sealingKeyId;
}
