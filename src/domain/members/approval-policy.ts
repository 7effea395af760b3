import type { Executor } from '../../db/database.js';
import { findAccount, setRequiredApprovals } from '../../db/repositories/accounts.js';
import { verifiedApprovers } from '../../db/repositories/members.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { recordEvent } from '../events/record-event.js';
import { checkMemberApproval, requireActingRole, type ActingMemberInput } from './member-action.js';
import { entityAccount } from './members.js';

/** get-approval-policy (docs/members.md#approval-policy). */
export interface ApprovalPolicyView {
  accountId: string;
  /** Distinct approvals a transaction from the account's wallet needs: 0 self-custodial, 1 individual, 1..approvers entity. */
  requiredApprovals: number;
  /** Members who may approve now (owners and approvers whose user is verified); null for individual accounts. */
  approvers: number | null;
}

export async function getApprovalPolicy(db: Executor, integratorId: string, accountId: string): Promise<ApprovalPolicyView> {
  const account = await findAccount(db, integratorId, accountId);
  if (!account) throw notFound('Account');
  if (account.custody === 'self_custodial') return { accountId, requiredApprovals: 0, approvers: null };
  if (account.type !== 'entity') return { accountId, requiredApprovals: 1, approvers: null };
  return { accountId, requiredApprovals: account.requiredApprovals ?? 1, approvers: (await verifiedApprovers(db, account.id)).length };
}

export interface UpdateApprovalPolicyInput extends ActingMemberInput {
  accountId: string;
  requiredApprovals: number;
}

/** update-approval-policy: owners only, 1..the number of verified approvers; self-custodial and individual accounts refuse. */
export async function updateApprovalPolicy(ctx: MutationContext, input: UpdateApprovalPolicyInput): Promise<ApprovalPolicyView> {
  const integratorId = ctx.actor.integratorId;
  const account = await findAccount(ctx.db.db, integratorId, input.accountId);
  if (!account) throw notFound('Account');
  if (account.custody === 'self_custodial') throw new ApiError('self_custodial_account', 'A self-custodial account’s transactions are signed by its end user: it has no approval policy (requiredApprovals 0)');
  await entityAccount(ctx.db.db, integratorId, input.accountId);
  const approval = await checkMemberApproval(ctx, account, 'update-approval-policy', input);
  return runMutation(ctx, async (tx) => {
    const locked = await entityAccount(tx, integratorId, input.accountId, { lock: true });
    await requireActingRole(tx, locked, input.actingUserId!, { kind: 'update_policy' });
    const approvers = (await verifiedApprovers(tx, locked.id)).length;
    if (input.requiredApprovals > approvers) {
      throw new ApiError('quorum_unreachable', `requiredApprovals ${input.requiredApprovals} is more than the ${approvers} member(s) who may approve (verified owners and approvers)`);
    }
    const before = locked.requiredApprovals ?? 1;
    const view = { accountId: locked.id, requiredApprovals: input.requiredApprovals, approvers };
    if (before === input.requiredApprovals) return view;
    await setRequiredApprovals(tx, locked.id, input.requiredApprovals, ctx.now);
    await approval.use(tx, locked.id);
    await recordEvent(tx, { integratorId, type: 'account.approval_policy_updated', objectType: 'account', objectId: locked.id, object: view, previousAttributes: { requiredApprovals: before }, at: ctx.now });
    return view;
  });
}
