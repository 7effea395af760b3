import type { Database, Executor } from '../../db/database.js';
import { updateCase, type ReviewCaseRow } from '../../db/repositories/cases.js';
import type { VerificationStatus } from '../../db/schema/index.js';
import type { Policy } from '../context.js';
import { ApiError, invalidFields } from '../errors.js';
import { applyDecision, reasonRequired, type Decision, type DecisionInput } from '../verification/decisions.js';
import { loadSubjectById } from '../verification/subjects.js';
import { beforeLettingIn, fourEyesReason, refuseOpenHits, requireLettingIn } from './approval-rules.js';
import { logActivity, onCase, proposalPending, type CaseTarget } from './case-work.js';
import type { OperatorRef } from './permissions.js';
import { operatorNames } from '../operators/operators.js';

/** Decisions that let a customer in (or back in): the permission table's `approve`, and four eyes. */
const letsIn = (decision: Decision): decision is 'approve' | 'reactivate' => decision === 'approve' || decision === 'reactivate';

type DecisionResult = { subjectType: CaseTarget['subjectType']; subjectId: string; verificationStatus: VerificationStatus };

/** Applies a decision in the case's transaction and ends the case's working state: its proposal, its opening. */
async function apply(tx: Executor, row: ReviewCaseRow, target: CaseTarget, decision: Decision, input: DecisionInput, reason: string, operator: OperatorRef, policy: Policy, at: Date): Promise<DecisionResult> {
  const subject = (await loadSubjectById(tx, target.subjectType, target.subjectId))!;
  const status = await applyDecision(tx, subject, decision, input, { actorType: 'operator', actorId: operator.operatorId, reason }, policy, at);
  if (row.openedAt) await logActivity(tx, row, 'closed', operator, `Closed by the decision to ${decision.replace('_', ' ')}`, at);
  await updateCase(tx, row.subjectId, { proposedDecision: null, proposedReasons: null, proposedBy: null, proposedAt: null, openedAt: null, openReason: null });
  return { ...target, verificationStatus: status };
}

function requireReason(decision: Decision, reason: string): void {
  if (reasonRequired(decision) && reason === '') {
    throw invalidFields([{ pointer: '/reasons', code: 'required', detail: `reasons is required for ${decision}`, in: 'body' }], `A reason is required to ${decision.replace('_', ' ')}`);
  }
}

const clearProposal = { proposedDecision: null, proposedReasons: null, proposedBy: null, proposedAt: null };

/**
 * An operator's decision on any integrator's record, audited with the operator and the reason. An approval is
 * refused while a hit has no disposition (409 open_hits_remain), to the operator who found one of its hits false
 * (403 four_eyes_same_operator), and over a true match or an error finding (409 four_eyes_required: it is proposed,
 * then confirmed).
 */
export function decideAsOperator(db: Database, target: CaseTarget, decision: Decision, input: DecisionInput, operator: OperatorRef, policy: Policy, now: Date): Promise<DecisionResult> {
  const reason = (input.reasons ?? []).join('; ').trim();
  requireReason(decision, reason);
  return onCase(db, target, 'decide', operator, async (tx, row) => {
    if (row.proposedBy) throw await proposalPending(tx, row, operator, 'before deciding otherwise');
    if (letsIn(decision)) {
      const hits = await requireLettingIn(tx, row, operator, beforeLettingIn(decision));
      const fourEyes = await fourEyesReason(tx, target.subjectId, hits);
      if (fourEyes) throw new ApiError('four_eyes_required', `This case has ${fourEyes}: propose the decision (POST …/proposal) for a supervisor to confirm`, { extensions: { action: decision } });
    }
    return apply(tx, row, target, decision, input, reason || decision, operator, policy, now);
  });
}

