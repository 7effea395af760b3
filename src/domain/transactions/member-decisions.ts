import type { Executor } from '../../db/database.js';
import { findAccount } from '../../db/repositories/accounts.js';
import { findMember, insertApproval } from '../../db/repositories/members.js';
import { parseUnsignedTransaction } from '../../chain/custody-signer.js';
import { findTransaction, lockTransaction, type TransactionRow } from '../../db/repositories/transactions.js';
import { moveTransaction } from '../../db/repositories/transaction-writes.js';
import { requireChain } from '../chains.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { checkMemberApproval, requireActingRole, type ActingMemberInput } from '../members/member-action.js';
import { requireVerifiedMember } from '../members/verified-member.js';
import { endedPreparationProblem, expirePreparation, isPrepared, preparationExpired, preparationExpiredProblem } from './prepared.js';
import { refuseUnpayable } from '../withdrawals/withdrawal-payee.js';
import { approvalsOf } from './approvals-view.js';
import { expireProposal, judgeStepUp, proposalExpired, quorumReached, recordApprovalAdded, sendAtQuorum, wouldReachQuorum } from './quorum.js';
import { recordTransactionChange, signingKeyCause, type TransactionCause } from './record-change.js';
import { preflight, sendAfterCommit, type Unsent } from './send-signed.js';
import { refuseListedRecipients } from '../screening/value-recipients.js';
import type { TransactionDeps } from './send-transaction.js';
import { toTransactionView, type TransactionView } from './transaction-view.js';

export interface MemberDecisionInput extends ActingMemberInput {
  transactionId: string;
}

const notWaiting = (row: TransactionRow) => new ApiError('invalid_transaction_state', `The transaction is not waiting for its members’ approvals (it is ${row.status})`);
/** An approval of a prepared transaction that failed before it (quote_expired, its bank account gone) is told why. */
const approvalRefused = async (db: Executor, row: TransactionRow) => (await endedPreparationProblem(db, row)) ?? notWaiting(row);

/** The proposal a decision names, with its account: 404 for none (or another integrator's), 409 when not waiting. */
async function proposalOf(ctx: MutationContext, transactionId: string, refused: (row: TransactionRow) => ApiError | Promise<ApiError> = notWaiting) {
  const row = await findTransaction(ctx.db.db, ctx.actor.integratorId, transactionId);
  if (!row) throw notFound('Transaction');
  const account = (await findAccount(ctx.db.db, ctx.actor.integratorId, row.accountId))!;
  if (row.status !== 'created' || !row.proposedByUserId) throw await refused(row);
  return { row, account };
}

/**
 * Ends a proposal past its time in the caller's transaction: a transfer after 24 hours (expired), a prepared
 * transaction (withdrawal, vault call) when its preparation ran out (quote_expired). True when it did.
 */
async function expireIfDue(ctx: MutationContext, tx: Parameters<typeof moveTransaction>[0], row: TransactionRow): Promise<boolean> {
  if (isPrepared(row)) return preparationExpired(row, ctx.now) && (await expirePreparation(tx, row, signingKeyCause(ctx.actor), ctx.now)) !== undefined;
  return proposalExpired(row, ctx.now) && (await expireProposal(tx, row, ctx.now)) !== undefined;
}

/**
 * approve-transaction (docs/members.md#quorum): an owner's or approver's approval of a waiting proposal. Approvals
 * of one transaction are taken one at a time under its row lock; the one that reaches the quorum signs it,
 * once, and sends it after its commit (docs/transactions.md#sending). The same member again is answered as it is, nothing written.
 */
