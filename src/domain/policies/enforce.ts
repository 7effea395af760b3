import { sql } from 'drizzle-orm';
import type { Address, TransactionSerializable } from 'viem';
import { selectRows, type Executor } from '../../db/database.js';
import { findAddressBookEntry, insertAddressBookEntry } from '../../db/repositories/address-book.js';
import { policiesCovering } from '../../db/repositories/policies.js';
import { reserve, reservedSince } from '../../db/repositories/policy-reservations.js';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import type { TokenRegistry } from '../tokens/token-registry.js';
import { evaluatePolicies, needsStanding, windowsNeeded, type Denial, type DestinationStanding, type EvaluatedPolicy } from './evaluate.js';
import type { PolicyAssets } from './policy-assets.js';
import { largestDelayHours, WINDOW_MS, type Rule } from './rules.js';
import { spendFacts } from './spend-facts.js';

// Spending policies enforced where the service signs for a customer (docs/policies.md#enforcement): judged once before
// anything is signed (no lock: a refusal then costs nothing), and again, authoritatively, in the database transaction
// that records the signed transaction: the account's policy checks serialized by a transaction-scoped lock, the window
// sums read, and what the transaction moves reserved before the lock is let go at commit. So concurrent transactions
// never exceed a window together, on any number of processes.

export interface SpendingDeps {
  assets: PolicyAssets;
  tokens: TokenRegistry;
}

/** What is judged: the account's unsigned transaction, and (to reserve) the transactions row it is recorded as. */
export interface SpendSubject {
  integratorId: string;
  accountId: string;
  walletAddress: string;
  unsigned: Pick<TransactionSerializable, 'to' | 'data' | 'value' | 'chainId'> & { authorizationList?: readonly { address: Address }[] };
  /**
   * It pays the service itself: a withdrawal's crypto to the treasury, in the transaction the service issued with its
   * quote. The destination rules do not apply (the money's destination is the verified bank account); the caps do.
   */
  toService?: boolean;
}

/**
 * Judges the transaction against the policies covering its account: the refusal, or undefined. With `reserveFor` (the
 * transactions row id, inside the recording database transaction) it takes the account's lock first and, when allowed,
 * reserves what leaves the wallet. Without a policy it reads one indexed row set and does nothing else.
 */
export async function judgeSpending(db: Executor, deps: SpendingDeps, subject: SpendSubject, now: Date, reserveFor?: string): Promise<Denial | undefined> {
  const rows = await policiesCovering(db, subject.integratorId, subject.accountId);
  if (rows.length === 0) return undefined;
  if (reserveFor) await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`spending:${subject.accountId}`}, 0))`);
  const policies: EvaluatedPolicy[] = rows.map((r) => ({ id: r.id, rules: r.rules as Rule[] }));
  const facts = spendFacts(subject.unsigned, subject.walletAddress, deps.tokens);
  if (subject.toService) facts.destinations = [];
  const assetOf = (rule: { asset: string; chainId: number }) => deps.assets.find(rule.chainId, rule.asset);
  const sums = new Map<string, bigint>();
  for (const { asset, window } of windowsNeeded({ policies, facts, assetOf })) {
    sums.set(`${asset}:${window}`, await reservedSince(db, { accountId: subject.accountId, chainId: facts.chainId, asset }, new Date(now.getTime() - WINDOW_MS[window])));
  }
  const standings = new Map<string, DestinationStanding>();
  if (needsStanding(policies)) for (const d of facts.destinations) standings.set(d, await standingOf(db, subject.accountId, d));
  const denial = evaluatePolicies({
    policies,
    facts,
    now,
    assetOf,
    spent: (asset, window) => sums.get(`${asset}:${window}`) ?? 0n,
    standing: (d) => standings.get(d) ?? { kind: 'new' },
  });
  if (denial?.firstUsed) {
    // A first use starts the wait of the longest delay covering the account (the address book's rule).
    const hours = largestDelayHours(policies.flatMap((p) => p.rules));
    denial.firstUsed = denial.firstUsed.map((f) => ({ address: f.address, usableAt: new Date(now.getTime() + hours * 3_600_000) }));
  }
  if (denial || !reserveFor) return denial;
  for (const [asset, amount] of facts.outflows) {
    await reserve(db, { id: newId(), integratorId: subject.integratorId, accountId: subject.accountId, chainId: facts.chainId, asset, transactionId: reserveFor, amount, at: now });
  }
  return undefined;
}

/** A destination's standing: sent to before by the account (a transaction that did not fail), or in its address book. */
async function standingOf(db: Executor, accountId: string, destination: string): Promise<DestinationStanding> {
  const [used] = await selectRows<{ one: number }>(
    db,
    sql`select 1 as one from transactions where account_id = ${accountId} and status <> 'failed' and kind <> 'incoming'
        and (lower(to_address) = ${destination} or lower(token_transfer->>'to') = ${destination}) limit 1`,
  );
  if (used) return { kind: 'used_before' };
  const entry = await findAddressBookEntry(db, accountId, destination);
  return entry ? { kind: 'address_book', usableAt: entry.usableAt } : { kind: 'new' };
}

/** What a refusal leaves behind besides the failed transaction: its first-used destinations entered in the address book. */
export async function recordDenial(db: Executor, subject: Pick<SpendSubject, 'integratorId' | 'accountId'>, denial: Denial, now: Date): Promise<void> {
  for (const f of denial.firstUsed ?? []) {
    await insertAddressBookEntry(db, { id: newId(), integratorId: subject.integratorId, accountId: subject.accountId, address: f.address, label: 'first used (refused by a new_destination_delay)', usableAt: f.usableAt, createdAt: now });
  }
}

/** A refusal as the failed transaction's transition records it. */
export const denialDetail = (denial: Denial): string => `spending policy ${denial.policyId} refused it (${denial.ruleType}): ${denial.detail}`;

/** The 403 of a refusal: the policy, the rule and the transaction whose record reads failed (policy_denied). */
export function policyDeniedProblem(denial: Denial, transactionId: string): ApiError {
  return new ApiError('policy_denied', `Spending policy ${denial.policyId} refused the transaction (rule ${denial.ruleIndex}, ${denial.ruleType}): ${denial.detail}`, {
    extensions: { policyId: denial.policyId, ruleType: denial.ruleType, ruleIndex: denial.ruleIndex, transactionId },
  });
}

/**
 * Where a transaction waiting in `created` is signed (a prepared withdrawal or vault call approved, an entity's
 * transaction at its quorum): judged and reserved in the database transaction that would sign it. Refused, it fails
 * (policy_denied) with its events there, and the problem to answer is returned: the caller commits, then throws it.
 */
export async function refuseBySpendingPolicy(
  tx: Executor,
  deps: SpendingDeps,
  row: { id: string; integratorId: string; accountId: string; transactionId: string },
  subject: SpendSubject,
  fail: (detail: string) => Promise<unknown>,
  now: Date,
): Promise<ApiError | undefined> {
  const denial = await judgeSpending(tx, deps, subject, now, row.id);
  if (!denial) return undefined;
  await fail(denialDetail(denial));
  await recordDenial(tx, subject, denial, now);
  return policyDeniedProblem(denial, row.transactionId);
}
