import type { Decision, VerificationStatus } from './types';

// What the buttons offer. The server's state machine (docs/verification.md) stays the authority: this only
// avoids offering moves it would refuse, and a 409 from it is still shown.

export const DECISION_LABELS: Record<Decision, string> = {
  approve: 'Approve',
  request_resubmission: 'Request resubmission',
  reject: 'Reject',
  deactivate: 'Deactivate',
  reactivate: 'Reactivate',
  reopen: 'Reopen',
};

const ALLOWED: Partial<Record<VerificationStatus, readonly Decision[]>> = {
  under_review: ['approve', 'request_resubmission', 'reject'],
  active: ['deactivate'],
  inactive: ['reactivate'],
  rejected: ['reopen'],
};

export function decisionsFor(status: VerificationStatus): readonly Decision[] {
  return ALLOWED[status] ?? [];
}

/** As on the server: every decision but approve and reactivate must say why. */
export function reasonRequired(decision: Decision): boolean {
  return decision !== 'approve' && decision !== 'reactivate';
}
