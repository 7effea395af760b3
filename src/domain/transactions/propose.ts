import type { Tx } from '../../db/database.js';
import { insertApproval, type MemberRow } from '../../db/repositories/members.js';
import { type TransactionRow } from '../../db/repositories/transactions.js';
import { insertTransaction, moveTransaction } from '../../db/repositories/transaction-writes.js';
import type { transactions } from '../../db/schema/index.js';
import type { MutationContext } from '../context.js';
import { ApiError } from '../errors.js';
import { countsAsApprover } from '../members/roles.js';
import type { Approval } from './approval.js';
import { approvalsOf } from './approvals-view.js';
import { judgeStepUp, quorumReached, recordApprovalAdded, sendAtQuorum, type QuorumSpending } from './quorum.js';
import { recordTransactionChange, type TransactionCause } from './record-change.js';
import type { Unsent } from './send-signed.js';
import { toTransactionView, type TransactionView } from './transaction-view.js';

/** The transactionId was taken by a concurrent submission: the caller answers it as a replay. */
export class TransactionIdTaken extends Error {}

export interface Proposal {
  ctx: MutationContext;
  /** A prepared transaction (withdrawal, vault call) the member approves, instead of a new transfer. */
  prepared: TransactionRow | undefined;
  proposer: MemberRow;
  approval: Approval;
  cause: TransactionCause;
  /** The approval's columns (signedBody, request hash, how it was approved). */
  fields: Partial<typeof transactions.$inferInsert>;
  /** The columns of a new transfer's row. */
  newRow: Omit<typeof transactions.$inferInsert, 'status' | 'requestHash'>;
  /** Called when the quorum was one: it is signed, to be sent after the commit. */
  onSigned: (unsent: Unsent) => void;
  /** The spending policies judged where it is signed (at its quorum), and where a refusal's problem goes. */
  spending: QuorumSpending;
}

/**
 * A member's proposal of a transaction from an entity wallet, in the caller's database transaction
 * (docs/members.md#quorum): the transfer is recorded in created (a prepared transaction stays there), the proposer's approval
 * counts when their role approves, and a quorum of one signs it to be sent after the commit.
 */
export async function propose(tx: Tx, p: Proposal): Promise<TransactionView> {
  const { ctx } = p;
  let row: TransactionRow | undefined;
  if (p.prepared) {
    if (p.prepared.proposedByUserId) throw new ApiError('invalid_transaction_state', 'This transaction was proposed already: its approvers approve it with approve-transaction');
    // Guarded on created: a concurrent proposal or expiry finds it gone.
    row = await moveTransaction(tx, p.prepared.id, 'created', { ...p.fields, proposedByUserId: p.proposer.userId });
    if (!row) throw new ApiError('invalid_transaction_state', 'The transaction is no longer waiting for its approval');
  } else {
    row = await insertTransaction(tx, { ...p.newRow, requestHash: String(p.fields.requestHash), ...p.fields, status: 'created', proposedByUserId: p.proposer.userId, createdAt: ctx.now });
    if (!row) throw new TransactionIdTaken();
    await recordTransactionChange(tx, row, null, p.cause, ctx.now);
  }
  // A spending policy's step-up raises the quorum before the proposer's approval counts towards it.
  row = await judgeStepUp(tx, row, p.spending.deps, ctx.now);
  await p.approval.use(tx, { transactionRowId: row.id });
  if (countsAsApprover(p.proposer.role)) {
    await insertApproval(tx, { integratorId: row.integratorId, transactionRowId: row.id, userId: p.proposer.userId, approval: p.approval.kind, authenticatorId: p.approval.authenticatorId, createdAt: ctx.now });
    await recordApprovalAdded(tx, row, ctx.now);
  }
  if (await quorumReached(tx, row)) {
    const sent = await sendAtQuorum(ctx, tx, row, { ...p.cause, detail: 'the quorum was reached' }, p.onSigned, p.spending);
    if (sent) return sent;
  }
  return toTransactionView(row, (await approvalsOf(tx, [row])).get(row.id));
}
