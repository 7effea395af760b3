/**
 * The shapes tests read from responses and stored events. Where the domain exports a view type it is re-exported
 * from here (one import line for a test); what the domain has no exported type for is declared below.
 */
import type { FieldError } from '../../src/domain/errors.js';
import type { Problem } from '../../src/http/schemas/problem.js';

export type { FieldError, Problem };
export type { CredentialView } from '../../src/domain/credentials/credentials.js';
export type { EventView } from '../../src/domain/events/event-view.js';
export type { AccountView } from '../../src/domain/onboarding/accounts/account-view.js';
export type { AssociatedPersonSummary, EntityAccountView } from '../../src/domain/onboarding/entities/entity-view.js';
export type { AssociatedPersonView } from '../../src/domain/onboarding/persons/associated-persons.js';
export type { DocumentView } from '../../src/domain/onboarding/types.js';
export type { UserAccountView } from '../../src/domain/onboarding/users/user-view.js';
export type { TransactionView } from '../../src/domain/transactions/transaction-view.js';
export type { AttemptView, DeliveryView } from '../../src/domain/webhooks/deliveries.js';
export type { ReviewItem } from '../../src/domain/verification/review.js';

/** A stored or delivered event's `data` for an object created or deleted: the object as it was then. */
export interface EventData<T> {
  object: T;
}

/**
 * An `*.updated` (or status change) event's `data`: the object after the change, and in `previousAttributes` the
 * values the change replaced (`Changed` names the keys a test reads there; an object-valued one, such as entityInfo,
 * holds only its changed members).
 */
export interface ChangeData<T, Changed extends keyof T = keyof T> extends EventData<T> {
  previousAttributes: Pick<T, Changed>;
}

/**
 * `data.object` of a `*.verification_status.changed` event: the record's id under its own name (userId,
 * entityId, beneficiaryId), the new status, and the action and reason that moved it.
 */
export interface StatusChange {
  userId?: string;
  entityId?: string;
  beneficiaryId?: string;
  verificationStatus: string;
  action: string;
  reason: string | null;
}

/** One entry of a review case's `history` (operators' API and `admin review show`): a status move, oldest first. */
export interface CaseHistoryEntry {
  fromStatus: string;
  toStatus: string;
  action: string;
  actorType: string;
  actorId: string | null;
  reason: string | null;
  at: string;
}

/** The members of a webhook subscription (as the API and its events show it) that tests read. */
export interface WebhookSubscription {
  id: string;
  name: string;
  url: string;
  eventTypes: string[];
  httpHeaders: Record<string, string>;
  activeSigningKeyId: string;
  updatedAt: string;
}
