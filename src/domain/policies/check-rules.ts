import { parseUnits } from 'viem';
import type { FieldError } from '../errors.js';
import { expressionProblem } from './expression.js';
import type { PolicyAssets } from './policy-assets.js';
import type { AssetAmount, AssetAmountInput, Rule, RuleInput } from './rules.js';

/** Whom the policy covers: one account (its type decides require_approvals) or all the integrator's (null). */
export type Coverage = { accountType: 'individual' | 'entity' } | null;

/** 78 digits: no base-unit amount beyond that fits in a uint256, so none can be a meaningful cap. */
const MAX_DIGITS = 78;

/**
 * What the schema cannot check about a policy's rules: each asset exists on its chain (TOKENS or the chain's native
 * coin), each amount has no more decimals than its asset, an individual account asks for at most 1 approval, and an
 * expression parses and type-checks as a boolean.
 * Every problem is reported at once, each at its field (`/rules/<i>/...`); otherwise the rules as stored: assets
 * spelled as configured, amounts also in base units, addresses in lower case and once each.
 */
export function checkRules(rules: readonly RuleInput[], assets: PolicyAssets, coverage: Coverage): { rules: Rule[] } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const checked = rules.map((rule, i): Rule | undefined => {
    const at = `/rules/${i}`;
    switch (rule.type) {
      case 'max_amount': {
        const { type, window, ...amount } = rule;
        const resolved = assetAmount(amount, assets, at, errors);
        return resolved && { type, ...resolved, window };
      }
      case 'allowed_destinations':
        return { type: rule.type, addresses: [...new Set(rule.addresses.map((a) => a.toLowerCase()))] };
      case 'new_destination_delay':
        return { type: rule.type, hours: rule.hours };
      case 'require_approvals': {
        // An individual account has one person to approve: a step-up to more could never be met.
        if (coverage?.accountType === 'individual' && rule.approvals > 1) {
          errors.push({ pointer: `${at}/approvals`, code: 'individual_account', detail: 'must be 1 on an individual account: only its owner approves its transactions', in: 'body' });
        }
        const above = assetAmount(rule.above, assets, `${at}/above`, errors);
        return above && { type: rule.type, above, approvals: rule.approvals };
      }
      case 'expression': {
        const problem = expressionProblem(rule.expression);
        if (problem) errors.push({ pointer: `${at}/expression`, code: 'invalid_expression', detail: problem, in: 'body' });
        return { type: rule.type, expression: rule.expression, ...(rule.description === undefined ? {} : { description: rule.description }) };
      }
    }
  });
  return errors.length > 0 ? { errors } : { rules: checked as Rule[] };
}

/** An asset and amount resolved, or undefined with its problems added to `errors`. */
function assetAmount(input: AssetAmountInput, assets: PolicyAssets, at: string, errors: FieldError[]): AssetAmount | undefined {
  if (!assets.hasChain(input.chainId)) {
    const known = assets.chainIds();
    errors.push({ pointer: `${at}/chainId`, code: 'unsupported_chain', detail: `is not a chain of this deployment (${known.length > 0 ? `supported: ${known.join(', ')}` : 'none is configured'})`, in: 'body' });
    return undefined;
  }
  const asset = assets.find(input.chainId, input.asset);
  if (!asset) {
    errors.push({ pointer: `${at}/asset`, code: 'unknown_asset', detail: `is neither the native coin nor a token listed on chain ${input.chainId} (${assets.listed(input.chainId).join(', ')})`, in: 'body' });
    return undefined;
  }
  const raw = baseUnits(input.amount, asset.decimals);
  if (typeof raw !== 'bigint') {
    errors.push({ pointer: `${at}/amount`, ...raw, in: 'body' });
    return undefined;
  }
  return { asset: asset.symbol, chainId: input.chainId, amount: input.amount, amountRaw: raw.toString() };
}

/** A decimal string (the schema's pattern) in base units, exactly, or why not. */
export function baseUnits(amount: string, decimals: number): bigint | { code: string; detail: string } {
  const [whole = '', fraction = ''] = amount.split('.');
  if (fraction.length > decimals) return { code: 'too_many_decimals', detail: `has at most ${decimals} decimals for this asset` };
  if (whole.replace(/^0+(?=.)/, '').length + decimals > MAX_DIGITS) return { code: 'out_of_range', detail: 'is too large' };
  return parseUnits(amount, decimals);
}
