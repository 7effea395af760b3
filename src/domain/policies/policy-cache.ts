import { compilePolicy, type CompiledPolicy } from './evaluate.js';
import type { Rule, RuleWindow } from './rules.js';

// What the enforcement keeps in process, least recently used first out. Neither is needed for a right answer: the live
// policies covering an account are read from the database every time, so a policy deleted by another process stops
// applying at once, and whatever the cache lacks is read.
//
// - Compiled policies by id. A policy's rules never change (a change is a new policy; a deletion only sets
//   deleted_at), so what was compiled for an id stays right for ever.
// - What an account's policies needed read at its last judgement (their windowed caps, whether a delay): the next
//   judgement asks for it in the statement that reads the live ids, and reads what else is needed after.

/**
 * A map bounded by the total weight of its values, the least recently used evicted first. A read only stamps the entry
 * (re-inserting into the Map on every read, 100 a judgement, churned its hash table into garbage); past the bound,
 * the oldest stamps go until a tenth of the room is free again.
 */
class Lru<V> {
  private readonly entries = new Map<string, { value: V; weight: number; used: number }>();
  private clock = 0;
  total = 0;
  constructor(private readonly max: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    entry.used = ++this.clock;
    return entry.value;
  }

  set(key: string, value: V, weight = 1): void {
    this.delete(key);
    this.entries.set(key, { value, weight, used: ++this.clock });
    this.total += weight;
    if (this.total <= this.max) return;
    const oldest = [...this.entries].filter(([k]) => k !== key).sort((a, b) => a[1].used - b[1].used);
    for (const [k] of oldest) {
      if (this.total <= this.max * 0.9) break;
      this.delete(k);
    }
  }

  delete(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.total -= old.weight;
  }
}

/**
 * How much the policy cache holds, in rules plus allowed addresses (the bulk of a policy's memory: some 200 bytes an
 * address with its lower-case copy in the Set): 20 to 40 MB at most; 100 policies of 24 rules and addresses weigh 2,400.
 */
export const POLICY_CACHE_WEIGHT = 100_000;
/** Accounts whose needs are kept (a few hundred bytes each). */
export const ACCOUNT_NEEDS_KEPT = 10_000;

const policies = new Lru<CompiledPolicy>(POLICY_CACHE_WEIGHT);

const weightOf = (rules: Rule[]) => rules.reduce((w, r) => w + 1 + (r.type === 'allowed_destinations' ? r.addresses.length : 0), 1);

/** The compiled policy of an id, if held. */
export const cachedPolicy = (id: string): CompiledPolicy | undefined => policies.get(id);

/** Compiles a policy's rules (as stored) and keeps them. */
export function rememberPolicy(id: string, rules: Rule[]): CompiledPolicy {
  const policy = compilePolicy(id, rules);
  policies.set(id, policy, weightOf(rules));
  return policy;
}

/** What the policies covering an account need read: their max_amount rules over a window, and whether one has a delay. */
export interface AccountNeeds {
  /** The covering policies they were worked out from. */
  ids: string[];
  windows: { asset: string; chainId: number; window: Exclude<RuleWindow, 'transaction'> }[];
  delay: boolean;
}

const accounts = new Lru<AccountNeeds>(ACCOUNT_NEEDS_KEPT);

/** An account's needs at its last judgement with a policy, if kept. */
export const lastNeeds = (accountId: string): AccountNeeds | undefined => accounts.get(accountId);

/** Keeps an account's needs, worked out from the compiled policies covering it now (none: forgotten), unless kept already. */
export function rememberNeeds(accountId: string, covering: CompiledPolicy[], last: AccountNeeds | undefined): void {
  if (covering.length === 0) return accounts.delete(accountId);
  if (last && last.ids.length === covering.length && covering.every((p, i) => p.id === last.ids[i])) return;
  const ids = covering.map((p) => p.id);
  const windows = new Map<string, AccountNeeds['windows'][number]>();
  for (const policy of covering) {
    for (const r of policy.rules) if (r.type === 'max_amount' && r.window !== 'transaction') windows.set(`${r.chainId}:${r.asset}:${r.window}`, { asset: r.asset, chainId: r.chainId, window: r.window });
  }
  accounts.set(accountId, { ids, windows: [...windows.values()], delay: covering.some((p) => p.delay) });
}

/** How much is held (tests, benches). */
export const policyCacheSize = (): { policies: number; weight: number; accounts: number } => ({ policies: policies.size, weight: policies.total, accounts: accounts.size });
