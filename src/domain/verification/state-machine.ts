import type { VerificationStatus } from '../../db/schema/verification-status.js';

/**
 * The one transition table for users, associated persons and entities (docs/verification.md has the diagram).
 * Pure: given a status and an action, the next status, or a refusal naming both states. No-op actions
 * (data changes that leave the status where it is) are `{ok: true, to: from}` and record nothing.
 */
export type Subject = 'user' | 'associated_person' | 'entity';

export type Action =
  /** System: data or documents changed; `complete` says whether everything required is now present. */
  | { type: 'data_changed'; complete: boolean }
  /** Integrator: asks for the check; for entities, `personsReady` says whether every UBO and representative is active. */
  | { type: 'request_verification'; personsReady?: boolean }
  /** System (entities): every associated person became active, or one stopped being. */
  | { type: 'persons_ready' }
  | { type: 'persons_not_ready' }
  /** Operator or sandbox decisions. */
  | { type: 'approve' }
  | { type: 'reject' }
  | { type: 'request_resubmission' }
  /** System: every item the operator asked for was resubmitted. */
  | { type: 'resubmitted' }
  | { type: 'deactivate' }
  | { type: 'reactivate' }
  | { type: 'reopen' };

export type ActionType = Action['type'];

export type TransitionResult = { ok: true; to: VerificationStatus } | { ok: false; from: VerificationStatus; to: VerificationStatus; action: ActionType };

const PRE_REVIEW: ReadonlySet<VerificationStatus> = new Set(['not_started', 'init', 'awaiting_information']);

/** The status an action aims at, used to name the refused move. */
function target(subject: Subject, from: VerificationStatus, action: Action): VerificationStatus {
  switch (action.type) {
    case 'data_changed':
      return action.complete ? 'init' : 'awaiting_information';
    case 'request_verification':
      return subject === 'entity' && !action.personsReady ? 'awaiting_associated_person_information' : 'under_review';
    case 'persons_ready':
    case 'resubmitted':
    case 'reopen':
      return 'under_review';
    case 'persons_not_ready':
      return 'awaiting_associated_person_information';
    case 'approve':
    case 'reactivate':
      return 'active';
    case 'reject':
      return 'rejected';
    case 'request_resubmission':
      return 'resubmission_requested';
    case 'deactivate':
      return 'inactive';
    default: {
      const never: never = action;
      return never ?? from;
    }
  }
}

function allowed(subject: Subject, from: VerificationStatus, action: Action): boolean {
  switch (action.type) {
    case 'data_changed':
      // Data steers a case only until verification is requested.
      return PRE_REVIEW.has(from);
    case 'request_verification':
      // Only complete data (init) can be submitted; awaiting_information is refused earlier with what is missing.
      return from === 'init';
    case 'persons_ready':
      return subject === 'entity' && from === 'awaiting_associated_person_information';
    case 'persons_not_ready':
      return subject === 'entity' && from === 'under_review';
    case 'approve':
    case 'reject':
    case 'request_resubmission':
      return from === 'under_review';
    case 'resubmitted':
      return from === 'resubmission_requested';
    case 'deactivate':
      return from === 'active';
    case 'reactivate':
      return from === 'inactive';
    case 'reopen':
      return from === 'rejected';
  }
}

export function transition(subject: Subject, from: VerificationStatus, action: Action): TransitionResult {
  const to = target(subject, from, action);
  if (allowed(subject, from, action)) return { ok: true, to };
  return { ok: false, from, to, action: action.type };
}

/** Statuses from which an integrator may still change data freely (and that data drives). */
export function isPreReview(status: VerificationStatus): boolean {
  return PRE_REVIEW.has(status);
}

/** Every action type, for the `action` of a *.verification_status.changed event's object. */
export const ACTION_TYPES = Object.keys({
  data_changed: true,
  request_verification: true,
  persons_ready: true,
  persons_not_ready: true,
  approve: true,
  reject: true,
  request_resubmission: true,
  resubmitted: true,
  deactivate: true,
  reactivate: true,
  reopen: true,
} satisfies Record<ActionType, true>) as ActionType[];
