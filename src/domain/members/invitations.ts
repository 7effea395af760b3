import type { Executor, Tx } from '../../db/database.js';
import type { AccountRow } from '../../db/repositories/accounts.js';
import {
  findInvitation,
  findPendingInvitationTo,
  insertInvitation,
  listInvitations as listInvitationRows,
  updatePendingInvitation,
  type InvitationRow,
} from '../../db/repositories/invitations.js';
import { countRoles, listMembers } from '../../db/repositories/members.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, invalidFields, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { isEmail } from '../onboarding/validation/formats.js';
import { invitationContext, invitationLink, invitationMessage, queueMail, requireDelivery, type InvitationDelivery } from './invitation-mail.js';
import { INVITATION_TTL_MS, invitationTokenHash, newInvitationToken } from './invitation-token.js';
import { recordInvitationEvent, toInvitationView, type InvitationView } from './invitation-view.js';
import { checkMemberApproval, requireActingRole, roleNotAllowed, type ActingMemberInput, type MemberApproval } from './member-action.js';
import { entityAccount } from './members.js';
import type { Role } from './roles.js';

/** docs/invitations.md: an invitation is emailed at most this many times, and not twice within the interval. */
export const MAX_SENDS = 5;
export const RESEND_INTERVAL_MS = 60_000;

export async function listInvitations(db: Executor, integratorId: string, accountId: string): Promise<{ data: InvitationView[] }> {
  await entityAccount(db, integratorId, accountId);
  return { data: (await listInvitationRows(db, integratorId, accountId)).map(toInvitationView) };
}

const hasActingFields = (input: ActingMemberInput) => [input.actingUserId, input.signedBody, input.webAuthnStamp, input.approvalToken].some((v) => v !== undefined);

/**
 * Who may change invitations of `role` (docs/invitations.md#who-may-invite): while the account has no owner, the
 * integrator alone (no acting member) and only for role owner; otherwise an acting member whose role may invite
 * that role, with their approval of this very request. Returns the approval to use up (none for the integrator).
 */
async function authorise(ctx: MutationContext, account: AccountRow, operation: string, input: ActingMemberInput, role: Role): Promise<MemberApproval | undefined> {
  if (!hasActingFields(input) && (await countRoles(ctx.db.db, account.id)).owner === 0) {
    if (role !== 'owner') throw roleNotAllowed('While the account has no owner, the integrator alone may only invite its owner (role owner)');
    return undefined;
  }
  return checkMemberApproval(ctx, account, operation, input);
}

/** The same rule under the account's lock: the owner-less state may have ended, and the acting role may have changed. */
async function recheck(tx: Tx, account: AccountRow, input: ActingMemberInput, approval: MemberApproval | undefined, role: Role): Promise<void> {
  if (approval) {
    await requireActingRole(tx, account, input.actingUserId!, { kind: 'invite', role });
  } else if ((await countRoles(tx, account.id)).owner > 0) {
    throw invalidFields([{ pointer: '/actingUserId', code: 'required', detail: 'actingUserId is required: the account has an owner now (docs/invitations.md)', in: 'body' }]);
  }
}

export interface CreateInvitationInput extends ActingMemberInput {
  accountId: string;
  email: string;
  role: Role;
}

/** create-invitation (docs/invitations.md): a pending invitation, its sealed email queued, invitation.created. */
export async function createInvitation(ctx: MutationContext, delivery: InvitationDelivery, input: CreateInvitationInput): Promise<InvitationView> {
  const { status: mailStatus, baseUrl } = requireDelivery(delivery);
  if (!isEmail(input.email)) throw invalidFields([{ pointer: '/email', code: 'invalid_email', detail: 'email must be an e-mail address like name@example.com', in: 'body' }]);
  const integratorId = ctx.actor.integratorId;
  const account = await entityAccount(ctx.db.db, integratorId, input.accountId);
  const approval = await authorise(ctx, account, 'create-invitation', input, input.role);
  return runMutation(ctx, async (tx) => {
    const locked = await entityAccount(tx, integratorId, input.accountId, { lock: true });
    await recheck(tx, locked, input, approval, input.role);
    const members = await listMembers(tx, integratorId, locked.id);
    if (members.some((m) => ((m.userInfo as { email?: string } | null)?.email ?? '').toLowerCase() === input.email.toLowerCase())) {
      throw new ApiError('already_member', 'A member of this account already has this email address');
    }
    // A new invitation to the same address replaces the pending one (its link stops working): one live link per person.
    const previous = await findPendingInvitationTo(tx, locked.id, input.email);
    if (previous) {
      if (approval) await requireActingRole(tx, locked, input.actingUserId!, { kind: 'invite', role: previous.role });
      const revoked = await updatePendingInvitation(tx, previous.id, { status: 'revoked', updatedAt: ctx.now });
      if (revoked) await recordInvitationEvent(tx, 'invitation.revoked', revoked, ctx.now);
    }
    const token = newInvitationToken();
    const expiresAt = new Date(ctx.now.getTime() + INVITATION_TTL_MS);
    const row = await insertInvitation(tx, {
      id: newId(),
      integratorId,
      accountId: locked.id,
      email: input.email,
      role: input.role,
      tokenHash: invitationTokenHash(ctx.secrets, token),
      status: 'pending',
      expiresAt,
      invitedByUserId: approval ? input.actingUserId! : null,
      sentCount: 1,
      lastSentAt: ctx.now,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
    await mailInvitation(ctx, tx, locked, row, token, { status: mailStatus, baseUrl });
    await approval?.use(tx, row.id);
    return recordInvitationEvent(tx, 'invitation.created', row, ctx.now);
  });
}

async function mailInvitation(ctx: MutationContext, tx: Tx, account: AccountRow, row: InvitationRow, token: string, via: { status: 'pending' | 'held'; baseUrl: string }): Promise<void> {
  const about = await invitationContext(tx, account, row.invitedByUserId);
  const message = invitationMessage(about, row.role, row.expiresAt, invitationLink(via.baseUrl, token));
  await queueMail(tx, ctx.secrets, { integratorId: row.integratorId, subjectId: row.id, recipient: row.email, ...message, status: via.status, at: ctx.now });
}

export const notPending = (row: InvitationRow) => new ApiError('invitation_not_pending', `The invitation was ${row.status}`);
export const invitationExpired = () => new ApiError('invitation_expired', 'The invitation expired: ask for a new one');

/**
 * An invitation that can still change: 409 when accepted or revoked, 410 when expired. A pending one past its date
 * is expired on the spot (with its event, in its own transaction) so the refusal and the record agree.
 */
export async function requireOpen(ctx: Pick<MutationContext, 'db' | 'now'>, row: InvitationRow): Promise<void> {
  if (row.status === 'expired') throw invitationExpired();
  if (row.status !== 'pending') throw notPending(row);
  if (row.expiresAt.getTime() <= ctx.now.getTime()) {
    await expireInvitation(ctx.db.db, row.integratorId, row.id, ctx.now);
    throw invitationExpired();
  }
}

/** Expires one pending invitation past its date, with invitation.expired; false when it was not (any more). */
export async function expireInvitation(db: Executor, integratorId: string, invitationId: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const row = await findInvitation(tx, integratorId, invitationId, { lock: true });
    if (!row || row.status !== 'pending' || row.expiresAt.getTime() > now.getTime()) return false;
    const expired = await updatePendingInvitation(tx, row.id, { status: 'expired', updatedAt: now });
    if (expired) await recordInvitationEvent(tx, 'invitation.expired', expired, now);
    return Boolean(expired);
  });
}

