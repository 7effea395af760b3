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
  assignee_id: string | null;
  open_reason: 'screening_hit' | 'incoming_from_listed_address' | null;
  proposed_decision: 'approve' | 'reject' | 'request_resubmission' | 'deactivate' | 'reactivate' | 'reopen' | null;
  proposed_by: string | null;
  open_hits: number;
  error_findings: number;
  duplicates: boolean;
}

export type QueueFlag = 'open_hits' | 'error_findings' | 'duplicates' | 'proposal_pending';

export interface QueueOptions {
  /** Absent: every under_review record, every case open on an active customer, every active customer with an open hit; with `search`, every record. */
  status?: VerificationStatus;
  integratorId?: string;
  cutoff?: string;
  after?: { since: string; id: string };
  limit: number;
  flag?: QueueFlag;
  /** An operator id: their cases; null: nobody's. */
  assignee?: string | null;
  /** Part of a name or email, a record id, or a document number. */
  search?: string;
}

const DUPLICATE_CODES = sql`('duplicate_document', 'document_number_reused', 'ssn_shared')`;

const FLAG_WHERE: Record<QueueFlag, ReturnType<typeof sql>> = {
  open_hits: sql`and open_hits > 0`,
  error_findings: sql`and error_findings > 0`,
  duplicates: sql`and duplicates`,
  proposal_pending: sql`and proposed_by is not null`,
};

/** `%` and `_` are the search's own characters, not LIKE's. */
const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function searchWhere(search: string | undefined) {
  if (search === undefined) return sql``;
  const text = search.trim();
  const pattern = likePattern(text.toLowerCase());
  const byId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text) ? sql`or q.subject_id = ${text.toLowerCase()}::uuid` : sql``;
  return sql`and (lower(q.name) like ${pattern} or lower(q.email) like ${pattern} ${byId}
    or exists (select 1 from documents d where d.owner_id = q.subject_id and lower(d.document_number) = ${text.toLowerCase()}))`;
}

/**
 * Users, associated persons and entities in the queue, across integrators, oldest change first, with each case's
 * flags (open hits, error findings, duplicates, a proposal waiting) and holder: keyset over (since, subject_id)
 * after `after`, changed no later than `cutoff`. `limit + 1` rows so the caller can tell whether more exist.
 */
export function listReviewQueue(db: Executor, options: QueueOptions): Promise<ReviewQueueRow[]> {
  const { cutoff, after } = options;
  // Without a status: what waits for an operator, an active customer with a hit nobody decided included (however it
  // got there). A search without a status looks at every record, in the queue or not.
  const inQueue = options.status
    ? sql`q.status = ${options.status}`
    : options.search !== undefined
      ? sql`true`
      : sql`(q.status = 'under_review' or c.opened_at is not null
          or (q.status = 'active' and exists (select 1 from screening_hits h where h.subject_id = q.subject_id and h.status = 'open')))`;
  return selectRows<ReviewQueueRow>(db, sql`
    select * from (
      select q.subject_type, q.subject_id, q.integrator_id, i.name as integrator_name, q.status, q.name, q.since,
             c.assignee_id, case when c.opened_at is not null then c.open_reason end as open_reason, c.proposed_decision, c.proposed_by,
             (select count(*)::int from screening_hits h where h.subject_id = q.subject_id and h.status = 'open') as open_hits,
             (select count(*)::int from verification_findings f where f.subject_id = q.subject_id and f.severity = 'error') as error_findings,
             exists (select 1 from verification_findings f where f.subject_id = q.subject_id and f.code in ${DUPLICATE_CODES}) as duplicates
      from (
        select 'user' as subject_type, id as subject_id, integrator_id, verification_status as status,
               coalesce(user_info->>'firstName', '') || ' ' || coalesce(user_info->>'lastName', '') as name, user_info->>'email' as email, updated_at as since
          from users
        union all
        select 'associated_person', id, integrator_id, verification_status,
               coalesce(user_info->>'firstName', '') || ' ' || coalesce(user_info->>'lastName', ''), user_info->>'email', updated_at
          from associated_persons where removed_at is null
        union all
        select 'entity', id, integrator_id, verification_status, coalesce(entity_info->>'businessLegalName', '(no legal name)'),
               entity_info->>'email', updated_at
          from entities
      ) q join integrators i on i.id = q.integrator_id
      left join review_cases c on c.subject_id = q.subject_id
      where ${inQueue}
        ${options.integratorId ? sql`and q.integrator_id = ${options.integratorId}` : sql``}
        ${cutoff ? sql`and q.since <= ${cutoff}::timestamptz` : sql``}
        ${after ? sql`and (q.since, q.subject_id) > (${after.since}::timestamptz, ${after.id}::uuid)` : sql``}
        ${options.assignee === null ? sql`and c.assignee_id is null` : options.assignee ? sql`and c.assignee_id = ${options.assignee}` : sql``}
        ${searchWhere(options.search)}
    ) queued
    where true ${options.flag ? FLAG_WHERE[options.flag] : sql``}
    order by since, subject_id
    limit ${options.limit + 1}`);
}

/** The name a record shows in the queue: a person's first and last name, a company's legal name. */
export async function subjectName(db: Executor, type: SubjectType, id: string): Promise<string> {
  const rows = await selectRows<{ name: string }>(db, type === 'entity'
    ? sql`select coalesce(entity_info->>'businessLegalName', '(no legal name)') as name from entities where id = ${id}`
    : sql`select trim(coalesce(user_info->>'firstName', '') || ' ' || coalesce(user_info->>'lastName', '')) as name from ${sql.raw(type === 'user' ? 'users' : 'associated_persons')} where id = ${id}`);
  return rows[0]?.name ?? '';
}
