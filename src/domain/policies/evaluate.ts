import { compileExpression, expressionRefuses, type CompiledExpression } from './expression.js';
import type { PolicyAsset } from './policy-assets.js';
import type { Rule, RuleWindow } from './rules.js';
import type { SpendFacts } from './spend-facts.js';

// The evaluation of spending policies (docs/policies.md#enforcement): a pure function of the policies covering the
// account, the transaction's facts and what the database said (window sums, destinations' standing). Every policy
// applies and deny wins: the first refusing rule, in policy then rule order, is the answer.

export interface EvaluatedPolicy {
  id: string;
  rules: Rule[];
}

/**
 * A policy as the evaluation reads it: its rules and what they need worked out once (a policy never changes, so the
 * enforcement keeps this by id, src/domain/policies/policy-cache.ts).
 */
export interface CompiledPolicy extends EvaluatedPolicy {
  /** Per rule index: an allowed_destinations rule's addresses in lower case; undefined for the other rules. */
  allowed: (ReadonlySet<string> | undefined)[];
  /** Per rule index: a max_amount rule's cap in base units; undefined for the other rules. */
  caps: (bigint | undefined)[];
  /** It has a new_destination_delay rule (the destinations' standing is read). */
  delay: boolean;
  /** Per rule index: an expression rule's parsed CEL; undefined for the other rules. */
  expressions: (CompiledExpression | undefined)[];
}

/** The compiled form of a policy's rules. */
export function compilePolicy(id: string, rules: Rule[]): CompiledPolicy {
  return {
    id,
    rules,
    allowed: rules.map((r) => (r.type === 'allowed_destinations' ? new Set(r.addresses.map((a) => a.toLowerCase())) : undefined)),
    caps: rules.map((r) => (r.type === 'max_amount' ? BigInt(r.amountRaw) : undefined)),
    delay: rules.some((r) => r.type === 'new_destination_delay'),
    expressions: rules.map((r) => (r.type === 'expression' ? compileExpression(r.expression) : undefined)),
  };
}

/** Where a destination stands for new_destination_delay. */
export type DestinationStanding = { kind: 'used_before' } | { kind: 'address_book'; usableAt: Date } | { kind: 'new' };

export interface EvaluationInput {
  policies: CompiledPolicy[];
  facts: SpendFacts;
  now: Date;
  /** A rule's asset on the transaction's chain (undefined: another chain, or no longer listed: the rule does not apply). */
  assetOf(rule: { asset: string; chainId: number }): PolicyAsset | undefined;
  /** Base units of an asset reserved in the window before this transaction. */
  spent(asset: string, window: Exclude<RuleWindow, 'transaction'>): bigint;
  standing(destination: string): DestinationStanding;
  /** What an expression rule sees (expression.ts `expressionContext`), built when the first one is judged. */
  expressionContext(): Record<string, unknown>;
}

export interface Denial {
  policyId: string;
  ruleIndex: number;
  ruleType: Rule['type'];
  detail: string;
  /** new_destination_delay: destinations seen for the first time, to enter in the address book (usable after the delay). */
  firstUsed?: { address: string; usableAt: Date }[];
}

/** Windows and assets whose sums the evaluation reads: the max_amount rules with a window on the transaction's outflows. */
export function windowsNeeded(input: Pick<EvaluationInput, 'policies' | 'facts' | 'assetOf'>): { asset: string; window: Exclude<RuleWindow, 'transaction'> }[] {
  const needed = new Map<string, { asset: string; window: Exclude<RuleWindow, 'transaction'> }>();
  for (const policy of input.policies) {
    for (const rule of policy.rules) {
      if (rule.type !== 'max_amount' || rule.window === 'transaction' || rule.chainId !== input.facts.chainId) continue;
      const asset = input.assetOf(rule)?.key;
      if (asset && input.facts.outflows.has(asset)) needed.set(`${asset}:${rule.window}`, { asset, window: rule.window });
    }
  }
  return [...needed.values()];
}

/** Whether any rule asks where the transaction sends (so the caller reads the destinations' standing). */
export const needsStanding = (policies: CompiledPolicy[]): boolean => policies.some((p) => p.delay);

const deny = (policy: EvaluatedPolicy, ruleIndex: number, rule: Rule, detail: string, firstUsed?: Denial['firstUsed']): Denial => ({
  policyId: policy.id,
  ruleIndex,
  ruleType: rule.type,
  detail,
  ...(firstUsed ? { firstUsed } : {}),
});

/** The first refusing rule, or undefined when every policy allows the transaction. */
export function evaluatePolicies(input: EvaluationInput): Denial | undefined {
  const { facts } = input;
  let context: Record<string, unknown> | undefined;
  for (const policy of input.policies) {
    for (let ruleIndex = 0; ruleIndex < policy.rules.length; ruleIndex++) {
      const rule = policy.rules[ruleIndex]!;
      switch (rule.type) {
        case 'max_amount': {
          if (rule.chainId !== facts.chainId) break;
          const asset = input.assetOf(rule);
          const amount = asset ? (facts.outflows.get(asset.key) ?? 0n) : 0n;
          if (!asset || amount === 0n) break;
          const before = rule.window === 'transaction' ? 0n : input.spent(asset.key, rule.window);
          // An amount equal to the cap is allowed; one base unit over is not.
          if (before + amount > policy.caps[ruleIndex]!) {
            const over = rule.window === 'transaction' ? 'in one transaction' : `over ${rule.window} (${before} base units already)`;
            return deny(policy, ruleIndex, rule, `${amount} base units of ${asset.symbol} would exceed the cap of ${rule.amount} ${asset.symbol} ${over}`);
          }
          break;
        }
        case 'allowed_destinations': {
          const allowed = policy.allowed[ruleIndex]!;
          const outside = facts.destinations.find((d) => !allowed.has(d));
          if (outside) return deny(policy, ruleIndex, rule, `${outside} is not among the allowed destinations`);
          break;
        }
        case 'new_destination_delay': {
          const waiting: { address: string; usableAt: Date }[] = [];
          for (const destination of facts.destinations) {
            const standing = input.standing(destination);
            if (standing.kind === 'used_before') continue;
            if (standing.kind === 'address_book') {
              if (standing.usableAt.getTime() > input.now.getTime()) return deny(policy, ruleIndex, rule, `${destination} is usable from ${standing.usableAt.toISOString()} (a new destination waits ${rule.hours} h)`);
              continue;
            }
            waiting.push({ address: destination, usableAt: new Date(input.now.getTime() + rule.hours * 3_600_000) });
          }
          if (waiting.length > 0) return deny(policy, ruleIndex, rule, `${waiting[0]!.address} was never sent to: usable from ${waiting[0]!.usableAt.toISOString()} (a new destination waits ${rule.hours} h)`, waiting);
          break;
        }
        case 'require_approvals':
          // A step-up of an entity's quorum, not a refusal (step-up.ts, docs/policies.md#step-up).
          break;
        case 'expression': {
          context ??= input.expressionContext();
          const refusal = expressionRefuses(policy.expressions[ruleIndex]!, context);
          if (refusal) return deny(policy, ruleIndex, rule, rule.description ? `${rule.description}: ${refusal}` : refusal);
          break;
        }
      }
    }
  }
  return undefined;
}
