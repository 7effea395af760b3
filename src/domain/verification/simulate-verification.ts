import { setDocumentErrors } from '../../db/repositories/documents.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, type FieldError } from '../errors.js';
import { recomputeEntityStatus } from '../onboarding/entities/recompute-status.js';
import { applyTransition, type Cause } from './apply-transition.js';
import type { VerificationState } from './request-verification.js';
import { loadSubject } from './subjects.js';

export type SimulatedOutcome = 'approve' | 'reject' | 'request_resubmission';

export interface SimulationInput {
  accountId?: string;
  beneficiaryId?: string;
  outcome: SimulatedOutcome;
  reasons?: string[];
  /** request_resubmission: documents of the record to redo; they get `reasons` as their `errors`. */
  documents?: string[];
}

/**
 * Sandbox only: drives the same state machine as an operator decision, so every branch can be tested without a
 * human. Documents named for resubmission stop counting towards requirements until a replacement is uploaded;
 * the record goes back to under_review by itself once it is complete again.
 */
export function simulateVerification(ctx: MutationContext, input: SimulationInput): Promise<VerificationState> {
  return runMutation(ctx, async (tx) => {
    const subject = await loadSubject(tx, ctx.actor.integratorId, input);
    const reason = input.reasons && input.reasons.length > 0 ? input.reasons.join('; ') : `sandbox ${input.outcome}`;
    const cause: Cause = { actorType: 'sandbox', reason, ...(ctx.actor.credentialId ? { actorId: ctx.actor.credentialId } : {}) };
    const status = await applyTransition(tx, subject.ref, { type: input.outcome }, cause, ctx.now);
    if (input.outcome === 'request_resubmission') {
      const errors: FieldError[] = [];
      for (const [i, documentId] of (input.documents ?? []).entries()) {
        const found = await setDocumentErrors(tx, subject.documentOwner, subject.ref.id, documentId, input.reasons?.length ? input.reasons : ['Resubmission requested']);
        if (!found) errors.push({ pointer: `/documents/${i}`, code: 'unknown_document', detail: `documents/${i} is not a document of this record`, in: 'body' });
      }
      if (errors.length > 0) throw new ApiError('validation_failed', 'Unknown documents', { errors });
    }
    // An associated person's decision may make its entity ready (or not) for review.
    if (subject.parentEntity) await recomputeEntityStatus(tx, subject.parentEntity, { actorType: 'system' }, ctx.now);
    return { ...subject.key, verificationStatus: status };
  });
}
