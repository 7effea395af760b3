import type { Executor } from '../../db/database.js';
import { policiesCovering } from '../../db/repositories/policies.js';
import type { SpendingDeps, SpendSubject } from './enforce.js';
import type { EvaluatedPolicy } from './evaluate.js';
import type { PolicyAsset } from './policy-assets.js';
import type { Rule } from './rules.js';
import { spendFacts, type SpendFacts } from './spend-facts.js';

// require_approvals (docs/policies.md#step-up): above an amount, an entity's transaction needs more member approvals
// than its account's quorum. Not a refusal: the transaction waits in `created` until that many members approved.

/**
 * The approvals the policies ask of a transaction: the largest `approvals` among the require_approvals rules whose
 * amount the transaction's outflow in that asset exceeds (an amount equal to it is not above it); 0 when none does.
 */
export function stepUpApprovals(policies: EvaluatedPolicy[], facts: SpendFacts, assetOf: (rule: { asset: string; chainId: number }) => PolicyAsset | undefined): number {
  let approvals = 0;
  for (const policy of policies) {
    for (const rule of policy.rules) {
      if (rule.type !== 'require_approvals' || rule.approvals <= approvals || rule.above.chainId !== facts.chainId) continue;
      const asset = assetOf(rule.above);
      if (asset && (facts.outflows.get(asset.key) ?? 0n) > BigInt(rule.above.amountRaw)) approvals = rule.approvals;
    }
  }
  return approvals;
}

/** The step-up the policies covering the subject's account ask of it now (0: none). */
export async function stepUpFor(db: Executor, deps: SpendingDeps, subject: SpendSubject): Promise<number> {
  const rows = await policiesCovering(db, subject.integratorId, subject.accountId);
  const policies: EvaluatedPolicy[] = rows.map((r) => ({ id: r.id, rules: r.rules as Rule[] })).filter((p) => p.rules.some((r) => r.type === 'require_approvals'));
  if (policies.length === 0) return 0;
  const facts = spendFacts(subject.unsigned, subject.walletAddress, deps.tokens);
  return stepUpApprovals(policies, facts, (rule) => deps.assets.find(rule.chainId, rule.asset));
}
