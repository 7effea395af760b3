import type { ReceiptView } from '../chain/receipts.js';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { type TransactionRow } from '../db/repositories/transactions.js';
import { settleProcessing } from '../db/repositories/transaction-writes.js';
import { recordTransactionChanges, WATCHER, type TransactionChange } from '../domain/transactions/record-change.js';
import type { FailureReason, StoredVaultCall } from '../domain/transactions/transaction-view.js';
import { initiatePayout } from '../domain/withdrawals/withdrawal-payouts.js';
import type { Log } from '../log.js';

/** How a processing transaction ends, as its receipt (or its absence) says. */
export interface Settlement {
  row: TransactionRow;
  status: 'completed' | 'failed';
  receipt?: ReceiptView;
  failureReason?: FailureReason;
  vault?: StoredVaultCall;
}

export interface SettlementDeps {
  database: Database;
  clock: Clock;
  log: Pick<Log, 'warn'>;
}

/**
 * A round's settlements in one database transaction of four statements however many there are: one update, their
 * audit rows and events in one statement (recordTransactionChanges), begin and commit. One at a time, six
 * statements each kept the watcher behind the submissions under load (docs/benchmarks.md#transactions). If the
 * batch fails, each is tried on its own, so one bad row holds up no other.
 */
export async function settleAll(deps: SettlementDeps, settlements: Settlement[]): Promise<void> {
  if (settlements.length === 0) return;
  try {
    await settle(deps, settlements);
  } catch (err) {
    if (settlements.length === 1) return logSettleFailure(deps, err, settlements[0]!.row);
    for (const one of settlements) await settle(deps, [one]).catch((e: unknown) => logSettleFailure(deps, e, one.row));
  }
}

function logSettleFailure({ log }: SettlementDeps, err: unknown, row: TransactionRow): void {
  log.warn({ err, chainId: row.chainId, transactionHash: row.transactionHash }, 'transaction watcher: settling failed; retrying next round');
}

async function settle({ database, clock }: SettlementDeps, settlements: Settlement[]): Promise<void> {
  const now = clock();
  // A withdrawal's crypto in the treasury is half of it: the fiat payout to the bank account starts now.
  const payingOut = (s: Settlement) => s.row.kind === 'withdrawal' && s.status === 'completed';
  await database.db.transaction(async (tx) => {
    const moved = await settleProcessing(
      tx,
      settlements.map((s) => ({ id: s.row.id, status: payingOut(s) ? 'funds_in_transfer' : s.status, receipt: s.receipt, failureReason: s.failureReason, vault: s.vault })),
      now,
    );
    const byId = new Map(moved.map((row) => [row.id, row]));
    const changes: TransactionChange[] = [];
    for (const s of settlements) {
      const updated = byId.get(s.row.id);
      // Moved meanwhile by another watcher (another server process): recorded there.
      if (!updated) continue;
      if (payingOut(s)) await initiatePayout(tx, updated, now);
      changes.push({ row: updated, from: 'processing', cause: { ...WATCHER, detail: s.failureReason ?? `mined in block ${s.receipt?.blockNumber}` } });
    }
    await recordTransactionChanges(tx, changes, now);
  });
}