/** The first pair of eyes: a decision proposed with its reasons, waiting for a supervisor. An approval's hits are decided first. */
export function proposeDecision(db: Database, target: CaseTarget, decision: Decision, reasons: string[], operator: OperatorRef, now: Date) {
  const note = reasons.join('; ').trim();
  if (note === '') throw invalidFields([{ pointer: '/reasons', code: 'required', detail: 'reasons is required: say why, for the second operator', in: 'body' }], 'A proposal needs its reasons');
  return onCase(db, target, 'propose', operator, async (tx, row) => {
    if (row.proposedBy) throw await proposalPending(tx, row, operator, 'before proposing another decision');
    if (letsIn(decision)) await refuseOpenHits(tx, target.subjectId, `${beforeLettingIn(decision)}: then propose it`);
    await updateCase(tx, row.subjectId, { proposedDecision: decision, proposedReasons: reasons, proposedBy: operator.operatorId, proposedAt: now });
    await logActivity(tx, row, 'proposed', operator, `${operator.name} proposed to ${decision.replace('_', ' ')}: ${note}`, now, { decision });
    return { decision, reasons, proposedBy: { operatorId: operator.operatorId, name: operator.name }, proposedAt: now.toISOString() };
  });
}

/**
 * The second pair of eyes: a supervisor other than the proposer applies the proposed decision, with a note (the
 * audit trail's record of why). An approval is confirmed only once every hit has its disposition, and not by an
 * operator who found one of its hits false.
 */
export function confirmProposal(db: Database, target: CaseTarget, note: string, operator: OperatorRef, policy: Policy, now: Date) {
  return onCase(db, target, 'confirm', operator, async (tx, row) => {
    if (!row.proposedBy || !row.proposedDecision) throw new ApiError('no_proposal', 'This case has no proposed decision to confirm');
    const decision = row.proposedDecision as Decision;
    // A hit raised since the proposal was made waits for its disposition too.
    if (letsIn(decision)) await requireLettingIn(tx, row, operator, `${beforeLettingIn(decision)}: then confirm the proposal`);
    const proposed = (row.proposedReasons ?? []).join('; ');
    const proposer = (await operatorNames(tx)).get(row.proposedBy) ?? `operator ${row.proposedBy}`;
    const reason = `${proposed} (proposed by ${proposer}, confirmed by ${operator.name}: ${note})`;
    await logActivity(tx, row, 'confirmed', operator, `${operator.name} confirmed the proposal to ${decision.replace('_', ' ')}: ${note}`, now, { decision, proposedBy: row.proposedBy });
    return apply(tx, row, target, decision, { reasons: row.proposedReasons ?? [] }, reason, operator, policy, now);
  });
}

/** A supervisor other than the proposer sets the proposal aside, saying why; the case stays as it is. */
export function overturnProposal(db: Database, target: CaseTarget, note: string, operator: OperatorRef, now: Date) {
  return onCase(db, target, 'overturn', operator, async (tx, row) => {
    if (!row.proposedBy || !row.proposedDecision) throw new ApiError('no_proposal', 'This case has no proposed decision to overturn');
    await updateCase(tx, row.subjectId, clearProposal);
    await logActivity(tx, row, 'overturned', operator, `${operator.name} overturned the proposal to ${row.proposedDecision.replace('_', ' ')}: ${note}`, now, { decision: row.proposedDecision, proposedBy: row.proposedBy });
    return { proposal: null };
  });
}

/** Its proposer takes a proposal back (they changed their mind, or want to decide otherwise); the case stays as it is. */
export function withdrawProposal(db: Database, target: CaseTarget, operator: OperatorRef, now: Date) {
  return onCase(db, target, 'withdraw', operator, async (tx, row) => {
    if (!row.proposedBy || !row.proposedDecision) throw new ApiError('no_proposal', 'This case has no proposed decision to withdraw');
    await updateCase(tx, row.subjectId, clearProposal);
    await logActivity(tx, row, 'withdrawn', operator, `${operator.name} withdrew the proposal to ${row.proposedDecision.replace('_', ' ')}`, now, { decision: row.proposedDecision });
    return { proposal: null };
  });
}
