import type { Address, TransactionSerializable } from 'viem';
import type { Executor } from '../../db/database.js';
import { insertAddressBookEntry } from '../../db/repositories/address-book.js';
import { lockIfCovered, policyRules, readCoveringSpending, readSpendingFacts } from '../../db/repositories/policy-judgement.js';
import { unreserve } from '../../db/repositories/policy-reservations.js';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import type { TokenRegistry } from '../tokens/token-registry.js';
import { evaluatePolicies, needsStanding, windowsNeeded, type CompiledPolicy, type Denial } from './evaluate.js';
import { expressionContext } from './expression.js';
import type { PolicyAsset, PolicyAssets } from './policy-assets.js';
import { cachedPolicy, lastNeeds, rememberNeeds, rememberPolicy, type AccountNeeds } from './policy-cache.js';
import { largestDelayHours, WINDOW_MS, type Rule, type RuleWindow } from './rules.js';
import { spendFacts, type SpendFacts } from './spend-facts.js';

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
 *
 * One statement reads the live policies' ids with the window sums and destinations' standing their rules need
 * (readCoveringSpending); the rules come compiled from the policy cache, and only ids it does not hold are read. To
 * reserve, a statement before it takes the lock when a policy covers the account, so the sums are read under it.
 */
export async function judgeSpending(db: Executor, deps: SpendingDeps, subject: SpendSubject, now: Date, reserveFor?: string): Promise<Denial | undefined> {
  const { integratorId, accountId } = subject;
  if (reserveFor && !(await lockIfCovered(db, integratorId, accountId, `spending:${accountId}`))) return undefined;
  const facts = spendFacts(subject.unsigned, subject.walletAddress, deps.tokens);
  if (subject.toService) facts.destinations = [];
  const assetOf = memoizedAssets(deps.assets);
  const ask = (windows: { asset: string; window: Exclude<RuleWindow, 'transaction'> }[], destinations: string[]) => ({
    accountId,
    chainId: facts.chainId,
    sums: windows.map((w) => ({ ...w, since: new Date(now.getTime() - WINDOW_MS[w.window]) })),
    destinations,
  });
  // With the live ids, what the account's policies needed at its last judgement (nothing for an account without one).
  const last = lastNeeds(accountId);
  // Recording, it reserves in the same statement: taken back below if the policies refuse.
  const reserve = reserveFor ? [...facts.outflows].map(([asset, amount]) => ({ id: newId(), integratorId, accountId, chainId: facts.chainId, asset, transactionId: reserveFor, amount, at: now })) : [];
  const read = await readCoveringSpending(db, { integratorId, reserve, ...ask(last ? predictedWindows(last, facts, assetOf) : [], last?.delay ? facts.destinations : []) });
  const policies = await compiledPolicies(db, read.ids);
  rememberNeeds(accountId, policies, last);
  if (policies.length === 0) return undefined;
  // What the policies in force need and the statement did not read (a first judgement, or a policy created since).
  const windows = windowsNeeded({ policies, facts, assetOf }).filter((w) => !read.sums.has(`${w.asset}:${w.window}`));
  const destinations = needsStanding(policies) ? facts.destinations.filter((d) => !read.standings.has(d)) : [];
  if (windows.length > 0 || destinations.length > 0) {
    const more = await readSpendingFacts(db, { ...ask(windows, destinations), excluding: read.reserved });
    for (const [k, v] of more.sums) read.sums.set(k, v);
    for (const [k, v] of more.standings) read.standings.set(k, v);
  }
  const denial = evaluatePolicies({
    policies,
    facts,
    now,
    assetOf,
    spent: (asset, window) => read.sums.get(`${asset}:${window}`) ?? 0n,
    standing: (d) => {
      const known = read.standings.get(d);
      if (known?.used) return { kind: 'used_before' };
      return known?.usableAt ? { kind: 'address_book', usableAt: known.usableAt } : { kind: 'new' };
    },
    expressionContext: () =>
      expressionContext({ facts, to: subject.unsigned.to ?? undefined, data: subject.unsigned.data, withdrawal: subject.toService === true, now, assets: chainAssets(deps.assets, facts.chainId) }),
  });
  if (denial?.firstUsed) {
    // A first use starts the wait of the longest delay covering the account (the address book's rule).
    const hours = largestDelayHours(policies.flatMap((p) => p.rules));
    denial.firstUsed = denial.firstUsed.map((f) => ({ address: f.address, usableAt: new Date(now.getTime() + hours * 3_600_000) }));
  }
  if (denial) await unreserve(db, read.reserved);
  return denial;
}

/** The window sums an account's last needs ask of this transaction: its windowed caps on the chain, of the assets it moves. */
function predictedWindows(needs: AccountNeeds, facts: SpendFacts, assetOf: AssetOf): { asset: string; window: Exclude<RuleWindow, 'transaction'> }[] {
  const windows = new Map<string, { asset: string; window: Exclude<RuleWindow, 'transaction'> }>();
  for (const w of needs.windows) {
    const asset = w.chainId === facts.chainId ? assetOf(w)?.key : undefined;
    if (asset && facts.outflows.has(asset)) windows.set(`${asset}:${w.window}`, { asset, window: w.window });
  }
  return [...windows.values()];
}

/** The compiled policies of live ids, oldest first: from the cache, the rules of those it does not hold read in one statement. */
async function compiledPolicies(db: Executor, ids: string[]): Promise<CompiledPolicy[]> {
  if (ids.length === 0) return [];
  const policies = ids.map((id) => cachedPolicy(id));
  const missing = ids.filter((_, i) => !policies[i]);
  if (missing.length > 0) {
    const rules = new Map((await policyRules(db, missing)).map((r) => [r.id, r.rules as Rule[]]));
    for (const [i, id] of ids.entries()) policies[i] ??= rememberPolicy(id, rules.get(id)!);
  }
  return policies as CompiledPolicy[];
}

type AssetOf = (rule: { asset: string; chainId: number }) => PolicyAsset | undefined;

/** Every asset of a chain (its native coin and the tokens listed on it): what an expression's `amounts` holds. */
const chainAssets = (assets: PolicyAssets, chainId: number): PolicyAsset[] => assets.listed(chainId).flatMap((symbol) => assets.find(chainId, symbol) ?? []);

/** assetOf for one judgement: each rule's asset resolved once (100 policies name the same few), looked up without a key string. */
function memoizedAssets(assets: PolicyAssets): AssetOf {
  const known = new Map<number, Map<string, PolicyAsset | undefined>>();
  return (rule) => {
    let chain = known.get(rule.chainId);
    if (!chain) known.set(rule.chainId, (chain = new Map()));
    if (chain.has(rule.asset)) return chain.get(rule.asset);
    const asset = assets.find(rule.chainId, rule.asset);
    chain.set(rule.asset, asset);
    return asset;
  };
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
