import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { onboardingLinks } from '../schema/index.js';

export type OnboardingLinkRow = typeof onboardingLinks.$inferSelect;

/** A link still usable: not completed, expired or revoked (an opened link may still be completed). */
export const LIVE_STATUSES = ['pending', 'opened'] as const;

export async function insertOnboardingLink(db: Executor, row: typeof onboardingLinks.$inferInsert): Promise<OnboardingLinkRow> {
  const [created] = await db.insert(onboardingLinks).values(row).returning();
  return created!;
}

/** One integrator's link; another integrator's is as missing as an unknown id. */
export async function findOnboardingLink(db: Executor, integratorId: string, id: string, options: { lock?: boolean } = {}): Promise<OnboardingLinkRow | undefined> {
  const query = db
    .select()
    .from(onboardingLinks)
    .where(and(eq(onboardingLinks.integratorId, integratorId), eq(onboardingLinks.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** By the keyed hash of its token (unique): the hosted page, whoever's link it is. */
export async function findOnboardingLinkByTokenHash(db: Executor, tokenHash: string, options: { lock?: boolean } = {}): Promise<OnboardingLinkRow | undefined> {
  const query = db.select().from(onboardingLinks).where(eq(onboardingLinks.tokenHash, tokenHash));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** The live links of the same customer: by user, or (a new customer) by type and lower-case address; locked. */
export function lockLiveLinksOf(db: Executor, integratorId: string, customer: { userId: string } | { type: OnboardingLinkRow['type']; emailKey: string }): Promise<OnboardingLinkRow[]> {
  const which =
    'userId' in customer
      ? eq(onboardingLinks.userId, customer.userId)
      : and(eq(onboardingLinks.type, customer.type), eq(onboardingLinks.emailKey, customer.emailKey));
  return db
    .select()
    .from(onboardingLinks)
    .where(and(eq(onboardingLinks.integratorId, integratorId), inArray(onboardingLinks.status, [...LIVE_STATUSES]), which))
    .for('update');
}

/**
 * Moves a link on from the statuses given (by default the live ones): undefined when it is no longer in one of
 * them, so of two racing moves exactly one wins.
 */
export async function updateLiveOnboardingLink(
  db: Executor,
  id: string,
  patch: Partial<Pick<OnboardingLinkRow, 'status' | 'userId' | 'openedAt' | 'completedAt' | 'termsAcceptedAt' | 'termsVersion'>> & { updatedAt: Date },
  from: readonly OnboardingLinkRow['status'][] = LIVE_STATUSES,
): Promise<OnboardingLinkRow | undefined> {
  const [row] = await db
    .update(onboardingLinks)
    .set(patch)
    .where(and(eq(onboardingLinks.id, id), inArray(onboardingLinks.status, [...from])))
    .returning();
  return row;
}

/** Live links past their expiry, oldest first (the mail sender's round expires them). */
export function listOverdueOnboardingLinks(db: Executor, now: Date, limit: number): Promise<Pick<OnboardingLinkRow, 'id' | 'integratorId'>[]> {
  return db
    .select({ id: onboardingLinks.id, integratorId: onboardingLinks.integratorId })
    .from(onboardingLinks)
    .where(and(inArray(onboardingLinks.status, [...LIVE_STATUSES]), lte(onboardingLinks.expiresAt, now)))
    .orderBy(asc(onboardingLinks.expiresAt))
    .limit(limit);
}
