import type { Executor } from '../../db/database.js';
import { findInvitation, findInvitationByTokenHash, updatePendingInvitation, type InvitationRow } from '../../db/repositories/invitations.js';
import { countRoles, findMember, insertMember } from '../../db/repositories/members.js';
import { findUser } from '../../db/repositories/users.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, type FieldError, invalidFields, notFound } from '../errors.js';
import { createUserWithAccount, validateUserSubmission, type Rules } from '../onboarding/users/create-user.js';
import type { AdditionalUserInfo, Authenticator, UserInfo } from '../onboarding/types.js';
import { prepareAuthenticators } from '../onboarding/validation/index.js';
import { invitationTokenHash, isInvitationToken } from './invitation-token.js';
import { recordInvitationEvent, type InvitationView } from './invitation-view.js';
import { invitationExpired, notPending, requireOpen } from './invitations.js';
import { recordMemberEvent } from './member-events.js';
import { toMemberView, type MemberView } from './member-view.js';
import { entityAccount } from './members.js';
import { mayAct } from './roles.js';

export interface AcceptInvitationInput {
  token: string;
  /** A new user (create-user's rules); or userId, an existing user of the integrator. */
  userInfo?: UserInfo;
  serviceTermsSignedAt?: string;
  additionalUserInfo?: AdditionalUserInfo;
  partnerSignedAgreementId?: string;
  authenticator?: Authenticator;
  userId?: string;
}

export interface AcceptedInvitation {
  invitation: InvitationView;
  member: MemberView;
}

const NEW_USER_ONLY = ['serviceTermsSignedAt', 'additionalUserInfo', 'partnerSignedAgreementId', 'authenticator'] as const;
const error = (pointer: string, code: string, detail: string): FieldError => ({ pointer, code, detail, in: 'body' });

/** Every field error of an accept-invitation body that does not need the invitation (the route's bodyChecks too). */
export function acceptInvitationErrors(input: AcceptInvitationInput, rules: Rules): FieldError[] {
  if (input.userInfo === undefined && input.userId === undefined) return [error('/userInfo', 'required', 'userInfo (a new user) or userId (an existing user) is required')];
  if (input.userId !== undefined) {
    const extra = input.userInfo !== undefined ? ['userInfo' as const] : NEW_USER_ONLY.filter((f) => input[f] !== undefined);
    return extra.map((f) => error(`/${f}`, 'not_allowed', `${f} is for a new user and cannot be given with userId`));
  }
  if (input.serviceTermsSignedAt === undefined) return [error('/serviceTermsSignedAt', 'required', 'serviceTermsSignedAt is required with userInfo')];
  const errors = validateUserSubmission({ userInfo: input.userInfo!, serviceTermsSignedAt: input.serviceTermsSignedAt, ...(input.additionalUserInfo ? { additionalUserInfo: input.additionalUserInfo } : {}) }, rules);
  if (input.authenticator !== undefined) {
    // One passkey, checked as create-user checks its authenticators[]; the errors name /authenticator/... .
    const passkey = prepareAuthenticators([input.authenticator], '/authenticator', rules.policy.webauthn);
    errors.push(...passkey.errors.map((e) => ({ ...e, pointer: e.pointer.replace(/^\/authenticator\/0/, '/authenticator'), detail: e.detail.replace(/^authenticator\/0/, 'authenticator') })));
  }
  return errors;
}

/** The invitation a token opens, whoever's it is (the hosted page), or undefined for a malformed or unknown token. */
export function invitationByToken(db: Executor, secrets: SecretBox, token: string): Promise<InvitationRow | undefined> {
  return isInvitationToken(token) ? findInvitationByTokenHash(db, invitationTokenHash(secrets, token)) : Promise.resolve(undefined);
}

const superseded = (detail: string) => new ApiError('invitation_superseded', `${detail}: ask an owner for a new invitation`);

/**
 * An invitation seats its role only while whoever made it could still make it (docs/invitations.md#accepting): one
 * the integrator made alone (the first owner's) while the account still has no owner, a member's while that member
 * is still one whose role may invite that role. Otherwise 409 invitation_superseded: an owner seated since, or an
 * inviter removed or demoted, takes the grant's authority with them.
 */
