import type { SecretBox } from '../../../crypto/secret-box.js';
import type { Database, Executor } from '../../../db/database.js';
import { listDocuments } from '../../../db/repositories/documents.js';
import { findIntegratorName } from '../../../db/repositories/integrators.js';
import { findOnboardingLinkByTokenHash, type OnboardingLinkRow } from '../../../db/repositories/onboarding-links.js';
import { countAuthenticators, findUser, type UserRow } from '../../../db/repositories/users.js';
import type { MutationContext, Policy } from '../../context.js';
import { notFound } from '../../errors.js';
import type { UserInfo } from '../../onboarding/types.js';
import { personRequirements, type Requirements } from '../../requirements/requirements.js';
import { expireIfOverdue, openOnboardingLink, type ClosedStatus } from '../link-life.js';
import { isLinkToken, linkTokenHash } from '../link-token.js';
import { entityFlowStateOf } from './entity-state.js';

// The hosted flow's view of a link (docs/onboarding-links.md#the-hosted-flow): the link, its customer as it is now,
// and what that customer still owes. Every request of the flow loads it from the token first (before any body is
// read), and every save loads it again, locked, in its own transaction.

export interface FlowContext {
  db: Database;
  secrets: SecretBox;
  policy: Policy;
  now: Date;
  /** SERVICE_TERMS_VERSION: recorded with the terms step's acceptance. */
  termsVersion: string;
  /** SERVICE_TERMS_URL: the terms the terms step links (undefined: the sandbox's stand-in). */
  termsUrl: string | undefined;
}

/** A live link and its customer. */
export interface FlowLink {
  row: OnboardingLinkRow;
  integratorName: string;
  /** The link's user: the one it was made for, or the one its details step created; undefined before that. */
  user: UserRow | undefined;
  /** The user's requirements now (undefined without a user: everything is owed). */
  requirements: Requirements | undefined;
  /** How many passkeys the user has. */
  passkeys: number;
}

export type FlowOutcome = { live: FlowLink } | { closed: ClosedStatus };

/** The link a token opens, whoever's it is (the token is the credential): 404 for an unknown or malformed one. */
export async function linkByToken(db: Executor, secrets: SecretBox, token: string, options: { lock?: boolean } = {}): Promise<OnboardingLinkRow> {
  if (!isLinkToken(token)) throw notFound('Onboarding link');
  const row = await findOnboardingLinkByTokenHash(db, linkTokenHash(secrets, token), options);
  if (!row) throw notFound('Onboarding link');
  return row;
}

/** The link's customer as the flow sees it, read through `db` (the save's transaction, or the database). */
export async function flowLinkOf(db: Executor, row: OnboardingLinkRow): Promise<FlowLink> {
  const user = row.userId ? await findUser(db, row.integratorId, row.userId) : undefined;
  const requirements = user ? personRequirements(user.userInfo as UserInfo, await listDocuments(db, 'user', user.id), user.verificationStatus) : undefined;
  return {
    row,
    integratorName: (await findIntegratorName(db, row.integratorId)) ?? 'Your provider',
    user,
    requirements,
    passkeys: user ? await countAuthenticators(db, user.id) : 0,
    ...(await entityFlowStateOf(db, row, user)),
  };
}

/** Marks a live link opened as one of its pages is served (onboarding_link.opened, once): the token check does not. */
export async function markOpened(ctx: Pick<FlowContext, 'db' | 'now'>, link: FlowLink): Promise<void> {
  if (link.row.status === 'pending') await openOnboardingLink(ctx.db.db, link.row, ctx.now);
}

/**
 * Opens a link for a page of the flow (`open: false`: only checks it, for a request that serves no page yet): a live one past its date is expired (with its event), a pending one becomes
 * opened (onboarding_link.opened, once), a closed one says why.
 */
export async function openFlowLink(ctx: Pick<FlowContext, 'db' | 'secrets' | 'now'>, token: string, options: { open?: boolean } = {}): Promise<FlowOutcome> {
  const found = await linkByToken(ctx.db.db, ctx.secrets, token);
  const current = (await expireIfOverdue(ctx.db.db, found, ctx.now)) ?? found;
  const row = options.open === false ? current : await openOnboardingLink(ctx.db.db, current, ctx.now);
  if (row.status === 'completed' || row.status === 'expired' || row.status === 'revoked') return { closed: row.status };
  return { live: await flowLinkOf(ctx.db.db, row) };
}

/**
 * The domain context of a change made on the page, on behalf of the link's integrator. The cause recorded in the
 * verification history is the integrator (actorType `integrator`) with actorId `onboarding_link:<id>`: the link,
 * not a credential, made the change. `tx`: the save's transaction, so the domain function's own transaction is a
 * savepoint inside it (the link's changes and the customer's commit together).
 */
export function linkMutation(ctx: FlowContext, tx: Executor, row: OnboardingLinkRow): MutationContext {
  return {
    db: { ...ctx.db, db: tx as Database['db'] },
    secrets: ctx.secrets,
    policy: ctx.policy,
    now: ctx.now,
    actor: { kind: 'integrator', integratorId: row.integratorId, credentialId: `onboarding_link:${row.id}` },
  };
}
