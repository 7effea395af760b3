import type { Executor } from '../../db/database.js';
import { lockTransaction, type TransactionRow } from '../../db/repositories/transactions.js';
import { insertTransactionWrite } from '../../db/repositories/transaction-writes.js';
import { exactlyOne } from '../checked-writes.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError } from '../errors.js';
import { denialDetail, policyDeniedProblem, recordDenial } from '../policies/enforce.js';
import type { Denial } from '../policies/evaluate.js';
import { TransactionIdTaken } from './propose.js';
import { failCreated, type RefusedRequest } from './policy-failure.js';
import { recordTransactionChanges, type TransactionCause } from './record-change.js';

// A transaction a spending policy refused (docs/policies.md#enforcement): its record, failed as policy_denied, with
// the events of its creation and failure, and the address book entries of the destinations it used first.

/** A new transaction refused: recorded as it would have been, then failed (policy_denied): its events say both. */
export async function recordNewRefusal(ctx: MutationContext, tx: Executor, row: TransactionRow, cause: TransactionCause, denial: Denial, subject: { integratorId: string; accountId: string }): Promise<ApiError> {
  const failed = { ...row, status: 'failed' as const, failureReason: 'policy_denied' };
  await recordTransactionChanges(
    tx,
    [
      { row: { ...row, status: 'created' }, from: null, cause },
      { row: failed, from: 'created', cause: { ...cause, detail: denialDetail(denial) } },
    ],
    ctx.now,
    [exactlyOne(insertTransactionWrite(failed), () => new TransactionIdTaken())],
  );
  await recordDenial(tx, subject, denial, ctx.now);
  return policyDeniedProblem(denial, row.transactionId);
}

/** The refusal of the first judgement, before signing: recorded in a database transaction of its own, the problem returned. */
export async function recordRefusal(
  ctx: MutationContext,
  r: { prepared: TransactionRow | undefined; request: RefusedRequest; newRow: () => TransactionRow; cause: TransactionCause; denial: Denial; subject: { integratorId: string; accountId: string } },
): Promise<ApiError> {
  const problem = await runMutation(ctx, async (tx) => {
    if (r.prepared) {
      const locked = await lockTransaction(tx, r.prepared.id);
      if (locked?.status !== 'created' || !(await failCreated(tx, locked, { ...r.cause, detail: denialDetail(r.denial) }, ctx.now, r.request))) return undefined;
      await recordDenial(tx, r.subject, r.denial, ctx.now);
      return policyDeniedProblem(r.denial, r.prepared.transactionId);
    }
    return recordNewRefusal(ctx, tx, r.newRow(), r.cause, r.denial, r.subject);
  });
  return problem ?? new ApiError('invalid_transaction_state', 'The transaction is no longer waiting for its approval');
}
