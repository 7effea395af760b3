import type { Executor } from '../../db/database.js';
import { insertTransition, setVerificationStatus, type SubjectType } from '../../db/repositories/verification.js';
import type { VerificationStatus } from '../../db/schema/index.js';
import { ApiError } from '../errors.js';
import { recordEvent } from '../events/record-event.js';
import { newId } from '../ids.js';
import { transition, type Action } from './state-machine.js';

/** Who or what caused a transition, and why (recorded with it). */
export interface Cause {
  actorType: 'integrator' | 'operator' | 'system' | 'sandbox';
  actorId?: string;
  reason?: string;
}

export interface SubjectRef {
  type: SubjectType;
  id: string;
  integratorId: string;
  status: VerificationStatus;
}

const ID_FIELD: Record<SubjectType, string> = { user: 'userId', associated_person: 'beneficiaryId', entity: 'entityId' };
const LABEL: Record<SubjectType, string> = { user: 'user', associated_person: 'associated person', entity: 'entity' };

/**
 * Applies an action through the state machine: refuses what it forbids (409 invalid_state_transition naming
 * both states), ignores no-ops, and otherwise writes the new status, the audit row and the
 * `<subject>.verification_status.changed` event in the caller's transaction.
 */
export async function applyTransition(tx: Executor, subject: SubjectRef, action: Action, cause: Cause, at: Date): Promise<VerificationStatus> {
  const result = transition(subject.type, subject.status, action);
  if (!result.ok) {
    throw new ApiError(
      'invalid_state_transition',
      `The ${LABEL[subject.type]} cannot move from ${result.from} to ${result.to} (${result.action})`,
      { extensions: { fromStatus: result.from, toStatus: result.to, action: result.action } },
    );
  }
  if (result.to === subject.status) return subject.status;
  await setVerificationStatus(tx, subject.type, subject.id, result.to, at);
  await insertTransition(tx, {
    id: newId(),
    integratorId: subject.integratorId,
    subjectType: subject.type,
    subjectId: subject.id,
    fromStatus: subject.status,
    toStatus: result.to,
    action: action.type,
    actorType: cause.actorType,
    actorId: cause.actorId ?? null,
    reason: cause.reason ?? null,
    createdAt: at,
  });
  await recordEvent(tx, {
    integratorId: subject.integratorId,
    type: `${subject.type}.verification_status.changed`,
    objectType: subject.type,
    objectId: subject.id,
    object: { [ID_FIELD[subject.type]]: subject.id, verificationStatus: result.to, action: action.type, reason: cause.reason ?? null },
    previousAttributes: { verificationStatus: subject.status },
    at,
  });
  subject.status = result.to;
  return result.to;
}

/** The audit row of a record's first status (creation is not a transition, so no event: the *.created event carries it). */
export async function recordInitialStatus(tx: Executor, subject: SubjectRef, cause: Cause, at: Date): Promise<void> {
  await insertTransition(tx, {
    id: newId(),
    integratorId: subject.integratorId,
    subjectType: subject.type,
    subjectId: subject.id,
    fromStatus: 'not_started',
    toStatus: subject.status,
    action: 'created',
    actorType: cause.actorType,
    actorId: cause.actorId ?? null,
    reason: cause.reason ?? null,
    createdAt: at,
  });
}
