import type { Tx } from '../../db/database.js';
import { findOnboardingLink, insertOnboardingLink, lockLiveLinksOf, updateLiveOnboardingLink, type OnboardingLinkRow } from '../../db/repositories/onboarding-links.js';
import { findUser } from '../../db/repositories/users.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, invalidFields, notFound, type FieldError } from '../errors.js';
import { newId } from '../ids.js';
import { isEmail, isHttpUrl } from '../onboarding/validation/formats.js';
import { expireIfOverdue } from './link-life.js';
import { linkTokenHash, newLinkToken, onboardingLinkUrl } from './link-token.js';
import { recordLinkEvent, toOnboardingLinkView, type OnboardingLinkView } from './link-view.js';

/**
 * How this deployment serves links (docs/onboarding-links.md): the hosted page's base URL (INVITATION_BASE_URL;
 * none: 503), the default lifetime (ONBOARDING_LINK_TTL_SECONDS) and whether http://localhost redirects are allowed.
 */
export interface LinkSettings {
  baseUrl: string | undefined;
  defaultTtlSeconds: number;
  sandbox: boolean;
}

export interface CreateOnboardingLinkInput {
  type: OnboardingLinkRow['type'];
  userId?: string;
  email?: string;
  redirectUrl?: string;
  expiresInSeconds?: number;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https anywhere; http only to this machine and only in the sandbox (an integrator's app under development). */
export function redirectProblem(value: string, sandbox: boolean): FieldError | undefined {
  if (!isHttpUrl(value)) return { pointer: '/redirectUrl', code: 'invalid_url', detail: 'redirectUrl must be an https URL', in: 'body' };
  const url = new URL(value);
  if (url.protocol === 'https:') return undefined;
  if (sandbox && LOCAL_HOSTS.has(url.hostname)) return undefined;
  return { pointer: '/redirectUrl', code: 'https_required', detail: sandbox ? 'redirectUrl must be https (http only to localhost in the sandbox)' : 'redirectUrl must be https', in: 'body' };
}

function checkInput(input: CreateOnboardingLinkInput, settings: LinkSettings): void {
  const errors: FieldError[] = [];
  if (input.email !== undefined && !isEmail(input.email)) errors.push({ pointer: '/email', code: 'invalid_email', detail: 'email must be an e-mail address like name@example.com', in: 'body' });
  const redirect = input.redirectUrl === undefined ? undefined : redirectProblem(input.redirectUrl, settings.sandbox);
  if (redirect) errors.push(redirect);
  if (errors.length > 0) throw invalidFields(errors);
}

export type CreatedOnboardingLink = OnboardingLinkView & { url: string };

/**
 * create-onboarding-link: a pending link and onboarding_link.created; the customer's live links (same user, or same
 * type and address for a new customer) revoked in the same transaction with onboarding_link.revoked.
 */
export async function createOnboardingLink(ctx: MutationContext, settings: LinkSettings, input: CreateOnboardingLinkInput): Promise<CreatedOnboardingLink> {
  if (!settings.baseUrl) throw new ApiError('onboarding_links_unavailable', 'This deployment serves no hosted onboarding page: it needs INVITATION_BASE_URL (docs/onboarding-links.md)');
  checkInput(input, settings);
  const integratorId = ctx.actor.integratorId;
  const token = newLinkToken();
  const view = await runMutation(ctx, async (tx) => {
    if (input.userId !== undefined && !(await findUser(tx, integratorId, input.userId, { lock: true }))) throw notFound('User');
    const emailKey = input.email?.toLowerCase() ?? null;
    const customer = input.userId !== undefined ? { userId: input.userId } : emailKey !== null ? { type: input.type, emailKey } : undefined;
    if (customer) await revokeAll(tx, await lockLiveLinksOf(tx, integratorId, customer), ctx.now);
    const row = await insertOnboardingLink(tx, {
      id: newId(),
      integratorId,
      type: input.type,
      userId: input.userId ?? null,
      email: input.email ?? null,
      emailKey,
      redirectUrl: input.redirectUrl ?? null,
      tokenHash: linkTokenHash(ctx.secrets, token),
      status: 'pending',
      expiresAt: new Date(ctx.now.getTime() + (input.expiresInSeconds ?? settings.defaultTtlSeconds) * 1000),
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
    return recordLinkEvent(tx, 'onboarding_link.created', row, ctx.now);
  });
  return { ...view, url: onboardingLinkUrl(settings.baseUrl, token) };
}

async function revokeAll(tx: Tx, rows: OnboardingLinkRow[], now: Date): Promise<void> {
  for (const row of rows) {
    // One past its date is expired rather than revoked: that is what happened to it first.
    const expired = row.expiresAt.getTime() <= now.getTime();
    const moved = await updateLiveOnboardingLink(tx, row.id, { status: expired ? 'expired' : 'revoked', updatedAt: now });
    if (moved) await recordLinkEvent(tx, expired ? 'onboarding_link.expired' : 'onboarding_link.revoked', moved, now, row);
  }
}

/** get-onboarding-link: the link with its status; one past its date is expired first (with its event). */
export async function getOnboardingLink(ctx: Pick<MutationContext, 'db' | 'now'>, integratorId: string, id: string): Promise<OnboardingLinkView> {
  const row = await findOnboardingLink(ctx.db.db, integratorId, id);
  if (!row) throw notFound('Onboarding link');
  return toOnboardingLinkView((await expireIfOverdue(ctx.db.db, row, ctx.now)) ?? row);
}

/**
 * revoke-onboarding-link (DELETE): a live link stops working (onboarding_link.revoked). Revoking a revoked link
 * again changes nothing; a completed or expired one is 409 onboarding_link_closed (its status stays what it is).
 */
export async function revokeOnboardingLink(ctx: MutationContext, id: string): Promise<void> {
  const integratorId = ctx.actor.integratorId;
  const found = await findOnboardingLink(ctx.db.db, integratorId, id);
  if (!found) throw notFound('Onboarding link');
  await expireIfOverdue(ctx.db.db, found, ctx.now);
  await runMutation(ctx, async (tx) => {
    const row = (await findOnboardingLink(tx, integratorId, id, { lock: true }))!;
    if (row.status === 'revoked') return;
    if (row.status === 'completed' || row.status === 'expired') throw closed(row);
    const revoked = (await updateLiveOnboardingLink(tx, row.id, { status: 'revoked', updatedAt: ctx.now }))!;
    await recordLinkEvent(tx, 'onboarding_link.revoked', revoked, ctx.now, row);
  });
}

export const closed = (row: OnboardingLinkRow) => new ApiError('onboarding_link_closed', `The onboarding link is ${row.status}`);
