import type { Executor } from '../../db/database.js';
import * as writes from '../../db/repositories/ledger-writes.js';
import { insertPosting } from '../../db/repositories/ledger-posting.js';
import type { LedgerStatus } from '../../db/schema/index.js';
import { newId } from '../ids.js';
import { ledgerAccountCode, ledgerAccountId } from './ledger-accounts.js';
import { assertBalanced, mergedLegs, type DesiredPosting, type Leg } from './posting.js';

// Posting (docs/ledger.md#postings): a desired ledger transaction is created, or the one its cause created before is
// moved on (pending to posted or archived, its block set, a pending one's amounts revised). Posted and archived are
// final. Everything in the caller's database transaction: the change that causes it commits with it, or neither.

const min0 = (n: bigint) => (n < 0n ? n : 0n);
const max0 = (n: bigint) => (n > 0n ? n : 0n);

/** What an entry of `amount` adds to its account's balances in `status` (pending counts in pending, and in available when it takes). */
function effect(amount: bigint, status: LedgerStatus): Omit<writes.BalanceDelta, 'accountId'> {
  if (status === 'posted') return { posted: amount, pending: amount, available: amount };
  if (status === 'pending') return { posted: 0n, pending: amount, available: min0(amount) };
  return { posted: 0n, pending: 0n, available: 0n };
}

export async function postLedger(tx: Executor, postings: readonly DesiredPosting[], at: Date): Promise<void> {
  for (const posting of postings) await postOne(tx, posting, at);
}

async function postOne(tx: Executor, desired: DesiredPosting, at: Date): Promise<void> {
  assertBalanced(desired);
  const legs = mergedLegs(desired.legs);
  if (legs.length === 0) return;
  if (desired.status === 'archived') {
    // A failure before anything was posted for it leaves nothing to archive.
    const head = await writes.lockLedgerTransaction(tx, desired.causeKey);
    if (head) await moveOn(tx, head, desired, legs, at);
    return;
  }
  const transaction = { id: newId(), ...desired, minedIn: desired.minedIn ?? desired.blockNumber };
  const legsToWrite = legs.map((leg) => {
    const code = ledgerAccountCode(leg.account);
    const account = { id: ledgerAccountId(code), code, kind: leg.account.kind, asset: leg.account.asset, integratorId: leg.account.customer?.integratorId ?? null, accountId: leg.account.customer?.accountId ?? null };
    return { account, entryId: newId(), amount: leg.amount, ...effect(leg.amount, desired.status) };
  });
  if (await insertPosting(tx, transaction, legsToWrite, at)) return;
  // There already (a retry, a restart, another process), or in the opening balances (nothing there either).
  const head = await writes.lockLedgerTransaction(tx, desired.causeKey);
  if (head) await moveOn(tx, head, desired, legs, at);
}

/** A pending transaction moved on: its amounts revised to the desired ones, then posted, archived or given its block. */
async function moveOn(tx: Executor, head: writes.LedgerTransactionHead, desired: Pick<DesiredPosting, 'status' | 'blockNumber' | 'minedIn'>, legs: Leg[], at: Date): Promise<void> {
  if (head.status !== 'pending') return;
  const wanted = new Map(legs.map((leg) => [ledgerAccountId(ledgerAccountCode(leg.account)), leg.amount]));
  const deltas = new Map<string, writes.BalanceDelta>();
  const add = (accountId: string, d: Omit<writes.BalanceDelta, 'accountId'>) => {
    const seen = deltas.get(accountId) ?? { accountId, posted: 0n, pending: 0n, available: 0n };
    deltas.set(accountId, { accountId, posted: seen.posted + d.posted, pending: seen.pending + d.pending, available: seen.available + d.available });
  };
  for (const entry of await writes.entriesOf(tx, head.id)) {
    let amount = entry.amount;
    const revised = wanted.get(entry.ledgerAccountId);
    if (desired.status !== 'archived' && revised !== undefined && revised !== amount) {
      add(entry.ledgerAccountId, { posted: 0n, pending: revised - amount, available: min0(revised) - min0(amount) });
      await writes.reviseLedgerEntry(tx, entry.id, revised, at);
      amount = revised;
    }
    if (desired.status === 'posted') add(entry.ledgerAccountId, { posted: amount, pending: 0n, available: max0(amount) });
    if (desired.status === 'archived') add(entry.ledgerAccountId, { posted: 0n, pending: -amount, available: -min0(amount) });
  }
  const moving = [...deltas.values()].filter((d) => d.posted !== 0n || d.pending !== 0n || d.available !== 0n);
  if (moving.length > 0) await writes.moveBalances(tx, moving, at);
  if (desired.status !== 'pending' || desired.blockNumber !== head.blockNumber) {
    const blockNumber = desired.status === 'archived' ? head.blockNumber : (desired.blockNumber ?? head.blockNumber);
    await writes.settleLedgerTransaction(tx, head.id, { status: desired.status, blockNumber, minedIn: desired.minedIn ?? blockNumber }, at);
  }
}

/**
 * Posts the mined movements of a chain whose block is now final (at or below `finalBlock`): called where the incoming
 * watcher moves its cursor, in the same database transaction. Those another process is posting are skipped.
 */
export async function postFinal(tx: Executor, chainId: number, finalBlock: number, at: Date): Promise<number> {
  const heads = await writes.lockFinalLedgerTransactions(tx, chainId, finalBlock, FINAL_BATCH);
  for (const head of heads) await moveOn(tx, head, { status: 'posted', blockNumber: head.blockNumber }, [], at);
  return heads.length;
}

/** The most postings one call posts (a catch-up after an outage goes in such steps, one per watcher round). */
const FINAL_BATCH = 500;
