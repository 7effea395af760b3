import type { SecretBox } from '../../crypto/secret-box.js';
import type { Database, Executor } from '../../db/database.js';
import { findAccountByEntity } from '../../db/repositories/accounts.js';
import { findDocument } from '../../db/repositories/documents.js';
import { listFindings } from '../../db/repositories/findings.js';
import { listReviewQueue, listTransitions, subjectName, type QueueOptions, type ReviewQueueRow, type SubjectType } from '../../db/repositories/verification.js';
import { caseWork } from '../cases/case-work-view.js';
import { operatorNames } from '../operators/operators.js';
import type { VerificationStatus } from '../../db/schema/index.js';
import { invalidFields, notFound } from '../errors.js';
import { getEntityDetails } from '../onboarding/entities/entity-accounts.js';
import { getAssociatedPerson } from '../onboarding/persons/associated-persons.js';
import { getUserDetails } from '../onboarding/users/user-reads.js';
import type { Decision } from './decisions.js';
import { entityTeamOf } from './entity-team.js';
import { loadSubjectById } from './subjects.js';
import { sealContexts } from '../../crypto/seal-contexts.js';

import type { OperatorRef } from '../cases/permissions.js';

export type { OperatorRef };

export interface ReviewItem {
  subjectType: SubjectType;
  subjectId: string;
  integratorId: string;
  integratorName: string;
  verificationStatus: VerificationStatus;
  name: string;
  /** When the record last changed: the queue is oldest first. */
  since: string;
  flags: { openHits: number; errorFindings: number; duplicates: boolean; proposal: { decision: Decision; proposedBy: { operatorId: string; name: string } } | null };
  assignee: { operatorId: string; name: string } | null;
  openReason: ReviewQueueRow['open_reason'];
}

/** Opaque keyset cursor over (since, id): stable under inserts, cheap on a queue of any length. */
function encodeCursor(since: string, id: string): string {
  return Buffer.from(`${since}|${id}`).toString('base64url');
}
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/**
 * Only what encodeCursor wrote: a canonical ISO instant (it must read back as itself, so no 0000 year, no
 * 2023-02-30, no leap second) and a lower-case UUID. Anything else is a 400 naming startingAfter, never text
 * handed to PostgreSQL's casts.
 */
function decodeCursor(cursor: string): { since: string; id: string } {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const since = match?.[1];
  const id = match?.[2];
  const at = since === undefined ? Number.NaN : Date.parse(since);
  if (!since || !id || Number.isNaN(at) || new Date(at).toISOString() !== since || since.startsWith('0000') || encodeCursor(since, id) !== cursor) {
    throw invalidFields([{ pointer: '/startingAfter', code: 'invalid_format', detail: 'startingAfter is not a cursor from this queue', in: 'query' }], 'Invalid cursor');
  }
  return { since, id };
}

export async function listReviews(
  db: Executor,
  options: Omit<QueueOptions, 'cutoff' | 'after'> & { olderThanSeconds?: number; startingAfter?: string; now: Date },
): Promise<{ data: ReviewItem[]; hasMore: boolean; nextCursor: string | null }> {
  const { olderThanSeconds, startingAfter, now, ...filters } = options;
  const cursor = startingAfter ? decodeCursor(startingAfter) : undefined;
  const cutoff = olderThanSeconds !== undefined ? new Date(now.getTime() - olderThanSeconds * 1000).toISOString() : undefined;
  const rows = await listReviewQueue(db, { ...filters, ...(cutoff ? { cutoff } : {}), ...(cursor ? { after: cursor } : {}) });
  const names = rows.some((r) => r.assignee_id || r.proposed_by) ? await operatorNames(db) : new Map<string, string>();
  const who = (id: string | null) => (id ? { operatorId: id, name: names.get(id) ?? '(unknown operator)' } : null);
  const data = rows.slice(0, options.limit).map((r) => ({
    subjectType: r.subject_type,
    subjectId: r.subject_id,
    integratorId: r.integrator_id,
    integratorName: r.integrator_name,
    verificationStatus: r.status,
    name: r.name.trim(),
    since: new Date(r.since).toISOString(),
    flags: {
      openHits: r.open_hits,
      errorFindings: r.error_findings,
      duplicates: r.duplicates,
      proposal: r.proposed_by && r.proposed_decision ? { decision: r.proposed_decision, proposedBy: who(r.proposed_by)! } : null,
    },
    assignee: who(r.assignee_id),
    openReason: r.open_reason,
  }));
  const last = data.at(-1);
  const hasMore = rows.length > options.limit;
  return { data, hasMore, nextCursor: hasMore && last ? encodeCursor(last.since, last.subjectId) : null };
}

/** Everything an officer needs on one case: the record as the integrator sees it, its history, and how `operator` may approve it. */
export async function getCase(db: Database, subjectType: SubjectType, subjectId: string, operator?: OperatorRef) {
  const subject = await db.db.transaction((tx) => loadSubjectById(tx, subjectType, subjectId));
  if (!subject) throw notFound('Case');
  const integratorId = subject.ref.integratorId;
  let record: unknown;
  if (subjectType === 'user') record = await getUserDetails(db.db, integratorId, subjectId);
  else if (subjectType === 'associated_person') record = await getAssociatedPerson(db.db, integratorId, subjectId);
  else record = await getEntityDetails(db.db, integratorId, (await findAccountByEntity(db.db, subjectId))!.id);
  const history = (await listTransitions(db.db, subjectId)).map((t) => ({
    fromStatus: t.fromStatus,
    toStatus: t.toStatus,
    action: t.action,
    actorType: t.actorType,
    actorId: t.actorId,
    reason: t.reason,
    at: t.createdAt.toISOString(),
  }));
  const findings = await Promise.all(
    (await listFindings(db.db, subjectId)).map(async (f) => ({
      documentId: f.documentId,
      severity: f.severity,
      code: f.code,
      message: f.message,
      hitId: f.hitId,
      related: f.related ? { ...f.related, name: await subjectName(db.db, f.related.subjectType, f.related.subjectId) } : null,
    })),
  );
  return {
    subjectType,
    subjectId,
    integratorId,
    verificationStatus: subject.ref.status,
    findings,
    missingDocuments: subject.missingDocuments,
    missingCompanyData: subject.missingCompanyData,
    record,
    history,
    ...(await caseWork(db.db, subjectId, operator)),
    // An entity's case also shows who operates its wallet and what waits for their approval.
    ...(subjectType === 'entity' ? await entityTeamOf(db.db, integratorId, subjectId) : {}),
  };
}

/** A document's bytes, opened for display to an operator. */
export async function getDocumentContent(db: Database, secrets: SecretBox, documentId: string): Promise<{ mediaType: string; bytes: Buffer }> {
  const row = await findDocument(db.db, documentId);
  if (!row) throw notFound('Document');
  return { mediaType: row.mediaType, bytes: secrets.openBytes(row.contentSealed, sealContexts.document(row.ownerType, row.ownerId)) };
}
