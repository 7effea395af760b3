import type { Executor, Tx } from '../../db/database.js';
import { findAccount } from '../../db/repositories/accounts.js';
import * as repo from '../../db/repositories/policies.js';
import { runMutation, type MutationContext } from '../context.js';
import { checkMemberApproval, requireActingRole, type ActingMemberInput } from '../members/member-action.js';
import { ApiError, invalidFields, notFound } from '../errors.js';
import { recordEvent } from '../events/record-event.js';
import { newId } from '../ids.js';
import { checkRules, type Coverage } from './check-rules.js';
import type { PolicyAssets } from './policy-assets.js';
import { toPolicyView, type PolicyView } from './policy-view.js';
import type { RuleInput } from './rules.js';

export interface CreatePolicyInput {
  /** Absent: the policy covers every account of the integrator, present and future. */
  accountId?: string;
  rules: RuleInput[];
}

/**
 * create-policy (docs/policies.md): the account (if named) must be the integrator's, the rules must check out
 * (checkRules: every problem at its field); then the policy, its audit row and `policy.created` commit together.
 */
export async function createPolicy(ctx: MutationContext, assets: PolicyAssets, input: CreatePolicyInput): Promise<PolicyView> {
  const integratorId = ctx.actor.integratorId;
  let coverage: Coverage = null;
  if (input.accountId !== undefined) {
    // An account's type never changes, so reading it before the transaction is as good as inside it.
    const account = await findAccount(ctx.db.db, integratorId, input.accountId);
    if (!account) throw notFound('Account');
    coverage = { accountType: account.type };
  }
  const checked = checkRules(input.rules, assets, coverage);
  if ('errors' in checked) throw invalidFields(checked.errors);

  return runMutation(ctx, async (tx) => {
    const row = await repo.insertPolicy(tx, { id: newId(), integratorId, accountId: input.accountId ?? null, rules: checked.rules, createdAt: ctx.now });
    return recordPolicyChange(tx, ctx, row, 'created');
  });
}

export async function getPolicy(db: Executor, integratorId: string, policyId: string): Promise<PolicyView> {
  const row = await repo.findPolicy(db, integratorId, policyId);
  if (!row) throw notFound('Policy');
  return toPolicyView(row);
}

/** The integrator's policies in force, oldest first (cursor: the last policyId of the page); `accountId`: that account's own only. */
export async function listPolicies(db: Executor, integratorId: string, options: { limit: number; startingAfter?: string; accountId?: string }): Promise<{ data: PolicyView[]; hasMore: boolean }> {
  if (options.accountId !== undefined && !(await findAccount(db, integratorId, options.accountId))) throw notFound('Account');
  if (options.startingAfter !== undefined && !(await repo.findPolicy(db, integratorId, options.startingAfter))) throw notFound('Policy startingAfter');
  const rows = await repo.listLivePolicies(db, integratorId, options);
  return { data: rows.slice(0, options.limit).map(toPolicyView), hasMore: rows.length > options.limit };
}

const ACTING_FIELDS = ['actingUserId', 'signedBody', 'webAuthnStamp', 'approvalToken'] as const;

/**
 * delete-policy: a soft delete (the row stays, for the record of what was in force); 409 policy_deleted the second
 * time. Lifting the policy of an entity account loosens its limits, so it takes one of its owners' approval like any
 * member action (docs/policies.md#who-may-change-a-policy): a leaked integrator key alone cannot lift them. An
 * individual account's or an integrator-wide policy has no owners to ask: the credential alone deletes it.
 */
export async function deletePolicy(ctx: MutationContext, policyId: string, input: ActingMemberInput = {}): Promise<PolicyView> {
  const integratorId = ctx.actor.integratorId;
  const found = await repo.findPolicy(ctx.db.db, integratorId, policyId);
  if (!found) throw notFound('Policy');
  // A retry after a lost answer learns it is done before being asked for an approval it no longer needs.
  if (found.deletedAt) throw alreadyDeleted(found);
  // An account's type never changes: read before the transaction, as createPolicy does.
  const account = found.accountId === null ? undefined : await findAccount(ctx.db.db, integratorId, found.accountId);
  const entity = account?.type === 'entity' ? account : undefined;
  if (!entity) refuseActingFields(input);
  // policyId (from the path) is in the signed parameters: a stamp for one policy cannot delete another.
  const signed: ActingMemberInput & { policyId: string } = { ...input, policyId };
  const approval = entity ? await checkMemberApproval(ctx, entity, 'delete-policy', signed) : undefined;
  return runMutation(ctx, async (tx) => {
    if (entity) {
      // The account's lock orders this after a concurrent change of the acting member's role (members.ts takes it too).
      await findAccount(tx, integratorId, entity.id, { lock: true });
      await requireActingRole(tx, entity, input.actingUserId!, { kind: 'delete_spending_policy' });
    }
    const row = await repo.findPolicy(tx, integratorId, policyId, { lock: true });
    if (!row) throw notFound('Policy');
    const deleted = await repo.markPolicyDeleted(tx, row.id, ctx.now);
    if (!deleted) throw alreadyDeleted(row);
    await approval?.use(tx, row.id);
    return recordPolicyChange(tx, ctx, deleted, 'deleted', entity ? input.actingUserId! : null);
  });
}

const alreadyDeleted = (row: repo.PolicyRow) => new ApiError('policy_deleted', `Policy ${row.id} was deleted at ${row.deletedAt!.toISOString()}`);

/** An approval nobody asked for is refused rather than ignored: no audit row may name a member who approved nothing. */
function refuseActingFields(input: ActingMemberInput): void {
  const given = ACTING_FIELDS.filter((f) => input[f] !== undefined);
  if (given.length === 0) return;
  throw invalidFields(given.map((f) => ({ pointer: `/${f}`, code: 'not_allowed', detail: `${f} is for a policy of an entity account; this policy is deleted by the integrator alone (docs/policies.md)`, in: 'body' as const })));
}

/** The audit row (who, which credential) and the event of a policy's creation or deletion, in the change's transaction. */
async function recordPolicyChange(tx: Tx, ctx: MutationContext, row: repo.PolicyRow, action: 'created' | 'deleted', actingUserId: string | null = null): Promise<PolicyView> {
  const { actor } = ctx;
  await repo.insertPolicyChange(tx, {
    id: newId(),
    integratorId: row.integratorId,
    policyId: row.id,
    action,
    actorType: actor.kind,
    actorId: actor.credentialId ?? null,
    actingUserId,
    createdAt: ctx.now,
  });
  const object = toPolicyView(row);
  await recordEvent(tx, { integratorId: row.integratorId, type: `policy.${action}`, objectType: 'policy', objectId: row.id, object, at: ctx.now });
  return object;
}
