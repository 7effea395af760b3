import type { SecretBox } from '../../crypto/secret-box.js';
import type { Database } from '../../db/database.js';
import { findOnboardingLinkByTokenHash, type OnboardingLinkRow } from '../../db/repositories/onboarding-links.js';
import { findIntegratorName } from '../../db/repositories/integrators.js';
import { findUser } from '../../db/repositories/users.js';
import { listDocuments } from '../../db/repositories/documents.js';
import { notFound } from '../errors.js';
import type { UserInfo } from '../onboarding/types.js';
import { personRequirements } from '../requirements/requirements.js';
import { expireIfOverdue, openOnboardingLink } from './link-life.js';
import { isLinkToken, linkTokenHash } from './link-token.js';

/** What the hosted page shows of a link that still works. */
export interface LinkPageView {
  integratorName: string;
  type: OnboardingLinkRow['type'];
  expiresAt: string;
  /** For a link made for an existing user: the requirements it owes now; otherwise undefined (everything is asked). */
  currentlyDue: string[] | undefined;
  redirectUrl: string | null;
}

export type LinkPageOutcome = { open: LinkPageView } | { closed: 'completed' | 'expired' | 'revoked' };

/**
 * The hosted page's look-up (docs/onboarding-links.md#the-hosted-page): the token's shape first (anything else is the
 * unknown link's 404, no look-up), then its hash. A live link past its date is expired (with its event); a live one
 * is marked opened the first time (onboarding_link.opened); a closed one says why.
 */
export async function openLinkPage(ctx: { db: Database; secrets: SecretBox; now: Date }, token: string): Promise<LinkPageOutcome> {
  if (!isLinkToken(token)) throw notFound('Onboarding link');
  const found = await findOnboardingLinkByTokenHash(ctx.db.db, linkTokenHash(ctx.secrets, token));
  if (!found) throw notFound('Onboarding link');
  const row = await openOnboardingLink(ctx.db.db, (await expireIfOverdue(ctx.db.db, found, ctx.now)) ?? found, ctx.now);
  if (row.status === 'completed' || row.status === 'expired' || row.status === 'revoked') return { closed: row.status };
  const user = row.userId ? await findUser(ctx.db.db, row.integratorId, row.userId) : undefined;
  const currentlyDue = user ? personRequirements(user.userInfo as UserInfo, await listDocuments(ctx.db.db, 'user', user.id), user.verificationStatus).currentlyDue : undefined;
  return {
    open: {
      integratorName: (await findIntegratorName(ctx.db.db, row.integratorId)) ?? 'Your provider',
      type: row.type,
      expiresAt: row.expiresAt.toISOString(),
      currentlyDue,
      redirectUrl: row.redirectUrl,
    },
  };
}
