import { keccak256, type Hash, type Hex } from 'viem';
import { parseUnsignedTransaction } from '../../chain/custody-signer.js';
import { signForWallet } from '../custody.js';
import type { Executor, Tx } from '../../db/database.js';
import { findAccountById } from '../../db/repositories/accounts.js';
import { countingApprovals, type MemberRow } from '../../db/repositories/members.js';
import { countsAsApprover } from '../members/roles.js';
import { findWalletOfAccount, type TransactionRow } from '../../db/repositories/transactions.js';
import { moveTransaction } from '../../db/repositories/transaction-writes.js';
import type { MutationContext } from '../context.js';
import { notFound, type ApiError } from '../errors.js';
import { refuseBySpendingPolicy, type SpendingDeps, type SpendSubject } from '../policies/enforce.js';
import { stepUpFor } from '../policies/step-up.js';
import { recordEvent } from '../events/record-event.js';
import { approvalsOf, quorumOf } from './approvals-view.js';
import { failCreated } from './policy-failure.js';
import { recordTransactionChange, type TransactionCause } from './record-change.js';
import type { Unsent } from './send-signed.js';
import { toTransactionView, type TransactionView } from './transaction-view.js';

/** Proposals of an entity's members wait this long for their quorum, then fail as expired (docs/members.md#quorum). */
export const PROPOSAL_LIFETIME_MS = 24 * 60 * 60 * 1000;

export const proposalExpired = (row: TransactionRow, now: Date): boolean => row.kind === 'transfer' && now.getTime() - row.createdAt.getTime() >= PROPOSAL_LIFETIME_MS;

/** A transfer proposal past its 24 hours fails as expired, with its events; undefined when it moved meanwhile. */
export async function expireProposal(tx: Executor, row: TransactionRow, at: Date): Promise<TransactionView | undefined> {
  const moved = await moveTransaction(tx, row.id, 'created', { status: 'failed', failureReason: 'expired', updatedAt: at });
  return moved ? recordTransactionChange(tx, moved, 'created', { actorType: 'system', actorId: 'quorum', detail: 'no quorum within 24 hours' }, at) : undefined;
}

/** The spending policies at a quorum: what they judge by, and where a refusal's problem goes (thrown after the commit). */
export interface QuorumSpending {
  deps: SpendingDeps;
  onRefused: (problem: ApiError) => void;
}

/** A signed transaction ready to go to the node. */
export interface SignedTransfer {
  signed: Hex;
  transactionHash: Hash;
}

/**
 * Signs what the row's signedBody approved with the account's custody key, inside the caller's database transaction:
 * a token that fails (503 custody_unavailable) rolls the approval back with everything else.
 */
export async function signRow(ctx: Pick<MutationContext, 'secrets' | 'custody' | 'policy'>, tx: Tx, row: TransactionRow): Promise<SignedTransfer> {
  const wallet = await findWalletOfAccount(tx, row.accountId);
  if (!wallet) throw notFound('Organization');
  const unsignedHex = (row.signedBody as { parameters: { unsignedTransaction: string } }).parameters.unsignedTransaction;
  const signed = await signForWallet(ctx, wallet, parseUnsignedTransaction(unsignedHex));
  return { signed, transactionHash: keccak256(signed) };
}

/** transaction.approval_added with the quorum so far, in the approval's transaction. */
export async function recordApprovalAdded(tx: Tx, row: TransactionRow, at: Date): Promise<TransactionView> {
  const view = toTransactionView(row, (await approvalsOf(tx, [row])).get(row.id));
  await recordEvent(tx, { integratorId: row.integratorId, type: 'transaction.approval_added', objectType: 'transaction', objectId: row.id, object: view, at });
  return view;
}

/** Whether the members' approvals that count now reach the transaction's quorum (quorumOf). */
export async function quorumReached(tx: Tx, row: TransactionRow): Promise<boolean> {
  const account = await findAccountById(tx, row.accountId);
  const received = await countingApprovals(tx, row.accountId, [row.id]);
  return received.length >= quorumOf(account, row);
}

/** What the spending policies judge of a transaction waiting in created: its account's wallet and what was approved. */
async function spendSubjectOf(tx: Executor, row: TransactionRow): Promise<SpendSubject> {
  const wallet = await findWalletOfAccount(tx, row.accountId);
  const unsigned = parseUnsignedTransaction((row.signedBody as { parameters: { unsignedTransaction: string } }).parameters.unsignedTransaction);
  return { integratorId: row.integratorId, accountId: row.accountId, walletAddress: wallet?.address ?? row.fromAddress ?? '', unsigned, toService: row.kind === 'withdrawal' };
}

/**
 * A spending policy's step-up (require_approvals, docs/policies.md#step-up), judged against the policies in force now,
 * in the caller's transaction holding the row (at the proposal and at each approval): written on the row when it
 * changed. The row as it is now.
 */
export async function judgeStepUp(tx: Tx, row: TransactionRow, deps: SpendingDeps, at: Date): Promise<TransactionRow> {
  const approvals = (await stepUpFor(tx, deps, await spendSubjectOf(tx, row))) || null;
  if (approvals === row.requiredApprovals) return row;
  return (await moveTransaction(tx, row.id, 'created', { requiredApprovals: approvals, updatedAt: at })) ?? row;
}

/**
 * Whether `member`'s approval would bring the transaction (undefined: a new proposal) to its quorum, read before the
 * database transaction: it tells the caller to ask the node first (send-signed.ts `preflight`). The count inside the
 * transaction decides; a guess that proves wrong only moves a node's refusal to after the commit.
 */
export async function wouldReachQuorum(db: Executor, row: TransactionRow | undefined, account: { id: string; requiredApprovals: number | null }, member: MemberRow): Promise<boolean> {
  const received = row ? await countingApprovals(db, account.id, [row.id]) : [];
  const adds = countsAsApprover(member.role) && !received.some((a) => a.userId === member.userId) ? 1 : 0;
  return received.length + adds >= quorumOf(account, row);
}

/**
 * At the quorum, in the caller's transaction (which holds the row's lock): signs and moves created -> processing
 * once (a concurrent mover finds it gone), signed but not yet sent, with its events; `onSigned` hands the caller what
 * to send after the commit (send-signed.ts). Undefined when the row was moved meanwhile.
 */
export async function sendAtQuorum(
  ctx: Pick<MutationContext, 'secrets' | 'custody' | 'policy' | 'now'>,
  tx: Tx,
  row: TransactionRow,
  cause: TransactionCause,
  onSigned: (unsent: Unsent) => void,
  spending: QuorumSpending,
): Promise<TransactionView | undefined> {
  // The spending policies judge what is about to be signed (docs/policies.md#enforcement): refused, it fails here.
  const subject = await spendSubjectOf(tx, row);
  let failed: TransactionView | undefined;
  const fail = async (detail: string) => (failed = await failCreated(tx, row, { ...cause, detail }, ctx.now));
  const refused = await refuseBySpendingPolicy(tx, spending.deps, row, subject, fail, ctx.now);
  if (refused) {
    spending.onRefused(refused);
    return failed;
  }
  const { signed, transactionHash } = await signRow(ctx, tx, row);
  const moved = await moveTransaction(tx, row.id, 'created', { status: 'processing', transactionHash, signedRaw: signed, updatedAt: ctx.now });
  if (!moved) return undefined;
  const view = await recordTransactionChange(tx, moved, 'created', cause, ctx.now);
  onSigned({ rowId: row.id, chainId: row.chainId, signed, transactionHash });
  return view;
}
