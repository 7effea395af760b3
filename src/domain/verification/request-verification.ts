import { syncRequirementsOf } from '../requirements/sync.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError } from '../errors.js';
import { recomputeEntityStatus } from '../onboarding/entities/recompute-status.js';
import { credentialCause } from './cause.js';
import type { VerificationStatus } from '../../db/schema/index.js';
import { applyTransition } from './apply-transition.js';
import { checkIfEnteredReview } from './checks/run-checks.js';
import { loadSubject } from './subjects.js';

export interface VerificationState {
  accountId?: string;
  beneficiaryId?: string;
  verificationStatus: VerificationStatus;
}

/**
 * The integrator asks for a record's verification. Refused with 422 and what is missing while anything
 * required is missing (the spec: the four entity document groups come first); otherwise the state machine
 * moves it to under_review, or an entity to awaiting_associated_person_information until its persons are active.
 */
export function requestVerification(ctx: MutationContext, input: { accountId?: string; beneficiaryId?: string }): Promise<VerificationState> {
  return runMutation(ctx, async (tx) => {
    const subject = await loadSubject(tx, ctx.actor.integratorId, input);
    if (subject.missingDocuments.length > 0 || subject.missingCompanyData.length > 0) {
      throw new ApiError('verification_requirements_missing', 'Verification can be requested once nothing required is missing', {
        extensions: {
          ...(subject.missingDocuments.length > 0 ? { missingDocuments: subject.missingDocuments } : {}),
          ...(subject.missingCompanyData.length > 0 ? { missingCompanyData: subject.missingCompanyData } : {}),
        },
      });
    }
    const before = subject.ref.status;
    const status = await applyTransition(tx, subject.ref, { type: 'request_verification', personsReady: subject.personsReady }, credentialCause(ctx), ctx.now);
    await checkIfEnteredReview(tx, subject.ref, before, ctx.policy, ctx.now);
    await syncRequirementsOf(tx, subject.ref, ctx.now);
    // A person under review is not active: an entity relying on it waits again.
    if (subject.parentEntity) await recomputeEntityStatus(tx, subject.parentEntity, { actorType: 'system' }, ctx.policy, ctx.now);
    return { ...subject.key, verificationStatus: status };
  });
}
