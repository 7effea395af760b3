import type { Executor } from '../../db/database.js';
import { findAccount, type AccountRow } from '../../db/repositories/accounts.js';
import { countRoles, deleteMember, findMember, listMembers as listMemberRows, updateMemberRole as setMemberRole, verifiedApprovers } from '../../db/repositories/members.js';
import { findUser } from '../../db/repositories/users.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { checkMemberApproval, requireActingRole, type ActingMemberInput } from './member-action.js';
import { recordMemberEvent } from './member-events.js';
import { toMemberView, type MemberView } from './member-view.js';
import { countsAsApprover, type Role } from './roles.js';

/** The entity account a member operation names: 404 for a missing one or another integrator's, 409 for an individual's. */
export async function entityAccount(db: Executor, integratorId: string, accountId: string, options: { lock?: boolean } = {}): Promise<AccountRow> {
  const account = await findAccount(db, integratorId, accountId, options);
  if (!account) throw notFound('Account');
  if (account.type !== 'entity') throw new ApiError('entity_account_required', 'Members, invitations and approval policies are for entity accounts only');
  return account;
}

export const lastOwner = () => new ApiError('last_owner', 'The account’s last owner can be neither removed nor demoted; make another member owner first');

/**
 * Refuses a change that would leave fewer members who may approve (verified owners and approvers) than the approval
 * policy needs: a transaction could then never be approved (lower requiredApprovals first).
 */
export async function requireQuorumReachable(tx: Executor, account: AccountRow, losing: { userId: string; role: Role }, becoming: Role | null): Promise<void> {
  if (!countsAsApprover(losing.role) || (becoming && countsAsApprover(becoming))) return;
  const approvers = await verifiedApprovers(tx, account.id);
  const remaining = approvers.filter((userId) => userId !== losing.userId).length;
  const required = account.requiredApprovals ?? 1;
  if (remaining < required) {
    throw new ApiError('quorum_unreachable', `The approval policy needs ${required} approvals and only ${remaining} verified member(s) would be left to give them; lower requiredApprovals first`);
  }
}

export async function listMembers(db: Executor, integratorId: string, accountId: string): Promise<{ data: MemberView[] }> {
  await entityAccount(db, integratorId, accountId);
  return { data: (await listMemberRows(db, integratorId, accountId)).map(toMemberView) };
}

export interface UpdateMemberRoleInput extends ActingMemberInput {
  accountId: string;
  userId: string;
  role: Role;
}

async function targetMember(db: Executor, account: AccountRow, userId: string) {
  const member = await findMember(db, account.integratorId, account.id, userId);
  if (!member) throw notFound('Member');
  return member;
}

/** update-member-role (docs/members.md): on behalf of a member whose role allows it; the last owner stays. */
export async function updateMemberRole(ctx: MutationContext, input: UpdateMemberRoleInput): Promise<MemberView> {
  const integratorId = ctx.actor.integratorId;
  const account = await entityAccount(ctx.db.db, integratorId, input.accountId);
  await targetMember(ctx.db.db, account, input.userId);
  const approval = await checkMemberApproval(ctx, account, 'update-member-role', input);
  return runMutation(ctx, async (tx) => {
    // Under the account's lock, member changes of one account happen one at a time (last owner, quorum).
    const locked = await entityAccount(tx, integratorId, input.accountId, { lock: true });
    const target = await targetMember(tx, locked, input.userId);
    await requireActingRole(tx, locked, input.actingUserId!, { kind: 'change_role', from: target.role, to: input.role, self: target.userId === input.actingUserId });
    const user = await findUser(tx, integratorId, target.userId);
    if (target.role === input.role) return toMemberView({ ...target, userInfo: user?.userInfo });
    if (target.role === 'owner' && (await countRoles(tx, locked.id)).owner === 1) throw lastOwner();
    await requireQuorumReachable(tx, locked, target, input.role);
    const updated = (await setMemberRole(tx, locked.id, target.userId, input.role, ctx.now))!;
    await approval.use(tx, locked.id);
    const view = toMemberView({ ...updated, userInfo: user?.userInfo });
    await recordMemberEvent(tx, integratorId, 'member.role_changed', view, ctx.now, { role: target.role });
    return view;
  });
}

export interface RemoveMemberInput extends ActingMemberInput {
  accountId: string;
  userId: string;
}

/** remove-member (docs/members.md): answers the member as it was. */
export async function removeMember(ctx: MutationContext, input: RemoveMemberInput): Promise<MemberView> {
  const integratorId = ctx.actor.integratorId;
  const account = await entityAccount(ctx.db.db, integratorId, input.accountId);
  await targetMember(ctx.db.db, account, input.userId);
  const approval = await checkMemberApproval(ctx, account, 'remove-member', input);
  return runMutation(ctx, async (tx) => {
    const locked = await entityAccount(tx, integratorId, input.accountId, { lock: true });
    const target = await targetMember(tx, locked, input.userId);
    await requireActingRole(tx, locked, input.actingUserId!, { kind: 'remove', role: target.role, self: target.userId === input.actingUserId });
    if (target.role === 'owner' && (await countRoles(tx, locked.id)).owner === 1) throw lastOwner();
    await requireQuorumReachable(tx, locked, target, null);
    await deleteMember(tx, locked.id, target.userId);
    await approval.use(tx, locked.id);
    const user = await findUser(tx, integratorId, target.userId);
    const view = toMemberView({ ...target, userInfo: user?.userInfo });
    await recordMemberEvent(tx, integratorId, 'member.removed', view, ctx.now);
    return view;
  });
}
