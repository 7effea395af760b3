import type { LedgerStatus } from '../../db/schema/index.js';
import type { LedgerAccountRef } from './ledger-accounts.js';

/** One leg: an amount in base units of its account's asset, positive adding to the account's balance. */
export interface Leg {
  account: LedgerAccountRef;
  amount: bigint;
}

/**
 * A ledger transaction as a cause wants it now (docs/ledger.md#postings): posting it creates it, moves it from
 * pending to posted or archived, or revises a pending one's amounts; a posted or archived one is final and stays.
 */
export interface DesiredPosting {
  /** Unique per cause and leg group (`transaction:<id>:chain`): what makes posting idempotent. */
  causeKey: string;
  causeType: 'transaction' | 'payout' | 'opening' | 'adjustment';
  causeId: string | null;
  integratorId: string | null;
  description: string;
  status: LedgerStatus;
  chainId: number | null;
  /** The block the movement is in, once mined: a pending posting with a block is posted when the block is final. */
  blockNumber: number | null;
  /** The block the movement was mined in, when known (an incoming transfer's from the start): a movement mined at or before the chain's opening block is in the opening balances (applyPostings). */
  minedIn?: number | null;
  legs: Leg[];
}

/** Legs in the same account merged, zero legs dropped: what is written. */
export function mergedLegs(legs: readonly Leg[]): Leg[] {
  const byCode = new Map<string, Leg>();
  for (const leg of legs) {
    const key = `${leg.account.customer?.accountId ?? ''}:${leg.account.kind}:${leg.account.asset.code}`;
    const seen = byCode.get(key);
    byCode.set(key, seen ? { account: seen.account, amount: seen.amount + leg.amount } : leg);
  }
  return [...byCode.values()].filter((leg) => leg.amount !== 0n);
}

/** Every posting's legs sum to zero per asset: checked before anything is written (a bug here must not reach the books). */
export function assertBalanced(posting: DesiredPosting): void {
  const sums = new Map<string, bigint>();
  for (const leg of posting.legs) sums.set(leg.account.asset.code, (sums.get(leg.account.asset.code) ?? 0n) + leg.amount);
  for (const [asset, sum] of sums) {
    if (sum !== 0n) throw new Error(`ledger posting ${posting.causeKey} does not balance in ${asset} (${sum})`);
  }
}
