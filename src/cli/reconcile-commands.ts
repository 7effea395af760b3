import { readFile } from 'node:fs/promises';
import type { System } from '../composition-root.js';
import { runBankReconciliation } from '../domain/reconciliation/bank-run.js';
import { chainReconciliationDeps, runChainReconciliation } from '../domain/reconciliation/chain-run.js';
import { runView, type RunView } from '../domain/reconciliation/run-view.js';

/** `reconcile chain` and `reconcile bank --file statement.xml`: the admin API's runs, from the operator's shell (docs/reconciliation.md). */
export async function reconcileCommand(system: System, command: 'chain' | 'bank', file: string | undefined): Promise<RunView> {
  const run =
    command === 'chain'
      ? await runChainReconciliation(chainReconciliationDeps(system), { trigger: 'cli' })
      : await runBankReconciliation({ database: system.database, now: system.clock, windowDays: system.config.reconcile.bankWindowDays }, await readFile(file!, 'utf8'), { trigger: 'cli' });
  return runView(system.database.db, run.id);
}
