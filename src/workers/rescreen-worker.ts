import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { rescreenBatch, type BatchOutcome } from '../domain/cases/rescreen.js';
import type { ScreeningLists } from '../domain/screening/lists.js';
import type { Log } from '../log.js';
import { Rounds } from './rounds.js';

/** Customers screened per transaction: a batch holds its locks for a few tens of milliseconds. */
export const RESCREEN_BATCH = 200;

export interface RescreenWorker {
  /** Runs batches until every customer is screened against the lists in force; the totals (tests, the CLI). */
  runOnce(): Promise<Omit<BatchOutcome, 'done'>>;
  stop(): Promise<void>;
}

/**
 * Screens every customer again when a list changes (docs/screening.md#re-screening): at start (the lists may
 * have changed while it was down, or a run was cut short) and on every reload, in the background, batch after batch.
 */
export function startRescreenWorker(deps: { database: Database; lists: ScreeningLists; clock: Clock; log: Log; batch?: number }): RescreenWorker {
  const size = deps.batch ?? RESCREEN_BATCH;
  async function runAll(): Promise<Omit<BatchOutcome, 'done'>> {
    const total = { screened: 0, raised: 0, opened: 0 };
    for (;;) {
      const outcome = await rescreenBatch(deps.database, deps.lists, size, deps.clock());
      total.screened += outcome.screened;
      total.raised += outcome.raised;
      total.opened += outcome.opened;
      if (outcome.done) break;
    }
    if (total.screened > 0) deps.log.info?.(total, 'customers screened again against the lists in force');
    return total;
  }
  const rounds = new Rounds(
    async () => {
      await runAll();
    },
    (err) => deps.log.error({ err }, 're-screening failed; it resumes at the next reload or start'),
    24 * 3600_000,
  );
  const unlisten = deps.lists.onChange(() => rounds.kick());
  rounds.kick();
  return {
    runOnce: runAll,
    async stop() {
      unlisten();
      await rounds.stop();
    },
  };
}
