import { keccak256, type Hash, type Hex } from 'viem';
import { RpcFailure, type ChainClient } from '../../chain/chain-client.js';
import { parseUnsignedTransaction, signWithCustodyKey } from '../../chain/custody-signer.js';
import type { Executor, Tx } from '../../db/database.js';
import { findAccountById } from '../../db/repositories/accounts.js';
import { countingApprovals } from '../../db/repositories/members.js';
import { findWalletOfAccount, moveTransaction, type TransactionRow } from '../../db/repositories/transactions.js';
import type { MutationContext } from '../context.js';
import { notFound } from '../errors.js';
import { recordEvent } from '../events/record-event.js';
import { approvalsOf } from './approvals-view.js';
import { recordTransactionChange, type TransactionCause } from './record-change.js';
import { rpcProblem } from './rpc-problem.js';
import { toTransactionView, type TransactionView } from './transaction-view.js';

/** Proposals of an entity's members wait this long for their quorum, then fail as expired (docs/members.md#quorum). */
export const PROPOSAL_LIFETIME_MS = 24 * 60 * 60 * 1000;

export const proposalExpired = (row: TransactionRow, now: Date): boolean => row.kind === 'transfer' && now.getTime() - row.createdAt.getTime() >= PROPOSAL_LIFETIME_MS;

/** A transfer proposal past its 24 hours fails as expired, with its events; undefined when it moved meanwhile. */
export async function expireProposal(tx: Executor, row: TransactionRow, at: Date): Promise<TransactionView | undefined> {
  const moved = await moveTransaction(tx, row.id, 'created', { status: 'failed', failureReason: 'expired', updatedAt: at });
  return moved ? recordTransactionChange(tx, moved, 'created', { actorType: 'system', actorId: 'quorum', detail: 'no quorum within 24 hours' }, at) : undefined;
}

/** A signed transaction ready to go to the node. */
export interface SignedTransfer {
  signed: Hex;
  transactionHash: Hash;
}

/** Signs what the row's signedBody approved with the account's custody key. */
export async function signRow(ctx: Pick<MutationContext, 'secrets'>, tx: Tx, row: TransactionRow): Promise<SignedTransfer> {
  const wallet = await findWalletOfAccount(tx, row.accountId);
  if (!wallet) throw notFound('Organization');
  const unsignedHex = (row.signedBody as { parameters: { unsignedTransaction: string } }).parameters.unsignedTransaction;
  const signed = await signWithCustodyKey(ctx.secrets, wallet.privateKeySealed, wallet.id, parseUnsignedTransaction(unsignedHex));
  return { signed, transactionHash: keccak256(signed) };
}

/** Sends to the node; a refusal becomes the API's problem (and rolls the caller's transaction back). */
export async function broadcast(chain: ChainClient, signed: Hex): Promise<void> {
  try {
    await chain.broadcast(signed);
  } catch (err) {
    if (err instanceof RpcFailure) throw rpcProblem(err);
    throw err;
  }
}

/** transaction.approval_added with the quorum so far, in the approval's transaction. */
export async function recordApprovalAdded(tx: Tx, row: TransactionRow, at: Date): Promise<TransactionView> {
  const view = toTransactionView(row, (await approvalsOf(tx, [row])).get(row.id));
  await recordEvent(tx, { integratorId: row.integratorId, type: 'transaction.approval_added', objectType: 'transaction', objectId: row.id, object: view, at });
  return view;
}

/** Whether the members' approvals that count now reach the account's requiredApprovals. */
export async function quorumReached(tx: Tx, row: TransactionRow): Promise<boolean> {
  const account = await findAccountById(tx, row.accountId);
  const received = await countingApprovals(tx, row.accountId, [row.id]);
  return received.length >= (account?.requiredApprovals ?? 1);
}

/**
 * At the quorum, in the caller's transaction (which holds the row's lock): signs, moves created -> processing once
 * (a concurrent mover finds it gone), records it, and broadcasts last, so only the commit remains after the node
 * has it. `onBroadcast` lets the caller log a commit that fails after that. Undefined when the row was moved meanwhile.
 */
export async function sendAtQuorum(
  ctx: Pick<MutationContext, 'secrets' | 'now'>,
  tx: Tx,
  chain: ChainClient,
  row: TransactionRow,
  cause: TransactionCause,
  onBroadcast: (transactionHash: Hash) => void,
): Promise<TransactionView | undefined> {
  const { signed, transactionHash } = await signRow(ctx, tx, row);
  const moved = await moveTransaction(tx, row.id, 'created', { status: 'processing', transactionHash, broadcastedAt: ctx.now, updatedAt: ctx.now });
  if (!moved) return undefined;
  const view = await recordTransactionChange(tx, moved, 'created', cause, ctx.now);
  await broadcast(chain, signed);
  onBroadcast(transactionHash);
  return view;
}
