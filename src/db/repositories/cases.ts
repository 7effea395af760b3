import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { caseActivity, reviewCases, verificationFindings } from '../schema/index.js';

export type ReviewCaseRow = typeof reviewCases.$inferSelect;
export type CaseActivityRow = typeof caseActivity.$inferSelect;
type CaseKey = Pick<ReviewCaseRow, 'subjectId' | 'subjectType' | 'integratorId'>;

/** The case's working row, locked for the rest of the transaction (made empty when there was none). */
export async function lockCase(db: Executor, key: CaseKey): Promise<ReviewCaseRow> {
  await db.insert(reviewCases).values(key).onConflictDoNothing({ target: reviewCases.subjectId });
  const [row] = await db.select().from(reviewCases).where(eq(reviewCases.subjectId, key.subjectId)).for('update');
  return row!;
}

export async function findCase(db: Executor, subjectId: string): Promise<ReviewCaseRow | undefined> {
  const [row] = await db.select().from(reviewCases).where(eq(reviewCases.subjectId, subjectId));
  return row;
}

export async function updateCase(db: Executor, subjectId: string, set: Partial<Omit<ReviewCaseRow, 'subjectId' | 'subjectType' | 'integratorId'>>): Promise<void> {
  await db.update(reviewCases).set(set).where(eq(reviewCases.subjectId, subjectId));
}

/** Opens the case unless it is open already; true when this call opened it. */
export async function openCase(db: Executor, key: CaseKey, reason: NonNullable<ReviewCaseRow['openReason']>, at: Date): Promise<boolean> {
  const rows = await db
    .insert(reviewCases)
    .values({ ...key, openReason: reason, openedAt: at })
    .onConflictDoUpdate({ target: reviewCases.subjectId, set: { openReason: reason, openedAt: at }, setWhere: sql`${reviewCases.openedAt} is null` })
    .returning({ subjectId: reviewCases.subjectId });
  return rows.length > 0;
}

export async function appendActivity(db: Executor, rows: (typeof caseActivity.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await db.insert(caseActivity).values(rows);
}

export function listActivity(db: Executor, subjectId: string): Promise<CaseActivityRow[]> {
  return db.select().from(caseActivity).where(eq(caseActivity.subjectId, subjectId)).orderBy(asc(caseActivity.createdAt), asc(caseActivity.id));
}

/** The codes of the subject's error findings, one per finding. */
export async function errorFindingCodes(db: Executor, subjectId: string): Promise<string[]> {
  const rows = await db
    .select({ code: verificationFindings.code })
    .from(verificationFindings)
    .where(and(eq(verificationFindings.subjectId, subjectId), eq(verificationFindings.severity, 'error')));
  return rows.map((r) => r.code);
}

export function openCases(db: Executor): Promise<ReviewCaseRow[]> {
  return db.select().from(reviewCases).where(isNotNull(reviewCases.openedAt));
}