export interface InvitationChangeInput extends ActingMemberInput {
  invitationId: string;
}

async function changeablePending(ctx: MutationContext, input: InvitationChangeInput, operation: string): Promise<{ row: InvitationRow; account: AccountRow; approval: MemberApproval | undefined }> {
  const row = await findInvitation(ctx.db.db, ctx.actor.integratorId, input.invitationId);
  if (!row) throw notFound('Invitation');
  const account = await entityAccount(ctx.db.db, ctx.actor.integratorId, row.accountId);
  await requireOpen(ctx, row);
  return { row, account, approval: await authorise(ctx, account, operation, input, row.role) };
}

/** Under the account's lock: the invitation again, still pending and within its date, and the actor still allowed. */
async function lockedPending(ctx: MutationContext, tx: Tx, input: InvitationChangeInput, approval: MemberApproval | undefined): Promise<{ row: InvitationRow; account: AccountRow }> {
  const row = (await findInvitation(tx, ctx.actor.integratorId, input.invitationId))!;
  const account = await entityAccount(tx, ctx.actor.integratorId, row.accountId, { lock: true });
  const current = (await findInvitation(tx, ctx.actor.integratorId, input.invitationId, { lock: true }))!;
  if (current.status !== 'pending') throw current.status === 'expired' ? invitationExpired() : notPending(current);
  if (current.expiresAt.getTime() <= ctx.now.getTime()) throw invitationExpired();
  await recheck(tx, account, input, approval, current.role);
  return { row: current, account };
}

/** revoke-invitation: a pending invitation stops working (invitation.revoked). */
export async function revokeInvitation(ctx: MutationContext, input: InvitationChangeInput): Promise<InvitationView> {
  const { approval } = await changeablePending(ctx, input, 'revoke-invitation');
  return runMutation(ctx, async (tx) => {
    const { row } = await lockedPending(ctx, tx, input, approval);
    const revoked = (await updatePendingInvitation(tx, row.id, { status: 'revoked', updatedAt: ctx.now }))!;
    await approval?.use(tx, row.id);
    return recordInvitationEvent(tx, 'invitation.revoked', revoked, ctx.now);
  });
}

const seconds = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));

/** resend-invitation: a new token (the old link stops working), 7 more days, a new email; 5 sends, 60 s apart. */
export async function resendInvitation(ctx: MutationContext, delivery: InvitationDelivery, input: InvitationChangeInput): Promise<InvitationView> {
  const via = requireDelivery(delivery);
  const { approval } = await changeablePending(ctx, input, 'resend-invitation');
  return runMutation(ctx, async (tx) => {
    const { row, account } = await lockedPending(ctx, tx, input, approval);
    if (row.sentCount >= MAX_SENDS) throw new ApiError('invitation_resend_limited', `The invitation was sent ${MAX_SENDS} times already; revoke it and invite again`);
    const wait = row.lastSentAt.getTime() + RESEND_INTERVAL_MS - ctx.now.getTime();
    if (wait > 0) {
      throw new ApiError('invitation_resend_limited', `The invitation was sent less than ${RESEND_INTERVAL_MS / 1000} s ago; retry in ${seconds(wait)} s`, { headers: { 'retry-after': seconds(wait) } });
    }
    const token = newInvitationToken();
    const updated = (await updatePendingInvitation(tx, row.id, {
      tokenHash: invitationTokenHash(ctx.secrets, token),
      sentCount: row.sentCount + 1,
      lastSentAt: ctx.now,
      expiresAt: new Date(ctx.now.getTime() + INVITATION_TTL_MS),
      updatedAt: ctx.now,
    }))!;
    await mailInvitation(ctx, tx, account, updated, token, via);
    await approval?.use(tx, row.id);
    return toInvitationView(updated);
  });
}
