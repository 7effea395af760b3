import type { Executor } from '../../db/database.js';
import type { OnboardingLinkRow } from '../../db/repositories/onboarding-links.js';
import { recordEvent } from '../events/record-event.js';

/** An onboarding link as the API and its events show it (docs/onboarding-links.md). Never the token. */
export interface OnboardingLinkView {
  onboardingLinkId: string;
  type: OnboardingLinkRow['type'];
  status: OnboardingLinkRow['status'];
  userId: string | null;
  email: string | null;
  redirectUrl: string | null;
  expiresAt: string;
  openedAt: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const iso = (at: Date | null) => (at ? at.toISOString() : null);

export function toOnboardingLinkView(row: OnboardingLinkRow): OnboardingLinkView {
  return {
    onboardingLinkId: row.id,
    type: row.type,
    status: row.status,
    userId: row.userId,
    email: row.email,
    redirectUrl: row.redirectUrl,
    expiresAt: row.expiresAt.toISOString(),
    openedAt: iso(row.openedAt),
    completedAt: iso(row.completedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export type OnboardingLinkEventType = 'onboarding_link.created' | 'onboarding_link.opened' | 'onboarding_link.completed' | 'onboarding_link.expired' | 'onboarding_link.revoked';

/** A link's events are about the link (objectId: its id), written in the transaction of its change. */
export async function recordLinkEvent(tx: Executor, type: OnboardingLinkEventType, row: OnboardingLinkRow, at: Date, previous?: OnboardingLinkRow): Promise<OnboardingLinkView> {
  const view = toOnboardingLinkView(row);
  const previousAttributes = previous && previous.status !== row.status ? { status: previous.status } : undefined;
  await recordEvent(tx, { integratorId: row.integratorId, type, objectType: 'onboarding_link', objectId: row.id, object: view, at, ...(previousAttributes ? { previousAttributes } : {}) });
  return view;
}
