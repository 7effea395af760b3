/**
 * The rule types of a spending policy (docs/policies.md), as a request writes them and as they are stored. The HTTP
 * schemas (src/http/schemas/policies.ts) are built from these constants, so a new type or window is added here once.
 */
export const RULE_TYPES = ['max_amount', 'allowed_destinations', 'new_destination_delay', 'require_approvals', 'expression'] as const;
export type RuleType = (typeof RULE_TYPES)[number];

/** `transaction`: each transaction alone; `24h` and `7d`: rolling windows ending at the transaction, it included. */
export const WINDOWS = ['transaction', '24h', '7d'] as const;
export type RuleWindow = (typeof WINDOWS)[number];

/** The rolling windows' lengths; `transaction` has none. */
export const WINDOW_MS: Record<Exclude<RuleWindow, 'transaction'>, number> = { '24h': 24 * 3_600_000, '7d': 7 * 24 * 3_600_000 };

/** Bounds a request may use: enough for any real policy, small enough that evaluating 100 policies stays cheap. */
export const LIMITS = { rules: 20, addresses: 500, hours: 8_760, approvals: 20 } as const;

/** An amount of an asset: `asset` a TOKENS symbol or the chain's native coin, `amount` in its units (a decimal string). */
export interface AssetAmountInput {
  asset: string;
  chainId: number;
  amount: string;
}

export type RuleInput =
  | ({ type: 'max_amount'; window: RuleWindow } & AssetAmountInput)
  | { type: 'allowed_destinations'; addresses: string[] }
  | { type: 'new_destination_delay'; hours: number }
  | { type: 'require_approvals'; above: AssetAmountInput; approvals: number }
  | ExpressionRule;

/** A CEL expression over the transaction's facts (expression.ts): true allows, false or an error refuses. */
export interface ExpressionRule {
  type: 'expression';
  expression: string;
  /** What the rule is for, shown back and named in a refusal. */
  description?: string;
}

/** An amount as stored and shown: the asset as TOKENS spells it, and the amount in base units beside the decimal. */
export interface AssetAmount extends AssetAmountInput {
  amountRaw: string;
}

/** A rule as stored (the `rules` jsonb) and shown: assets resolved, amounts also in base units, addresses in lower case. */
export type Rule =
  | ({ type: 'max_amount'; window: RuleWindow } & AssetAmount)
  | { type: 'allowed_destinations'; addresses: string[] }
  | { type: 'new_destination_delay'; hours: number }
  | { type: 'require_approvals'; above: AssetAmount; approvals: number }
  | ExpressionRule;

/** The largest new_destination_delay of some policies' rules, in hours (0 without one): what an address book entry waits. */
export function largestDelayHours(rules: Iterable<Rule>): number {
  let hours = 0;
  for (const rule of rules) if (rule.type === 'new_destination_delay' && rule.hours > hours) hours = rule.hours;
  return hours;
}
