import { latestRun } from '../db/repositories/reconciliation.js';
import { runChainReconciliation, type ChainReconciliationDeps } from '../domain/reconciliation/chain-run.js';
import type { Log } from '../log.js';

export interface ReconcileScheduler {
  stop(): void;
}

/**
 * The chain reconciliation on a schedule (RECONCILE_CHAIN_HOURS, daily by default; docs/reconciliation.md#settings):
 * once a period after the process starts, unless a run (any process's, or an operator's) completed within the last
 * half period. Timed by the machine's clock, not the service's (a test moving its clock by days runs nothing).
 */
export function startReconcileScheduler(deps: ChainReconciliationDeps & { everyMs: number; log: Pick<Log, 'info' | 'warn'> }): ReconcileScheduler {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  async function tick(): Promise<void> {
    try {
      const last = await latestRun(deps.database.db, 'chain');
      if (last && deps.now().getTime() - last.completedAt.getTime() < deps.everyMs / 2) return;
      const run = await runChainReconciliation(deps, { trigger: 'schedule' });
      deps.log.info?.({ runId: run.id, summary: run.summary }, 'reconciliation against the chain completed');
    } catch (err) {
      deps.log.warn({ err }, 'the scheduled reconciliation against the chain failed; it runs again next period');
    } finally {
      if (!stopped) timer = setTimeout(() => void tick(), deps.everyMs).unref();
    }
  }
  timer = setTimeout(() => void tick(), deps.everyMs).unref();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