export async function approveTransaction(ctx: MutationContext, deps: TransactionDeps, input: MemberDecisionInput): Promise<TransactionView> {
  const { row: found, account } = await proposalOf(ctx, input.transactionId, (row) => approvalRefused(ctx.db.db, row));
  const chain = requireChain(deps.chains, found.chainId, 'chain_id');
  const approval = await checkMemberApproval(ctx, account, 'approve-transaction', input);
  const unsigned = parseUnsignedTransaction((found.signedBody as { parameters: { unsignedTransaction: string } }).parameters.unsignedTransaction);
  // A list may have changed since the proposal: every approval of it is refused, not only the one that reaches the
  // quorum, which a concurrent approval can make any of them (docs/screening.md#wallet-addresses).
  const about = { integratorId: ctx.actor.integratorId, accountId: account.id, chainId: found.chainId, activity: 'transfer' as const, transactionRowId: found.id };
  await refuseListedRecipients(ctx.db.db, ctx.policy.addressScreen, about, unsigned, ctx.now);
  const acting = await findMember(ctx.db.db, ctx.actor.integratorId, account.id, input.actingUserId!);
  if (acting && found.fromAddress && (await wouldReachQuorum(ctx.db.db, found, account, acting))) {
    try {
      await preflight(chain, found.fromAddress, unsigned, deps.tokens);
    } catch (err) {
      // A concurrent approval may have reached the quorum and sent it first (its nonce is then spent): say that.
      const now = await findTransaction(ctx.db.db, ctx.actor.integratorId, input.transactionId);
      if (now && now.status !== 'created') throw await approvalRefused(ctx.db.db, now);
      throw err;
    }
  }
  let cause: TransactionCause = signingKeyCause(ctx.actor);
  let unsent: Unsent | undefined;
  let expired = false;
  let unpayable: ApiError | undefined;
  let policyDenied: ApiError | undefined;
  const view = await runMutation(ctx, async (tx) => {
    let row = (await lockTransaction(tx, found.id))!;
    if (row.status !== 'created') throw await approvalRefused(tx, row);
    if (await expireIfDue(ctx, tx, row)) {
      expired = true;
      return undefined;
    }
    const member = await requireActingRole(tx, account, input.actingUserId!, { kind: 'approve_transaction' });
    await requireVerifiedMember(tx, row.integratorId, member.userId);
    // A withdrawal whose bank account can no longer be paid fails here, committed, and is answered after.
    unpayable = await refuseUnpayable(tx, row, signingKeyCause(ctx.actor), ctx.now);
    if (unpayable) return undefined;
    // The step-up is judged against the policies in force now: one created since the proposal raises the quorum.
    row = await judgeStepUp(tx, row, deps.spending, ctx.now);
    const added = await insertApproval(tx, { integratorId: row.integratorId, transactionRowId: row.id, userId: member.userId, approval: approval.kind, authenticatorId: approval.authenticatorId, createdAt: ctx.now });
    let view: TransactionView;
    if (added) {
      await approval.use(tx, row.id);
      view = await recordApprovalAdded(tx, row, ctx.now);
    } else view = toTransactionView(row, (await approvalsOf(tx, [row])).get(row.id));
    // A member approving again changes nothing, unless the policy was lowered meanwhile: then it may be the quorum.
    if (!(await quorumReached(tx, row))) return view;
    cause = signingKeyCause(ctx.actor, `the quorum was reached with the approval of member ${member.userId} (${approval.kind})`);
    return (await sendAtQuorum(ctx, tx, row, cause, (signed) => (unsent = signed), { deps: deps.spending, onRefused: (problem) => (policyDenied = problem) }))!;
  });
  if (unpayable) throw unpayable;
  if (policyDenied) throw policyDenied;
  if (expired || !view) throw expiredProblem(found);
  if (unsent) {
    await sendAfterCommit({ database: ctx.db, now: () => ctx.now, log: deps.log }, chain, unsent, cause, found.transactionId);
    deps.onBroadcast?.();
  }
  return view;
}

const expiredProblem = (row: TransactionRow) =>
  isPrepared(row)
    ? preparationExpiredProblem(row)
    : new ApiError('invalid_transaction_state', 'The proposal expired (24 hours without its quorum); nothing was signed');

/** reject-transaction: any owner or approver ends a waiting proposal as failed (failureReason rejected). */
export async function rejectTransaction(ctx: MutationContext, input: MemberDecisionInput): Promise<TransactionView> {
  const { row: found, account } = await proposalOf(ctx, input.transactionId);
  const approval = await checkMemberApproval(ctx, account, 'reject-transaction', input);
  return runMutation(ctx, async (tx) => {
    const row = (await lockTransaction(tx, found.id))!;
    if (row.status !== 'created') throw notWaiting(row);
    const member = await requireActingRole(tx, account, input.actingUserId!, { kind: 'approve_transaction' });
    await requireVerifiedMember(tx, row.integratorId, member.userId);
    const moved = (await moveTransaction(tx, row.id, 'created', { status: 'failed', failureReason: 'rejected', updatedAt: ctx.now }))!;
    await approval.use(tx, row.id);
    return recordTransactionChange(tx, moved, 'created', signingKeyCause(ctx.actor, `rejected by member ${member.userId} (${approval.kind})`), ctx.now);
  });
}
