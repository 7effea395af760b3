import type { Address, Hash, Hex, TransactionSerializable } from 'viem';
import type { ChainClient } from '../../chain/chain-client.js';
import { RpcFailure } from '../../chain/rpc-failure.js';
import type { Database } from '../../db/database.js';
import { type TransactionRow } from '../../db/repositories/transactions.js';
import { markSent, moveTransaction } from '../../db/repositories/transaction-writes.js';
import type { Log } from '../../log.js';
import { ApiError } from '../errors.js';
import type { TokenRegistry } from '../tokens/token-registry.js';
import { requireTokenBalance, tokenTransferOf } from '../tokens/token-transfer.js';
import { recordTransactionChange, type TransactionCause } from './record-change.js';
import { rpcProblem } from './rpc-problem.js';

/*
 * A transfer, withdrawal or vault call is committed signed but not yet sent (status processing, signed_raw set),
 * then sent after the commit: a slow or absent node never holds a database transaction open
 * (docs/transactions.md#sending). What the node would refuse at once is asked before anything is written
 * (preflight), so those refusals still leave nothing behind.
 */

/** A committed transaction waiting for the node to accept it. */
export interface Unsent {
  rowId: string;
  chainId: number;
  signed: Hex;
  transactionHash: Hash;
}

export const unsentOf = (row: TransactionRow): Unsent | undefined =>
  row.signedRaw && row.transactionHash ? { rowId: row.id, chainId: row.chainId, signed: row.signedRaw as Hex, transactionHash: row.transactionHash as Hash } : undefined;

/**
 * The node's immediate refusals (nonce, funds) or its absence as the API's problem, before anything is recorded; a
 * transfer of a listed token also needs the wallet's balance of it (docs/tokens.md#transfers), read at the same time
 * so it adds no wait. The node's own refusal is answered first: a stale nonce says more than the token's shortfall.
 */
export async function preflight(chain: ChainClient, from: string, unsigned: TransactionSerializable, tokens: TokenRegistry): Promise<void> {
  const transfer = tokenTransferOf(tokens, unsigned);
  const checks = await Promise.allSettled([chain.preflight(from as Address, unsigned), transfer && requireTokenBalance(chain, from as Address, transfer.token, transfer.raw)]);
  for (const check of checks) {
    if (check.status === 'fulfilled') continue;
    throw check.reason instanceof RpcFailure ? rpcProblem(check.reason) : check.reason;
  }
}

/** Failures that say nothing about the transaction: the node was not reached, or answered nonsense. Sent again later. */
const transient = (failure: RpcFailure) => failure.code === 'rpc_unreachable' || failure.code === 'rpc_error';

export type SendOutcome =
  /** The node has it (accepted now, or already knew it). */
  | { kind: 'sent' }
  /** The node could not be asked; the watcher sends it again. */
  | { kind: 'pending'; failure: RpcFailure }
  /** The node refused it: the transaction failed (failureReason refused), with its events. */
  | { kind: 'refused'; failure: RpcFailure };

export interface SendDeps {
  database: Database;
  now: () => Date;
  log: Pick<Log, 'warn'>;
}

/**
 * The rows this process is sending right now. The watcher leaves them to their sender: under load its rounds (every
 * 100 ms) met a request's transaction between its commit and the node's answer, asked for its receipt and sent it a
 * second time, four RPC calls for nothing. Another process's watcher may still send one twice, which is harmless.
 */
const sending = new Set<string>();

/** Whether this process is sending the row now (sendSigned in flight). */
export const beingSent = (rowId: string): boolean => sending.has(rowId);

/**
 * Sends a committed transaction. Sending the same signed bytes twice (a request and the watcher, two watchers) is
 * harmless: one hash, one nonce, so the node mines it once at most, and "already known" is recognised by asking
 * the node for the hash before anything is failed.
 */
export async function sendSigned(deps: SendDeps, chain: ChainClient, unsent: Unsent, cause: TransactionCause): Promise<SendOutcome> {
  sending.add(unsent.rowId);
  try {
    return await send(deps, chain, unsent, cause);
  } finally {
    sending.delete(unsent.rowId);
  }
}

async function send(deps: SendDeps, chain: ChainClient, unsent: Unsent, cause: TransactionCause): Promise<SendOutcome> {
  let failure: RpcFailure;
  try {
    await chain.broadcast(unsent.signed);
    await markSent(deps.database.db, unsent.rowId, deps.now());
    return { kind: 'sent' };
  } catch (err) {
    if (!(err instanceof RpcFailure)) throw err;
    failure = err;
  }
  if (transient(failure)) return { kind: 'pending', failure };
  try {
    if (await chain.known(unsent.transactionHash)) {
      await markSent(deps.database.db, unsent.rowId, deps.now());
      return { kind: 'sent' };
    }
  } catch (err) {
    if (err instanceof RpcFailure) return { kind: 'pending', failure: err };
    throw err;
  }
  const at = deps.now();
  await deps.database.db.transaction(async (tx) => {
    const moved = await moveTransaction(tx, unsent.rowId, 'processing', { status: 'failed', failureReason: 'refused', signedRaw: null, updatedAt: at });
    if (moved) await recordTransactionChange(tx, moved, 'processing', { ...cause, detail: `the node refused it (${failure.code}): ${failure.message}` }, at);
  });
  deps.log.warn({ chainId: unsent.chainId, transactionHash: unsent.transactionHash, reason: failure.code }, 'the node refused a committed transaction: it failed as refused');
  return { kind: 'refused', failure };
}

/**
 * The request's half: send right after the commit. A refusal is answered as the node's problem, naming the
 * transaction that failed; an unreachable node is not an error (the transaction is recorded and the watcher sends
 * it), so the caller answers with the transaction as it is.
 */
export async function sendAfterCommit(deps: SendDeps, chain: ChainClient, unsent: Unsent, cause: TransactionCause, transactionId: string): Promise<SendOutcome> {
  const outcome = await sendSigned(deps, chain, unsent, cause);
  if (outcome.kind === 'refused') {
    const problem = rpcProblem(outcome.failure);
    throw new ApiError(problem.code, `${problem.detail}. The transaction was recorded and has failed (failureReason refused)`, {
      extensions: { ...problem.options.extensions, transactionId },
    });
  }
  if (outcome.kind === 'pending') deps.log.warn({ chainId: unsent.chainId, transactionHash: unsent.transactionHash, reason: outcome.failure.code }, 'the node could not be reached after the commit: the watcher sends the transaction');
  return outcome;
}
