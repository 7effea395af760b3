import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { associatedPersons, entities, users, verificationTransitions, type VerificationStatus } from '../schema/index.js';

export type TransitionRow = typeof verificationTransitions.$inferSelect;
export type SubjectType = TransitionRow['subjectType'];

const TABLES = { user: users, associated_person: associatedPersons, entity: entities } as const;

export async function setVerificationStatus(db: Executor, type: SubjectType, id: string, status: VerificationStatus, at: Date): Promise<void> {
  const table = TABLES[type];
  await db.update(table).set({ verificationStatus: status, updatedAt: at }).where(eq(table.id, id));
}

export async function insertTransition(db: Executor, row: typeof verificationTransitions.$inferInsert): Promise<void> {
  await db.insert(verificationTransitions).values(row);
}

export function listTransitions(db: Executor, subjectId: string): Promise<TransitionRow[]> {
  return db.select().from(verificationTransitions).where(eq(verificationTransitions.subjectId, subjectId)).orderBy(asc(verificationTransitions.id));
}

/** Which integrator a subject belongs to (operators address subjects across integrators). */
export async function findSubjectIntegrator(db: Executor, type: SubjectType, id: string): Promise<string | undefined> {
  const table = TABLES[type];
  const where = type === 'associated_person' ? and(eq(associatedPersons.id, id), isNull(associatedPersons.removedAt)) : eq(table.id, id);
  const [row] = await db.select({ integratorId: table.integratorId }).from(table).where(where);
  return row?.integratorId;
}
