import type { SecretBox } from '../../crypto/secret-box.js';
import type { Database } from '../../db/database.js';
import { findAccount } from '../../db/repositories/accounts.js';
import type { InvitationRow } from '../../db/repositories/invitations.js';
import type { MutationContext, Policy } from '../context.js';
import { invalidFields, notFound } from '../errors.js';
import type { Authenticator } from '../onboarding/types.js';
import { acceptInvitation, invitationByToken, requireInviterAuthority } from './accept-invitation.js';
import { invitationContext, ROLE_NAMES, type InvitationContext } from './invitation-mail.js';
import { challengeValid, registrationChallenge } from './invitation-token.js';
import { requireOpen } from './invitations.js';
import type { Role } from './roles.js';

/** What the hosted page shows the invitee (docs/invitations.md#the-hosted-page). */
export interface InvitationPageView extends InvitationContext {
  email: string;
  role: Role;
  roleName: string;
  expiresAt: string;
}

export interface PageContext {
  db: Database;
  secrets: SecretBox;
  policy: Policy;
  now: Date;
}

/**
 * The invitation a link's token opens, whichever integrator's it is (the token is the credential): 404 for an
 * unknown token, 410 expired, 409 accepted, revoked or superseded, as accept-invitation answers.
 */
export async function openInvitation(ctx: PageContext, token: string): Promise<{ row: InvitationRow; view: InvitationPageView }> {
  const row = await invitationByToken(ctx.db.db, ctx.secrets, token);
  if (!row) throw notFound('Invitation');
  await requireOpen(ctx, row);
  await requireInviterAuthority(ctx.db.db, row);
  const account = (await findAccount(ctx.db.db, row.integratorId, row.accountId))!;
  const about = await invitationContext(ctx.db.db, account, row.invitedByUserId);
  return { row, view: { ...about, email: row.email, role: row.role, roleName: ROLE_NAMES[row.role], expiresAt: row.expiresAt.toISOString() } };
}

/** A fresh registration challenge for the page's navigator.credentials.create (stateless, 10 minutes). */
export function pageChallenge(ctx: PageContext, row: InvitationRow): string {
  return registrationChallenge(ctx.secrets, row.tokenHash, ctx.now);
}

export interface PageAcceptInput {
  firstName: string;
  lastName: string;
  authenticator: Authenticator;
}

/**
 * The hosted page's acceptance: a new user {firstName, lastName, the invited email} with the passkey registered in
 * the browser over a challenge this server issued for this invitation, through accept-invitation itself, on behalf
 * of the invitation's integrator. Ticking the page's terms box is the service-terms signature (now).
 */
export async function acceptOnPage(ctx: PageContext, token: string, input: PageAcceptInput) {
  const { row } = await openInvitation(ctx, token);
  if (!challengeValid(ctx.secrets, row.tokenHash, input.authenticator.challenge, ctx.now)) {
    throw invalidFields([{ pointer: '/authenticator/challenge', code: 'challenge_invalid', detail: 'authenticator.challenge must be one this page issued in the last 10 minutes', in: 'body' }]);
  }
  const mutation: MutationContext = { ...ctx, actor: { kind: 'integrator', integratorId: row.integratorId } };
  return acceptInvitation(mutation, {
    token,
    userInfo: { firstName: input.firstName, lastName: input.lastName, email: row.email },
    serviceTermsSignedAt: ctx.now.toISOString(),
    authenticator: input.authenticator,
  });
}
