/**
 * Every event type the service emits, with what it means. Subscriptions may only name these (or `*`, or a
 * prefix wildcard such as `user.*`); docs/event-types.md shows a real payload of each, checked by a test.
 */
export const EVENT_TYPES = {
  'integrator.created': 'The operator created the integrator (the first event of every integrator)',
  'credential.created': 'A credential was issued',
  'credential.updated': 'A credential’s label, scope or active status changed (previousAttributes has the old values)',
  'credential.deleted': 'A credential was deleted (the object as it was)',
  'user.created': 'A user was created (create-user or create-individual-account)',
  'user.updated': 'A user’s data or documents changed',
  'user.verification_status.changed': 'A user’s verificationStatus changed',
  'account.created': 'An individual or entity account was created',
  'account.wallet_created': 'An entity account made before entities had wallets was given its custodial wallet (create-entity-wallet)',
  'account.approval_policy_updated': 'An owner changed how many member approvals a transaction from the entity wallet needs (previousAttributes has the old requiredApprovals)',
  'account.product_enabled': 'An account enabled a product (object: the account’s product, with termsAcceptedAt)',
  'account.product_disabled': 'An account disabled a product: its operations refuse the account until it is enabled again',
  'member.added': 'A user became a member of an entity account: its representative as first owner, or by accepting an invitation',
  'member.role_changed': 'A member’s role changed (previousAttributes has the old role)',
  'member.removed': 'A member was removed from an entity account (the object as it was)',
  'invitation.created': 'An invitation to become a member was created and queued for email',
  'invitation.accepted': 'An invitation was accepted (object.acceptedUserId is the new member)',
  'invitation.revoked': 'An invitation was revoked before it was accepted',
  'invitation.expired': 'An invitation reached its expiry unaccepted',
  'onboarding_link.created': 'An onboarding link was made (POST /v1/onboarding-links); never its token or url',
  'onboarding_link.opened': 'An onboarding link’s hosted page was first served (status opened)',
  'onboarding_link.completed': 'A customer finished the hosted onboarding flow (object.userId is the user it created or completed)',
  'onboarding_link.expired': 'An onboarding link reached its expiry before it was completed',
  'onboarding_link.revoked': 'An onboarding link was revoked: by DELETE, or by a newer link for the same customer',
  'requirements.updated': 'What a user or entity owes changed (object.requirements: currentlyDue, pastDue, pendingVerification, errors; previousAttributes.requirements the old ones): send a new onboarding link when currentlyDue is not empty',
  'entity.created': 'An entity was created with its account',
  'entity.updated': 'An entity’s data or documents changed',
  'entity.verification_status.changed': 'An entity’s verificationStatus changed',
  'associated_person.created': 'A UBO or representative was added to an entity',
  'associated_person.updated': 'An associated person’s data, documents or role changed',
  'associated_person.removed': 'An associated person was removed from its entity',
  'associated_person.verification_status.changed': 'An associated person’s verificationStatus changed',
  'review_case.opened': 'A compliance case was opened for an operator on a customer outside review, whose verificationStatus stays as it is until an operator decides: a new screening-list hit on an active customer after the lists or its data changed, or money from a listed wallet address (object.reason)',
  'bank_account.created': 'A bank account was added: verified when the holder name matches the KYC or company name, else pending_review',
  'bank_account.status_changed': 'A bank account was verified or rejected after review (previousAttributes has the old status)',
  'bank_account.removed': 'A bank account was removed (soft delete: withdrawals keep referring to it)',
  'policy.created': 'A spending policy was created (object: the policy with its rules, amounts also in base units)',
  'policy.deleted': 'A spending policy was deleted: it no longer applies (object: the policy as it was, with deletedAt)',
  'webhook_subscription.created': 'A webhook subscription was created',
  'webhook_subscription.updated': 'A webhook subscription was changed by the integrator (including re-enabling it)',
  'webhook_subscription.key_rotated': 'A subscription’s signing key was rotated (the old key signs for 24 more hours)',
  'webhook_subscription.deleted': 'A webhook subscription was deleted',
  'webhook_subscription.disabled': 'The service disabled a subscription: its endpoint answered 410, or failed for too long (data.reason)',
  'webhook.test': 'A test delivery asked for with POST /v1/webhooks/subscriptions/{id}/test: delivered to that subscription only, whatever its eventTypes',
  'transaction.created': 'A transaction was created: a transfer signed and broadcast (processing), a fiat deposit awaiting its funds (waiting_for_funds), a withdrawal or vault call prepared for its approval (created), or an incoming transfer seen on chain, waiting for its confirmations (processing, kind incoming)',
  'transaction.status.changed': 'A transaction’s status changed (previousAttributes has the old status)',
  'transaction.completed': 'A transaction was mined successfully (the object has transactionReceipt), or an incoming transfer has its confirmations (kind incoming)',
  'transaction.approval_added': 'A member approved a transaction from an entity wallet (object.approvals has the quorum so far)',
  'transaction.failed': 'A transaction failed: reverted on chain or dropped by the node after broadcast, or a deposit cancelled or expired, a quote or proposal expired, a withdrawal approved after its bank account was removed, an incoming transfer whose block left the chain (object.failureReason)',
} as const satisfies Record<string, string>;

export type EventType = keyof typeof EVENT_TYPES;

export const ALL_EVENT_TYPES = Object.keys(EVENT_TYPES) as EventType[];

const PREFIXES = new Set(ALL_EVENT_TYPES.flatMap((t) => t.split('.').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('.'))));

/** True for `*`, a catalogue type, or `<prefix>.*` where some catalogue type starts with `<prefix>.`. */
export function isSubscribableType(pattern: string): boolean {
  if (pattern === '*' || pattern in EVENT_TYPES) return true;
  return pattern.endsWith('.*') && PREFIXES.has(pattern.slice(0, -2));
}

/** The patterns that select `type`: `*`, each `<prefix>.*` and the type itself (for a jsonb `?|` match). */
export function patternsMatching(type: string): string[] {
  const parts = type.split('.');
  const patterns = ['*', type];
  for (let i = 1; i < parts.length; i++) patterns.push(`${parts.slice(0, i).join('.')}.*`);
  return patterns;
}
