import type { Executor } from '../../db/database.js';
import { applyTransition, type Cause, type SubjectRef } from './apply-transition.js';
import { isPreReview } from './state-machine.js';

/**
 * What a change of data or documents does to a record's status: before review it tracks completeness
 * (init or awaiting_information); after a resubmission request, a record complete again goes back to review.
 * Any other status is left to review decisions.
 */
export async function afterDataChange(tx: Executor, subject: SubjectRef, complete: boolean, cause: Cause, at: Date): Promise<void> {
  if (isPreReview(subject.status)) {
    await applyTransition(tx, subject, { type: 'data_changed', complete }, cause, at);
  } else if (subject.status === 'resubmission_requested' && complete) {
    await applyTransition(tx, subject, { type: 'resubmitted' }, { ...cause, reason: 'the requested items were resubmitted' }, at);
  }
}
