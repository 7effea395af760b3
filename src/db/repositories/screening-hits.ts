import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { screeningHits, verificationFindings } from '../schema/index.js';

export type ScreeningHitRow = typeof screeningHits.$inferSelect;

/**
 * Inserts the hits not recorded yet for their subject (by matchKey), and opens again those that were `cleared` (the
 * data changed away and back: the hit stands again); returns both. A dispositioned hit stays as the operator left it.
 */
export function insertNewHits(db: Executor, rows: (typeof screeningHits.$inferInsert)[]): Promise<ScreeningHitRow[]> {
  if (rows.length === 0) return Promise.resolve([]);
  return db
    .insert(screeningHits)
    .values(rows)
    .onConflictDoUpdate({ target: [screeningHits.subjectId, screeningHits.matchKey], set: { status: 'open' }, setWhere: sql`${screeningHits.status} = 'cleared'` })
    .returning();
}

export function hitsByKeys(db: Executor, subjectId: string, matchKeys: string[]): Promise<ScreeningHitRow[]> {
  if (matchKeys.length === 0) return Promise.resolve([]);
  return db.select().from(screeningHits).where(and(eq(screeningHits.subjectId, subjectId), inArray(screeningHits.matchKey, matchKeys)));
}

export function listHits(db: Executor, subjectId: string): Promise<ScreeningHitRow[]> {
  return db.select().from(screeningHits).where(eq(screeningHits.subjectId, subjectId)).orderBy(screeningHits.createdAt, screeningHits.id);
}

export async function findHit(db: Executor, hitId: string): Promise<ScreeningHitRow | undefined> {
  const [row] = await db.select().from(screeningHits).where(eq(screeningHits.id, hitId));
  return row;
}

/** Open hits of the subject whose key is not among `stillMatching`: the data changed and they no longer match. */
export function clearStaleHits(db: Executor, subjectId: string, stillMatching: string[]): Promise<ScreeningHitRow[]> {
  const keep = stillMatching.length > 0 ? sql`and ${screeningHits.matchKey} not in (${sql.join(stillMatching.map((k) => sql`${k}`), sql`, `)})` : sql``;
  return db
    .update(screeningHits)
    .set({ status: 'cleared' })
    .where(sql`${screeningHits.subjectId} = ${subjectId} and ${screeningHits.status} = 'open' ${keep}`)
    .returning();
}

/** Sets the disposition of an open hit; undefined when the hit had one already (or does not exist). */
export async function disposeOpenHit(
  db: Executor,
  hitId: string,
  set: { status: 'true_match' | 'false_positive'; note: string; operatorId: string; at: Date },
): Promise<ScreeningHitRow | undefined> {
  const [row] = await db
    .update(screeningHits)
    .set({ status: set.status, dispositionNote: set.note, dispositionBy: set.operatorId, dispositionAt: set.at })
    .where(and(eq(screeningHits.id, hitId), eq(screeningHits.status, 'open')))
    .returning();
  return row;
}

export async function deleteHitFindings(db: Executor, hitId: string): Promise<void> {
  await db.delete(verificationFindings).where(eq(verificationFindings.hitId, hitId));
}

export async function countHits(db: Executor, subjectId: string, statuses: ScreeningHitRow['status'][]): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(screeningHits)
    .where(and(eq(screeningHits.subjectId, subjectId), inArray(screeningHits.status, statuses)));
  return row?.n ?? 0;
}

/** The recorded hits of these subjects, match key → status, per subject (one statement for a batch). */
export async function recordedHits(db: Executor, subjectIds: string[]): Promise<Map<string, Map<string, ScreeningHitRow['status']>>> {
  const out = new Map<string, Map<string, ScreeningHitRow['status']>>(subjectIds.map((id) => [id, new Map()]));
  if (subjectIds.length === 0) return out;
  const rows = await db
    .select({ subjectId: screeningHits.subjectId, matchKey: screeningHits.matchKey, status: screeningHits.status })
    .from(screeningHits)
    .where(inArray(screeningHits.subjectId, subjectIds));
  for (const r of rows) out.get(r.subjectId)!.set(r.matchKey, r.status);
  return out;
}
