import type { Executor } from '../db/database.js';
import { runWrites, type PendingWrite } from '../db/pending-writes.js';

/**
 * A write of a change sent together with the change's other writes in one statement (db/pending-writes.ts), and
 * what its row count must be: `check` throws the change's problem when the write did not take effect (a
 * single-use approval used meanwhile), and the caller's transaction rolls the whole change back.
 */
export interface CheckedWrite {
  write: PendingWrite;
  check(count: number): void;
}

/** A write that always takes effect (an audit row). */
export const unchecked = (write: PendingWrite): CheckedWrite => ({ write, check: () => {} });

/** Checks each write's count, in order: the first that failed throws. */
export function checkWrites(writes: CheckedWrite[], counts: number[]): void {
  writes.forEach((w, i) => w.check(counts[i] ?? 0));
}

/** Runs the writes in one statement and checks them. */
export async function runCheckedWrites(tx: Executor, writes: CheckedWrite[]): Promise<void> {
  checkWrites(
    writes,
    await runWrites(
      tx,
      writes.map((w) => w.write),
    ),
  );
}
