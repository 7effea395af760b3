import type { Database, Executor } from '../../db/database.js';
import { appendActivity, lockCase, updateCase, type ReviewCaseRow } from '../../db/repositories/cases.js';
import { deleteHitFindings, disposeOpenHit, findHit, listHits, type ScreeningHitRow } from '../../db/repositories/screening-hits.js';
import { ApiError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { CaseSubjectType } from '../screening/subject-hits.js';
import { operatorNames } from '../operators/operators.js';
import { loadSubjectById } from '../verification/subjects.js';
import { caseState, refuseOpenHits } from './approval-rules.js';
import { authorize, CASE_PERMISSIONS, type CaseAction, type OperatorRef } from './permissions.js';

export interface CaseTarget {
  subjectType: CaseSubjectType;
  subjectId: string;
}

/**
 * Runs `work` on the case's locked working row after checking that the record exists (another integrator's or a
 * missing record: 404 alike; operators see every integrator) and that the operator may do `action` in its state.
 */
export async function onCase<T>(
  db: Database,
  target: CaseTarget,
  action: CaseAction,
  operator: OperatorRef,
  work: (tx: Executor, row: ReviewCaseRow, integratorId: string) => Promise<T>,
): Promise<T> {
  return db.db.transaction(async (tx) => {
    const subject = await loadSubjectById(tx, target.subjectType, target.subjectId);
    if (!subject) throw notFound('Case');
    const row = await lockCase(tx, { subjectType: target.subjectType, subjectId: target.subjectId, integratorId: subject.ref.integratorId });
    authorize(action, operator, caseState(row, CASE_PERMISSIONS[action].notDisposer ? await listHits(tx, row.subjectId) : undefined));
    return work(tx, row, subject.ref.integratorId);
  });
}

/**
 * 409 proposal_pending while a proposed decision waits, worded for whoever is refused: its proposer may withdraw it,
 * a supervisor confirms or overturns it, anyone else waits for either. `doing`: "before closing the case".
 */
export async function proposalPending(tx: Executor, row: ReviewCaseRow, operator: OperatorRef, doing: string): Promise<ApiError> {
  const proposal = `to ${row.proposedDecision!.replace('_', ' ')} this case`;
  if (row.proposedBy === operator.operatorId) {
    return new ApiError('proposal_pending', `You proposed ${proposal}: withdraw your proposal (POST …/proposal/withdraw) ${doing}, or wait for a supervisor to confirm or overturn it`);
  }
  const proposer = (await operatorNames(tx)).get(row.proposedBy!) ?? 'another operator';
  if (operator.role === 'supervisor') return new ApiError('proposal_pending', `${proposer} proposed ${proposal}: confirm or overturn the proposal (POST …/proposal/confirm or …/overturn) ${doing}`);
  return new ApiError('proposal_pending', `${proposer} proposed ${proposal}: it waits for a supervisor to confirm or overturn it, or for ${proposer} to withdraw it, ${doing}`);
}

export function logActivity(tx: Executor, row: Pick<ReviewCaseRow, 'subjectType' | 'subjectId' | 'integratorId'>, kind: string, operator: OperatorRef | null, summary: string, at: Date, detail?: Record<string, unknown>) {
  return appendActivity(tx, [
    { id: newId(), integratorId: row.integratorId, subjectType: row.subjectType, subjectId: row.subjectId, kind, operatorId: operator?.operatorId ?? null, summary, detail: detail ?? null, createdAt: at },
  ]);
}

const assigneeOf = (operator: OperatorRef) => ({ operatorId: operator.operatorId, name: operator.name });

/** Takes the case (again, for its holder); 409 case_claimed when another operator holds it. */
export function claimCase(db: Database, target: CaseTarget, operator: OperatorRef, at: Date) {
  return onCase(db, target, 'claim', operator, async (tx, row) => {
    if (row.assigneeId && row.assigneeId !== operator.operatorId) throw new ApiError('case_claimed', 'Another operator holds this case; a supervisor may release it');
    if (row.assigneeId !== operator.operatorId) {
      await updateCase(tx, row.subjectId, { assigneeId: operator.operatorId, assignedAt: at });
      await logActivity(tx, row, 'claimed', operator, `Claimed by ${operator.name}`, at);
    }
    return { assignee: assigneeOf(operator) };
  });
}

/** Gives the case back to the queue: its holder, or a supervisor for anyone's. */
export function releaseCase(db: Database, target: CaseTarget, operator: OperatorRef, at: Date) {
  return onCase(db, target, 'release', operator, async (tx, row) => {
    if (row.assigneeId) {
      await updateCase(tx, row.subjectId, { assigneeId: null, assignedAt: null });
      await logActivity(tx, row, 'released', operator, `Released by ${operator.name}`, at, { previousAssigneeId: row.assigneeId });
    }
    return { assignee: null };
  });
}

/** An append-only note on the case. */
export function addNote(db: Database, target: CaseTarget, operator: OperatorRef, body: string, at: Date) {
  return onCase(db, target, 'note', operator, async (tx, row) => {
    const id = newId();
    await appendActivity(tx, [{ id, integratorId: row.integratorId, subjectType: row.subjectType, subjectId: row.subjectId, kind: 'note', operatorId: operator.operatorId, summary: body, detail: null, createdAt: at }]);
    return { id, at: at.toISOString(), kind: 'note', actor: { type: 'operator' as const, id: operator.operatorId, name: operator.name }, summary: body };
  });
}

/** Closes a case opened on an active customer, the customer unchanged; every hit must have its disposition. */
export function closeCase(db: Database, target: CaseTarget, operator: OperatorRef, note: string, at: Date) {
  return onCase(db, target, 'close', operator, async (tx, row) => {
    if (!row.openedAt) throw new ApiError('case_not_open', 'Only a case opened on an active customer is closed; a case in review ends with a decision');
    if (row.proposedBy) throw await proposalPending(tx, row, operator, 'closing the case');
    await refuseOpenHits(tx, row.subjectId, 'before the case is closed');
    await updateCase(tx, row.subjectId, { openedAt: null, openReason: null });
    await logActivity(tx, row, 'closed', operator, `Closed by ${operator.name}: ${note}`, at);
    return { closed: true as const };
  });
}

/**
 * An operator's disposition of an open screening hit, with its note (audited, final). A false positive's finding
 * goes; the same entry and data are not raised again (subject-hits.ts).
 */
export async function disposeHit(db: Database, hitId: string, disposition: 'true_match' | 'false_positive', note: string, operator: OperatorRef, at: Date): Promise<ScreeningHitRow> {
  const hit = await findHit(db.db, hitId);
  if (!hit) throw notFound('Screening hit');
  return onCase(db, { subjectType: hit.subjectType, subjectId: hit.subjectId }, 'dispose', operator, async (tx, row) => {
    const done = await disposeOpenHit(tx, hitId, { status: disposition, note, operatorId: operator.operatorId, at });
    if (!done) throw new ApiError('hit_already_dispositioned', 'This screening hit has its disposition already');
    if (disposition === 'false_positive') await deleteHitFindings(tx, hitId);
    const words = disposition === 'true_match' ? 'a true match' : 'a false positive';
    await logActivity(tx, row, 'hit_dispositioned', operator, `${done.list} entry ${done.entryNumber} marked ${words} by ${operator.name}: ${note}`, at, { hitId, disposition });
    return done;
  });
}
