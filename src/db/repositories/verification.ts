import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../database.js';
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

export interface ReviewQueueRow {
  subject_type: SubjectType;
  subject_id: string;
  integrator_id: string;
  integrator_name: string;
  status: VerificationStatus;
  name: string;
  since: string | Date;
}

/**
 * Users, associated persons and entities in one status, across integrators, oldest change first: keyset over
 * (since, subject_id) after `after`, changed no later than `cutoff`. `limit + 1` rows so the caller can tell
 * whether more exist.
 */
export function listReviewQueue(
  db: Executor,
  options: { status: VerificationStatus; integratorId?: string; cutoff?: string; after?: { since: string; id: string }; limit: number },
): Promise<ReviewQueueRow[]> {
  const { cutoff, after } = options;
  return selectRows<ReviewQueueRow>(db, sql`
    select q.subject_type, q.subject_id, q.integrator_id, i.name as integrator_name, q.status, q.name, q.since
    from (
      select 'user' as subject_type, id as subject_id, integrator_id, verification_status as status,
             coalesce(user_info->>'firstName', '') || ' ' || coalesce(user_info->>'lastName', '') as name, updated_at as since
        from users
      union all
      select 'associated_person', id, integrator_id, verification_status,
             coalesce(user_info->>'firstName', '') || ' ' || coalesce(user_info->>'lastName', ''), updated_at
        from associated_persons where removed_at is null
      union all
      select 'entity', id, integrator_id, verification_status, coalesce(entity_info->>'businessLegalName', '(no legal name)'), updated_at
        from entities
    ) q join integrators i on i.id = q.integrator_id
    where q.status = ${options.status}
      ${options.integratorId ? sql`and q.integrator_id = ${options.integratorId}` : sql``}
      ${cutoff ? sql`and q.since <= ${cutoff}::timestamptz` : sql``}
      ${after ? sql`and (q.since, q.subject_id) > (${after.since}::timestamptz, ${after.id}::uuid)` : sql``}
    order by q.since, q.subject_id
    limit ${options.limit + 1}`);
}
