import { and, asc, eq, gt, isNull, or } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { spendingPolicies, spendingPolicyChanges } from '../schema/index.js';

export type PolicyRow = typeof spendingPolicies.$inferSelect;

export async function insertPolicy(db: Executor, row: typeof spendingPolicies.$inferInsert): Promise<PolicyRow> {
  const [inserted] = await db.insert(spendingPolicies).values(row).returning();
  return inserted!;
}

/** The integrator's policy, deleted ones included (another integrator's is not found). */
export async function findPolicy(db: Executor, integratorId: string, id: string, options: { lock?: boolean } = {}): Promise<PolicyRow | undefined> {
  const query = db
    .select()
    .from(spendingPolicies)
    .where(and(eq(spendingPolicies.integratorId, integratorId), eq(spendingPolicies.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** The integrator's live policies after `startingAfter`, oldest first: `limit + 1` rows so the caller knows whether more follow. */
export function listLivePolicies(db: Executor, integratorId: string, options: { limit: number; startingAfter?: string; accountId?: string }): Promise<PolicyRow[]> {
  return db
    .select()
    .from(spendingPolicies)
    .where(
      and(
        eq(spendingPolicies.integratorId, integratorId),
        isNull(spendingPolicies.deletedAt),
        options.accountId ? eq(spendingPolicies.accountId, options.accountId) : undefined,
        options.startingAfter ? gt(spendingPolicies.id, options.startingAfter) : undefined,
      ),
    )
    .orderBy(asc(spendingPolicies.id))
    .limit(options.limit + 1);
}

/**
 * The live policies covering an account: its own and the integrator-wide ones, oldest first, with their rules. The
 * enforcement reads ids only and keeps compiled rules by id (policy-judgement.ts).
 */
export function policiesCovering(db: Executor, integratorId: string, accountId: string): Promise<PolicyRow[]> {
  return db
    .select()
    .from(spendingPolicies)
    .where(and(eq(spendingPolicies.integratorId, integratorId), isNull(spendingPolicies.deletedAt), or(isNull(spendingPolicies.accountId), eq(spendingPolicies.accountId, accountId))))
    .orderBy(asc(spendingPolicies.id));
}

/** Marks a live policy deleted; undefined when it was deleted already. */
export async function markPolicyDeleted(db: Executor, id: string, at: Date): Promise<PolicyRow | undefined> {
  const [row] = await db
    .update(spendingPolicies)
    .set({ deletedAt: at })
    .where(and(eq(spendingPolicies.id, id), isNull(spendingPolicies.deletedAt)))
    .returning();
  return row;
}

export async function insertPolicyChange(db: Executor, row: typeof spendingPolicyChanges.$inferInsert): Promise<void> {
  await db.insert(spendingPolicyChanges).values(row);
}
