import type { VerificationStatus } from '../../db/schema/index.js';

/**
 * Statuses that onboarding data still drives. Once a case is decided (active, rejected, inactive) or an
 * operator asked for specific items (resubmission_requested), only the review lifecycle moves it.
 */
const DATA_DRIVEN: ReadonlySet<VerificationStatus> = new Set(['not_started', 'init', 'awaiting_information', 'awaiting_associated_person_information', 'under_review']);

export function personStatus(missing: readonly string[]): VerificationStatus {
  return missing.length > 0 ? 'awaiting_information' : 'under_review';
}

/**
 * An entity needs its own data and documents, then at least one representative, and every associated person
 * complete (each person's own status no longer awaiting information).
 */
export function entityStatus(
  missingDocuments: readonly string[],
  missingData: readonly string[],
  persons: readonly { beneficiaryType: readonly string[]; verificationStatus: VerificationStatus }[],
): VerificationStatus {
  if (missingDocuments.length > 0 || missingData.length > 0) return 'awaiting_information';
  const hasRepresentative = persons.some((p) => p.beneficiaryType.includes('representative'));
  const allComplete = persons.every((p) => p.verificationStatus !== 'awaiting_information' && p.verificationStatus !== 'not_started' && p.verificationStatus !== 'init');
  return hasRepresentative && allComplete ? 'under_review' : 'awaiting_associated_person_information';
}

/** The status after a data change: recomputed while data drives it, kept once the review lifecycle does. */
export function nextStatus(current: VerificationStatus, computed: VerificationStatus): VerificationStatus {
  return DATA_DRIVEN.has(current) ? computed : current;
}

/** create-user answers in the spec's smaller status set. */
export type CreateUserStatus = 'under_review' | 'waiting_for_information' | 'active' | 'rejected' | 'inactive';

export function toCreateUserStatus(status: VerificationStatus): CreateUserStatus {
  switch (status) {
    case 'under_review':
    case 'active':
    case 'rejected':
    case 'inactive':
      return status;
    default:
      // not_started, init, awaiting_information, awaiting_associated_person_information, resubmission_requested
      return 'waiting_for_information';
  }
}