export async function requireInviterAuthority(db: Executor, row: InvitationRow): Promise<void> {
  if (row.invitedByUserId === null) {
    if ((await countRoles(db, row.accountId)).owner > 0) throw superseded('The account has an owner now, and this invitation was made by the integrator alone before it had one');
    return;
  }
  const inviter = await findMember(db, row.integratorId, row.accountId, row.invitedByUserId);
  if (!inviter || !mayAct(inviter.role, { kind: 'invite', role: row.role })) {
    throw superseded(`The member who made this invitation may no longer invite the role ${row.role}`);
  }
}

/**
 * accept-invitation (docs/invitations.md#accepting): the token's invitation, of this integrator, pending and within
 * its date, becomes a member: a new user made by create-user's rules (same email as invited), or an existing user of
 * the integrator, while its inviter could still make it (requireInviterAuthority). One transaction under the account's lock: the user (user.created, account.created), the member
 * (member.added), the invitation accepted (invitation.accepted). The first accepted owner invitation makes the first
 * owner. Two racing accepts make one member: the second finds it accepted (409).
 */
export async function acceptInvitation(ctx: MutationContext, input: AcceptInvitationInput): Promise<AcceptedInvitation> {
  const errors = acceptInvitationErrors(input, ctx);
  if (errors.length > 0) throw invalidFields(errors);
  const integratorId = ctx.actor.integratorId;
  const found = await invitationByToken(ctx.db.db, ctx.secrets, input.token);
  if (!found || found.integratorId !== integratorId) throw notFound('Invitation');
  await requireOpen(ctx, found);
  await requireInviterAuthority(ctx.db.db, found);
  if (input.userInfo && input.userInfo.email.toLowerCase() !== found.email.toLowerCase()) {
    throw invalidFields([error('/userInfo/email', 'email_mismatch', 'userInfo.email must be the address the invitation was sent to')]);
  }
  if (input.userId !== undefined) {
    if (!(await findUser(ctx.db.db, integratorId, input.userId))) throw notFound('User');
    if (await findMember(ctx.db.db, integratorId, found.accountId, input.userId)) throw alreadyMember();
  }

  return runMutation(ctx, async (tx) => {
    const account = await entityAccount(tx, integratorId, found.accountId, { lock: true });
    const invitation = (await findInvitation(tx, integratorId, found.id, { lock: true }))!;
    // Accepted or revoked meanwhile (a racing accept), or resent: the token is no longer this invitation's.
    if (invitation.status !== 'pending') throw invitation.status === 'expired' ? invitationExpired() : notPending(invitation);
    if (invitation.tokenHash !== found.tokenHash) throw notFound('Invitation');
    if (invitation.expiresAt.getTime() <= ctx.now.getTime()) throw invitationExpired();
    // Again under the account's lock: a racing accept may have seated the owner, or the inviter changed meanwhile.
    await requireInviterAuthority(tx, invitation);

    let userId = input.userId;
    if (input.userInfo) {
      // create-user itself, in a savepoint of this transaction: its validation, passkey, account and events.
      const created = await createUserWithAccount(
        { ...ctx, db: { ...ctx.db, db: tx }, idempotency: undefined },
        {
          userInfo: input.userInfo,
          serviceTermsSignedAt: input.serviceTermsSignedAt!,
          ...(input.additionalUserInfo ? { additionalUserInfo: input.additionalUserInfo } : {}),
          ...(input.partnerSignedAgreementId ? { partnerSignedAgreementId: input.partnerSignedAgreementId } : {}),
          ...(input.authenticator ? { authenticators: [input.authenticator] } : {}),
        },
        'none',
      );
      userId = created.userId;
    }
    const member = await insertMember(tx, { integratorId, accountId: account.id, userId: userId!, role: invitation.role, createdAt: ctx.now, updatedAt: ctx.now });
    if (!member) throw alreadyMember();
    const accepted = await updatePendingInvitation(tx, invitation.id, { status: 'accepted', acceptedUserId: userId!, updatedAt: ctx.now });
    if (!accepted) throw notPending(invitation);
    const user = await findUser(tx, integratorId, userId!);
    const memberView = toMemberView({ ...member, userInfo: user?.userInfo });
    await recordMemberEvent(tx, integratorId, 'member.added', memberView, ctx.now);
    const view = await recordInvitationEvent(tx, 'invitation.accepted', accepted, ctx.now);
    return { invitation: view, member: memberView };
  });
}

const alreadyMember = () => new ApiError('already_member', 'The user is a member of this account already');
