import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/database.js';
import { applyPostings, type FinalHeads, type PostingRequest } from '../../db/repositories/ledger-posting.js';
import { newId } from '../ids.js';
import { ledgerAccountCode, ledgerAccountId } from './ledger-accounts.js';
import { assertBalanced, mergedLegs, type DesiredPosting } from './posting.js';

// Posting (docs/ledger.md#postings): a desired ledger transaction is created, or the one its cause created before is
// moved on (pending to posted or archived, its block set, a pending one's amounts revised). Posted and archived are
// final. Everything in the caller's database transaction: the change that causes it commits with it, or neither.
//
// A database transaction posts once (docs/ledger.md#locking): everything it posts goes in one call, which is one
// statement taking every account's lock at once, in id order. A second call in the same database transaction would
// take locks in a second round, out of that order, which is how two postings deadlock; it throws instead.

const posted = new WeakSet<object>();

export interface PostOptions {
  /** The incoming watcher's finality: the chain's pending mined movements at or below this block are posted too. */
  final?: { chainId: number; finalBlock: number };
}

/** Posts the postings (and the final movements), in one statement; nothing when there is nothing to post. */
export async function postLedger(tx: Executor, postings: readonly DesiredPosting[], at: Date, options: PostOptions = {}): Promise<{ created: number; moved: number }> {
  // A cause twice (a transfer created and completed in one round): what it is now, its last state, is what posts.
  const latest = [...new Map(postings.map((p) => [p.causeKey, p])).values()];
  const requests = latest.map(toRequest).filter((r): r is PostingRequest => r !== undefined);
  if (requests.length === 0 && !options.final) return { created: 0, moved: 0 };
  if (tx instanceof PgTransaction) {
    if (posted.has(tx)) throw new Error('ledger: a database transaction posts once (collect its postings into one postLedger call)');
    posted.add(tx);
  }
  const final: FinalHeads | undefined = options.final && { ...options.final, limit: FINAL_BATCH };
  const applied = await applyPostings(tx, requests, final, at);
  if (applied.lost.length === 0) return applied;
  // Created by another process after this statement's snapshot (a retry, two watchers): moved on from what it wrote.
  const again = await applyPostings(tx, requests.filter((r) => applied.lost.includes(r.transaction.causeKey)), undefined, at);
  if (again.lost.length > 0) throw new Error(`ledger: postings ${again.lost.join(', ')} are neither there nor written`);
  return { created: applied.created + again.created, moved: applied.moved + again.moved };
}

function toRequest(desired: DesiredPosting): PostingRequest | undefined {
  assertBalanced(desired);
  const legs = mergedLegs(desired.legs);
  if (legs.length === 0) return undefined;
  return {
    transaction: { id: newId(), ...desired, minedIn: desired.minedIn ?? desired.blockNumber },
    legs: legs.map((leg) => {
      const code = ledgerAccountCode(leg.account);
      const account = { id: ledgerAccountId(code), code, kind: leg.account.kind, asset: leg.account.asset, integratorId: leg.account.customer?.integratorId ?? null, accountId: leg.account.customer?.accountId ?? null };
      return { account, entryId: newId(), amount: leg.amount };
    }),
  };
}

/** The most final movements one round posts (a catch-up after an outage goes in such steps, one per watcher round). */
const FINAL_BATCH = 500;
