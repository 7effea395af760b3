import type { Executor } from '../../db/database.js';
import { type TransactionRow } from '../../db/repositories/transactions.js';
import { transactionTransitionsWrite } from '../../db/repositories/transaction-writes.js';
import type { TransactionStatus } from '../../db/schema/index.js';
import { recordEvents, type DomainEvent } from '../events/record-event.js';
import { unchecked, type CheckedWrite } from '../checked-writes.js';
import { newId } from '../ids.js';
import { releaseReservationsOf } from '../../db/repositories/policy-reservations.js';
import { postLedger, type PostOptions } from '../ledger/post.js';
import type { DesiredPosting } from '../ledger/posting.js';
import { transactionPostings } from '../ledger/transaction-postings.js';
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

/** One transaction's creation (`from` null) or status change, as recordTransactionChanges takes it. */
export interface TransactionChange {
  row: TransactionRow;
  from: TransactionStatus | null;
  cause: TransactionCause;
}

/**
 * Records a transaction's creation (`from` null) or status change in the caller's database transaction: the audit
 * row, then the events: `transaction.created`, or `transaction.status.changed` (with the old status) and, on
 * reaching an end, `transaction.completed` or `transaction.failed`. Returns the view the events carry.
 */
export async function recordTransactionChange(tx: Executor, row: TransactionRow, from: TransactionStatus | null, cause: TransactionCause, at: Date, also: CheckedWrite[] = [], ledger: LedgerAlso = {}): Promise<TransactionView> {
  const [view] = await recordTransactionChanges(tx, [{ row, from, cause }], at, also, ledger);
  return view!;
}

/**
 * recordTransactionChange for several transactions (the watcher's round): their audit rows and all their events in
 * one statement, with `also`, further writes of the same change (the approval it used up), checked after it; then
 * their ledger postings. Call it inside a database transaction. Views in the order of `changes`.
 */
export async function recordTransactionChanges(tx: Executor, changes: TransactionChange[], at: Date, also: CheckedWrite[] = [], ledger: LedgerAlso = {}): Promise<TransactionView[]> {
  const approvals = await approvalsOf(tx, changes.map((c) => c.row));
  const views: TransactionView[] = [];
  const events: DomainEvent[] = [];
  for (const { row, from } of changes) {
    const view = toTransactionView(row, approvals.get(row.id));
    views.push(view);
    const base = { integratorId: row.integratorId, objectType: 'transaction', objectId: row.id, object: view, at };
    if (from === null) {
      events.push({ ...base, type: 'transaction.created' });
      continue;
    }
    events.push({ ...base, type: 'transaction.status.changed', previousAttributes: { status: from } });
    if (row.status === 'completed') events.push({ ...base, type: 'transaction.completed' });
    if (row.status === 'failed') events.push({ ...base, type: 'transaction.failed' });
  }
  const transitions = changes.map(({ row, from, cause }) => ({
    id: newId(),
    integratorId: row.integratorId,
    transactionRowId: row.id,
    fromStatus: from,
    toStatus: row.status,
    actorType: cause.actorType,
    actorId: cause.actorId ?? null,
    detail: cause.detail ?? null,
    createdAt: at,
  }));
  await recordEvents(tx, events, [...(transitions.length > 0 ? [unchecked(transactionTransitionsWrite(transitions))] : []), ...also]);
  // A transaction that failed gives back what it reserved of its spending policies' windows (docs/policies.md#windows).
  await releaseReservationsOf(tx, changes.filter((c) => c.from !== null && c.row.status === 'failed').map((c) => c.row.id), at);
  // What the change means in the books, in the same database transaction and its one posting (docs/ledger.md#locking).
  await postLedger(tx, [...(ledger.postings ?? []), ...changes.flatMap((c) => transactionPostings(c.row))], at, ledger.final ? { final: ledger.final } : {});
  return views;
}

/** What else the database transaction posts with the change (it posts once): other causes' postings, the final movements. */
export interface LedgerAlso extends PostOptions {
  postings?: DesiredPosting[];
}

/** The integrator as its credential's public key, which transaction_transitions have always stored (credentialCause: the id). */
export function signingKeyCause(actor: { credentialId?: string; publicKey?: string }, detail?: string): TransactionCause {
  return { actorType: 'integrator', ...(actor.publicKey ? { actorId: actor.publicKey } : {}), ...(detail ? { detail } : {}) };
}
