import type { Executor } from '../../db/database.js';
import { setDocumentErrors } from '../../db/repositories/documents.js';
import type { VerificationStatus } from '../../db/schema/index.js';
import { beforeLettingIn, refuseOpenHits } from '../cases/approval-rules.js';
import type { Policy } from '../context.js';
import { invalidFields, type FieldError } from '../errors.js';
import { recomputeEntityStatus } from '../onboarding/entities/recompute-status.js';
import { applyTransition, type Cause } from './apply-transition.js';
import { syncRequirementsOf } from '../requirements/sync.js';
import type { LoadedSubject } from './subjects.js';

export const DECISIONS = ['approve', 'reject', 'request_resubmission', 'deactivate', 'reactivate', 'reopen'] as const;
export type Decision = (typeof DECISIONS)[number];

export interface DecisionInput {
  reasons?: string[];
  /** request_resubmission: documentIds of the record to redo; each gets `reasons` as its `errors`. */
  documents?: string[];
}

/**
 * A review decision (operator or sandbox) through the state machine. Documents named for resubmission stop
 * counting towards requirements until a replacement arrives; an associated person's decision may make its
 * entity ready for review, or not.
 */
export async function applyDecision(
  tx: Executor,
  subject: LoadedSubject,
  decision: Decision,
  input: DecisionInput,
  cause: Cause,
  policy: Policy,
  at: Date,
): Promise<VerificationStatus> {
  // The one gate every approval passes (an operator's, a confirmed proposal, the CLI, the sandbox's simulation):
  // nobody lets a customer in past a screening hit without its disposition.
  if (decision === 'approve' || decision === 'reactivate') await refuseOpenHits(tx, subject.ref.id, beforeLettingIn(decision));
  const status = await applyTransition(tx, subject.ref, { type: decision }, cause, at);
  if (decision === 'request_resubmission') {
    const errors: FieldError[] = [];
    for (const [i, documentId] of (input.documents ?? []).entries()) {
      const found = await setDocumentErrors(tx, subject.documentOwner, subject.ref.id, documentId, input.reasons?.length ? input.reasons : ['Resubmission requested']);
      if (!found) errors.push({ pointer: `/documents/${i}`, code: 'unknown_document', detail: `documents/${i} is not a document of this record`, in: 'body' });
    }
    if (errors.length > 0) throw invalidFields(errors, 'Unknown documents');
  }
  await syncRequirementsOf(tx, subject.ref, at);
  if (subject.parentEntity) await recomputeEntityStatus(tx, subject.parentEntity, { actorType: 'system' }, policy, at);
  return status;
}

/** Operators must say why for anything but an approval (the reason is the audit record's). */
export function reasonRequired(decision: Decision): boolean {
  return decision !== 'approve' && decision !== 'reactivate';
}
