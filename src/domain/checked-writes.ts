import type { Executor } from '../db/database.js';
import { requiredCountsFailure, runWrites, type PendingWrite } from '../db/pending-writes.js';

/**
 * A write of a change sent together with the change's other writes in one statement (db/pending-writes.ts), and
 * the row count it must have: when it differs (a single-use approval used meanwhile, a compare-and-set that lost),
 * the statement fails inside PostgreSQL (require_counts) and nothing of it stays, and the change's `problem` is
 * thrown. So the writes hold together whether or not the statement runs inside an explicit transaction.
 */
export interface CheckedWrite {
  write: PendingWrite;
  /** The row count the write must have; null: any (an audit row). */
  expect: number | null;
  /** What a count other than `expect` means, as the API answers it. */
  problem?: () => Error;
}

/** A write that always takes effect (an audit row). */
export const unchecked = (write: PendingWrite): CheckedWrite => ({ write, expect: null });

/** A write that must affect exactly one row; `problem` when it did not. */
export const exactlyOne = (write: PendingWrite, problem: () => Error): CheckedWrite => ({ write, expect: 1, problem });

/** What the statement must require of each write's count, in order (require_counts' `expected`). */
export const requiredCounts = (writes: CheckedWrite[]): (number | null)[] => writes.map((w) => w.expect);

/** Throws the problem of the first write whose count is not the one it must have. */
export function checkWrites(writes: CheckedWrite[], counts: number[]): void {
  for (const [i, w] of writes.entries()) {
    if (w.expect !== null && counts[i] !== w.expect) throw w.problem?.() ?? new Error(`write ${i} affected ${counts[i]} rows, not ${w.expect}`);
  }
}

/**
 * Runs `statement` (which sends `writes` with requiredCounts) and answers its result; when PostgreSQL refused the
 * statement because a count was wrong, throws that write's problem instead.
 */
export async function requiringCounts<T>(writes: CheckedWrite[], statement: () => Promise<T>): Promise<T> {
  try {
    return await statement();
  } catch (err) {
    const counts = requiredCountsFailure(err);
    if (counts) checkWrites(writes, counts);
    throw err;
  }
}

/** Runs the writes in one statement, requiring their counts. */
export async function runCheckedWrites(db: Executor, writes: CheckedWrite[]): Promise<void> {
  await requiringCounts(writes, () =>
    runWrites(
      db,
      writes.map((w) => w.write),
      requiredCounts(writes),
    ),
  );
}
