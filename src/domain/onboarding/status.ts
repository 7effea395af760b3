import type { VerificationStatus } from '../../db/schema/index.js';

/**
 * Creating a record with everything required present requests its verification at once (docs/verification.md):
 * a user or associated person goes to under_review; a complete entity waits for its associated persons.
 * Anything missing: awaiting_information.
 */
export function initialPersonStatus(missing: readonly string[]): VerificationStatus {
  return missing.length > 0 ? 'awaiting_information' : 'under_review';
}

export function initialEntityStatus(missingDocuments: readonly string[], missingData: readonly string[]): VerificationStatus {
  return missingDocuments.length > 0 || missingData.length > 0 ? 'awaiting_information' : 'awaiting_associated_person_information';
}

/** An entity's persons are ready when it has a representative and every UBO and representative is active. */
export function personsReady(persons: readonly { beneficiaryType: readonly string[]; verificationStatus: VerificationStatus }[]): boolean {
  return persons.some((p) => p.beneficiaryType.includes('representative')) && persons.every((p) => p.verificationStatus === 'active');
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
