import { keccak256, type Hash, type Hex } from 'viem';
import type { ChainRegistry } from '../../chain/chain-client.js';
import { RpcFailure, type RpcFailureCode } from '../../chain/rpc-failure.js';
import type { Treasury } from '../../chain/treasury.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/database.js';
import { lockTreasuryNonces, recordPayoutFailure, signedPayoutNonces, storeSignedPayout } from '../../db/repositories/deposits.js';
import { type TransactionRow } from '../../db/repositories/transactions.js';
import { moveTransaction } from '../../db/repositories/transaction-writes.js';
import { recordTransactionChange, WATCHER } from '../transactions/record-change.js';
import type { Log } from '../../log.js';
import { payoutCall, requireTreasuryTokens, TreasuryShortfall } from './payout-call.js';
import type { AddressScreen } from '../screening/address-screen.js';
import { describeHit, recordAddressHit } from '../screening/address-hits.js';
import { firstListedRecipient } from '../screening/value-recipients.js';

export interface PayoutDeps {
  database: Database;
  chains: ChainRegistry;
  treasury: Treasury;
  clock: Clock;
  log: Pick<Log, 'warn'>;
  /** The listed wallet addresses, read at each payout (a reloaded list replaces it); none: not screened. */
  addressScreen?: () => AddressScreen | undefined;
}

/** payoutError's start while the wallet is on a list: the payout waits, retried with backoff (the list may change). */
const SANCTIONED = 'sanctioned_address';

const DEFINITE_REFUSALS = new Set<RpcFailureCode>(['insufficient_funds', 'nonce_too_low', 'nonce_too_high', 'replacement_underpriced', 'gas_too_low', 'fee_too_low', 'transaction_rejected']);

/** After a failed attempt, the next one waits 2^attempts seconds, at most 5 minutes. */
const MAX_BACKOFF_MS = 5 * 60_000;

export function payoutDue(row: TransactionRow, now: Date): boolean {
  if (row.payoutAttempts === 0) return true;
  return now.getTime() - row.updatedAt.getTime() >= Math.min(1000 * 2 ** row.payoutAttempts, MAX_BACKOFF_MS);
}

/**
 * Pays a funded deposit out from the treasury: funds_in_transfer -> processing (the watcher then follows the
 * receipt like any transaction). Two steps, so a payout can never be made twice:
 *
 * 1. Sign and store: under an advisory lock per (chain, treasury), the nonce is the node's pending count, skipping
 *    nonces of payouts signed but not yet accepted; the signed transaction is committed before it is sent.
 * 2. Send the stored transaction and, once the node accepted it, move to processing with its events. A retry
 *    after a crash or an unreachable node re-sends the same signed transaction (same nonce, same hash). A payout
 *    the node refused outright (e.g. the treasury cannot pay) is discarded and signed anew next time.
 */
export async function payOut(deps: PayoutDeps, row: TransactionRow): Promise<void> {
  const { database, treasury, clock, log } = deps;
  const chain = deps.chains.get(row.chainId);
  if (!chain || !row.toAddress) return;
  let raw = row.payoutRaw as Hex | null;
  let hash = row.transactionHash as Hash | null;
  const fail = async (err: RpcFailure, discard: boolean) => {
    await recordPayoutFailure(database.db, row.id, `${err.code}: ${err.message}`.slice(0, 500), discard, clock());
    log.warn({ transactionId: row.transactionId, chainId: row.chainId, code: err.code, err: err.message }, 'deposit payout failed; retrying with backoff');
  };

  try {
    if (!raw || !hash) {
      const call = payoutCall(row);
      // Nothing is signed that pays a listed address (the wallet; a token payout's contract too), screened on the call
      // itself; operators see why (payoutError) and the hit, recorded once.
      const listed = firstListedRecipient(deps.addressScreen?.(), call);
      if (listed) {
        const first = !row.payoutError?.startsWith(SANCTIONED);
        if (first) await recordAddressHit(database.db, { integratorId: row.integratorId, accountId: row.accountId, chainId: row.chainId, activity: row.kind === 'refund' ? 'refund' : 'deposit_payout', transactionRowId: row.id }, listed, clock());
        const who = listed.address.toLowerCase() === row.toAddress.toLowerCase() ? 'wallet' : listed.role;
        await recordPayoutFailure(database.db, row.id, `${SANCTIONED}: the ${who} ${describeHit(listed)}; nothing was signed`.slice(0, 500), false, clock());
        if (first) log.warn({ transactionId: row.transactionId, chainId: row.chainId, list: listed.listed.list, entry: listed.listed.entryNumber }, 'payout held: an address it pays is on a screening list');
        return;
      }
      const { to, value, data } = call;
      const transferParameters = data ? undefined : await chain.transferParameters(treasury.address, to, value);
      const signed = await database.db.transaction(async (tx) => {
        await lockTreasuryNonces(tx, row.chainId, treasury.address);
        await requireTreasuryTokens(tx, chain, treasury.address, call);
        // A token transfer's gas is estimated once its balance is known to be there (short, the estimate reverts).
        const parameters = transferParameters ?? (await chain.callParameters(treasury.address, to, data!));
        const taken = new Set(await signedPayoutNonces(tx, row.chainId, treasury.address));
        let nonce = await chain.pendingNonce(treasury.address);
        while (taken.has(nonce)) nonce++;
        const payout = await treasury.sign({ chainId: row.chainId, type: 'eip1559', nonce, to, value, ...(data ? { data } : {}), ...parameters });
        const payoutHash = keccak256(payout);
        const stored = await storeSignedPayout(tx, row.id, { payoutRaw: payout, transactionHash: payoutHash, nonce, fromAddress: treasury.address, value: value.toString(), updatedAt: clock() });
        return stored ? { payout, payoutHash } : undefined;
      });
      // Another process signed it meanwhile, or the deposit was cancelled: nothing more to do here.
      if (!signed) return;
      raw = signed.payout;
      hash = signed.payoutHash;
    }
    try {
      await chain.broadcast(raw);
    } catch (err) {
      // The node has it already (an earlier attempt got through before a crash or timeout): that is success.
      if (!(err instanceof RpcFailure) || err.code !== 'nonce_too_low' || !(await chain.known(hash))) throw err;
    }
  } catch (err) {
    if (err instanceof TreasuryShortfall) {
      // Nothing was signed: the payout waits its backoff, operators see why (payoutError, GET /admin/api/treasury).
      await recordPayoutFailure(database.db, row.id, `insufficient_funds: ${err.message}`.slice(0, 500), false, clock());
      log.warn({ transactionId: row.transactionId, chainId: row.chainId, err: err.message }, 'payout waits for the treasury to be funded');
      return;
    }
    if (!(err instanceof RpcFailure)) throw err;
    // Only a definite refusal discards the signed payout; when the node may have it (unreachable, an unknown
    // error), the same transaction is re-sent, never a second one.
    await fail(err, DEFINITE_REFUSALS.has(err.code));
    return;
  }

  const now = clock();
  await database.db.transaction(async (tx) => {
    const moved = await moveTransaction(tx, row.id, 'funds_in_transfer', { status: 'processing', broadcastedAt: now, payoutError: null, updatedAt: now });
    if (moved) await recordTransactionChange(tx, moved, 'funds_in_transfer', { ...WATCHER, detail: `payout from the treasury, nonce ${moved.nonce}` }, now);
  });
}
