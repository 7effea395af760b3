import type { Executor } from '../../db/database.js';
import { insertTransactionTransition, type TransactionRow } from '../../db/repositories/transactions.js';
import type { TransactionStatus } from '../../db/schema/index.js';
import { recordEvent } from '../events/record-event.js';
import { newId } from '../ids.js';
import { approvalsOf } from './approvals-view.js';
import { toTransactionView, type TransactionView } from './transaction-view.js';

/** Who or what moved a transaction, and a word on it (recorded in transaction_transitions). */
export interface TransactionCause {
  actorType: 'integrator' | 'operator' | 'system' | 'sandbox';
  /** The credential's public key, the operator's id, or the component. */
  actorId?: string;
  detail?: string;
}

/** The service's own moves (payouts, receipts). */
export const WATCHER: TransactionCause = { actorType: 'system', actorId: 'transaction-watcher' };

/**
 * Records a transaction's creation (`from` null) or status change in the caller's database transaction: the audit
 * row, then the events: `transaction.created`, or `transaction.status.changed` (with the old status) and, on
 * reaching an end, `transaction.completed` or `transaction.failed`. Returns the view the events carry.
 */
export async function recordTransactionChange(tx: Executor, row: TransactionRow, from: TransactionStatus | null, cause: TransactionCause, at: Date): Promise<TransactionView> {
  await insertTransactionTransition(tx, {
    id: newId(),
    integratorId: row.integratorId,
    transactionRowId: row.id,
    fromStatus: from,
    toStatus: row.status,
    actorType: cause.actorType,
    actorId: cause.actorId ?? null,
    detail: cause.detail ?? null,
    createdAt: at,
  });
  const view = toTransactionView(row, (await approvalsOf(tx, [row])).get(row.id));
  const base = { integratorId: row.integratorId, objectType: 'transaction', objectId: row.id, object: view, at };
  if (from === null) {
    await recordEvent(tx, { ...base, type: 'transaction.created' });
    return view;
  }
  await recordEvent(tx, { ...base, type: 'transaction.status.changed', previousAttributes: { status: from } });
  if (row.status === 'completed') await recordEvent(tx, { ...base, type: 'transaction.completed' });
  if (row.status === 'failed') await recordEvent(tx, { ...base, type: 'transaction.failed' });
  return view;
}

/** The integrator as its credential's public key, which transaction_transitions have always stored (credentialCause: the id). */
export function signingKeyCause(actor: { credentialId?: string; publicKey?: string }, detail?: string): TransactionCause {
  return { actorType: 'integrator', ...(actor.publicKey ? { actorId: actor.publicKey } : {}), ...(detail ? { detail } : {}) };
}
