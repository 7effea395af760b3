import { Type, type TSchema } from 'typebox';
import { ALL_EVENT_TYPES, EVENT_TYPES, type EventType } from '../../domain/events/catalogue.js';
import type { EventView } from '../../domain/events/event-view.js';
import { ACTION_TYPES } from '../../domain/verification/state-machine.js';
import { BankAccountSchema } from './bank-accounts.js';
import { OneOf } from './combinators.js';
import { CredentialRef } from './credentials.js';
import { InvitationSchema } from './invitations.js';
import { OnboardingLinkSchema } from './onboarding-links.js';
import { RequirementsSchema } from './onboarding/requirements.js';
import { ApprovalPolicySchema, MemberSchema } from './members.js';
import { AccountSchema } from './onboarding/accounts.js';
import { Nullable, VerificationStatusSchema } from './onboarding/common.js';
import { AssociatedPersonResponse, EntityAccountResponse } from './onboarding/entities.js';
import { UserDetailsResponse } from './onboarding/users.js';
import { PolicySchema } from './policies.js';
import { AccountProductSchema } from './products.js';
import { TransactionRef } from './transactions.js';
import { SubscriptionRef } from './webhooks.js';

// Events (docs/events.md, docs/event-types.md): one schema per event type, keyed on `type`, each naming the object
// its `data.object` holds, so a generated client narrows `data.object` by checking `type`.

const DateTime = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });
const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });

const IntegratorSchema = Type.Object(
  { integratorId: Uuid(), name: Type.String(), createdAt: DateTime() },
  { additionalProperties: false, title: 'Integrator', description: 'The integrator, as the operator created it' },
);

/** The object of a `*.verification_status.changed` event: whose status, the new status, and what moved it. */
const statusChange = (title: string, idField: string, whose: string) =>
  Type.Object(
    {
      [idField]: Uuid(),
      verificationStatus: VerificationStatusSchema,
      action: Type.Enum(ACTION_TYPES, { type: 'string', description: 'What moved the status (docs/verification.md)' }),
      reason: Nullable(Type.String({ description: 'The operator’s or the sandbox’s reason, if one was given' })),
    },
    { additionalProperties: false, title, description: `${whose} new verification status` },
  );

const PreviousAttributes = Type.Record(Type.String(), Type.Unknown(), { description: 'For changes: the changed fields’ values before the change' });

/** `data` of the events about one kind of object: the object after the change, and what changed. */
const eventData = (title: string, object: TSchema, extra: Record<string, TSchema> = {}) =>
  Type.Object({ object, previousAttributes: Type.Optional(PreviousAttributes), ...extra }, { additionalProperties: false, title });

const data = {
  integrator: eventData('IntegratorEventData', IntegratorSchema),
  credential: eventData('CredentialEventData', CredentialRef),
  user: eventData('UserEventData', UserDetailsResponse),
  userStatus: eventData('UserVerificationStatusEventData', statusChange('UserVerificationStatusChange', 'userId', 'The user’s')),
  account: eventData('AccountEventData', AccountSchema),
  approvalPolicy: eventData('ApprovalPolicyEventData', ApprovalPolicySchema),
  accountProduct: eventData('AccountProductEventData', AccountProductSchema),
  member: eventData('MemberEventData', MemberSchema),
  invitation: eventData('InvitationEventData', InvitationSchema),
  onboardingLink: eventData('OnboardingLinkEventData', OnboardingLinkSchema),
  requirements: eventData(
    'RequirementsEventData',
    Type.Object(
      {
        userId: Type.Optional(Uuid('A user’s requirements')),
        entityId: Type.Optional(Uuid('An entity’s requirements')),
        accountId: Nullable(Uuid()),
        requirements: RequirementsSchema,
      },
      { additionalProperties: false, title: 'RequirementsChange', description: 'The customer and its new requirements' },
    ),
  ),
  entity: eventData('EntityEventData', EntityAccountResponse),
  entityStatus: eventData('EntityVerificationStatusEventData', statusChange('EntityVerificationStatusChange', 'entityId', 'The entity’s')),
  person: eventData('AssociatedPersonEventData', AssociatedPersonResponse),
  personStatus: eventData('AssociatedPersonVerificationStatusEventData', statusChange('AssociatedPersonVerificationStatusChange', 'beneficiaryId', 'The associated person’s')),
  bankAccount: eventData('BankAccountEventData', BankAccountSchema),
  policy: eventData('PolicyEventData', PolicySchema),
  subscription: eventData('WebhookSubscriptionEventData', SubscriptionRef),
  subscriptionDisabled: eventData('WebhookSubscriptionDisabledEventData', SubscriptionRef, {
    reason: Type.Enum(['gone', 'failing'], { type: 'string', description: 'gone: the endpoint answered 410; failing: it failed for too long' }),
    detail: Type.String({ description: 'What the last attempts found' }),
  }),
  test: eventData('WebhookTestEventData', SubscriptionRef, { test: Type.Literal(true) }),
  transaction: eventData('TransactionEventData', TransactionRef),
  reviewCase: eventData(
    'ReviewCaseEventData',
    Type.Object(
      {
        subjectType: Type.Enum(['user', 'associated_person', 'entity'], { type: 'string' }),
        userId: Type.Optional(Uuid()),
        beneficiaryId: Type.Optional(Uuid()),
        entityId: Type.Optional(Uuid()),
        verificationStatus: Type.String({ description: 'Unchanged by the opening: an operator decides' }),
        reason: Type.Enum(['screening_hit', 'incoming_from_listed_address'], { type: 'string' }),
        openedAt: DateTime(),
      },
      { additionalProperties: false, title: 'ReviewCase' },
    ),
  ),
};

/** Each type's `objectType` and `data`: a test emits every type and checks each against its schema. */
const PAYLOADS: Record<EventType, [objectType: string | string[], data: TSchema]> = {
  'integrator.created': ['integrator', data.integrator],
  'credential.created': ['credential', data.credential],
  'credential.updated': ['credential', data.credential],
  'credential.deleted': ['credential', data.credential],
  'user.created': ['user', data.user],
  'user.updated': ['user', data.user],
  'user.verification_status.changed': ['user', data.userStatus],
  'account.created': ['account', data.account],
  'account.wallet_created': ['account', data.account],
  'account.approval_policy_updated': ['account', data.approvalPolicy],
  'account.product_enabled': ['account_product', data.accountProduct],
  'account.product_disabled': ['account_product', data.accountProduct],
  'member.added': ['member', data.member],
  'member.role_changed': ['member', data.member],
  'member.removed': ['member', data.member],
  'invitation.created': ['invitation', data.invitation],
  'invitation.accepted': ['invitation', data.invitation],
  'invitation.revoked': ['invitation', data.invitation],
  'invitation.expired': ['invitation', data.invitation],
  'onboarding_link.created': ['onboarding_link', data.onboardingLink],
  'onboarding_link.opened': ['onboarding_link', data.onboardingLink],
  'onboarding_link.completed': ['onboarding_link', data.onboardingLink],
  'onboarding_link.expired': ['onboarding_link', data.onboardingLink],
  'onboarding_link.revoked': ['onboarding_link', data.onboardingLink],
  'requirements.updated': [['user', 'entity'], data.requirements],
  'entity.created': ['entity', data.entity],
  'entity.updated': ['entity', data.entity],
  'entity.verification_status.changed': ['entity', data.entityStatus],
  'associated_person.created': ['associated_person', data.person],
  'associated_person.updated': ['associated_person', data.person],
  'associated_person.removed': ['associated_person', data.person],
  'associated_person.verification_status.changed': ['associated_person', data.personStatus],
  'review_case.opened': ['review_case', data.reviewCase],
  'bank_account.created': ['bank_account', data.bankAccount],
  'bank_account.status_changed': ['bank_account', data.bankAccount],
  'bank_account.removed': ['bank_account', data.bankAccount],
  'policy.created': ['policy', data.policy],
  'policy.deleted': ['policy', data.policy],
  'webhook_subscription.created': ['webhook_subscription', data.subscription],
  'webhook_subscription.updated': ['webhook_subscription', data.subscription],
  'webhook_subscription.key_rotated': ['webhook_subscription', data.subscription],
  'webhook_subscription.deleted': ['webhook_subscription', data.subscription],
  'webhook_subscription.disabled': ['webhook_subscription', data.subscriptionDisabled],
  'webhook.test': ['webhook_subscription', data.test],
  'transaction.created': ['transaction', data.transaction],
  'transaction.status.changed': ['transaction', data.transaction],
  'transaction.completed': ['transaction', data.transaction],
  'transaction.approval_added': ['transaction', data.transaction],
  'transaction.failed': ['transaction', data.transaction],
};

/** `user.verification_status.changed` → `UserVerificationStatusChangedEvent`. */
export const eventSchemaName = (type: string) =>
  `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Event`;

const eventOfType = (type: EventType) => {
  const [objectType, dataSchema] = PAYLOADS[type];
  return Type.Object(
    {
      id: Uuid('Also the webhook-id of every delivery of this event'),
      type: Type.Literal(type),
      objectType: typeof objectType === 'string' ? Type.Literal(objectType) : Type.Enum(objectType, { type: 'string' }),
      objectId: Type.String({ description: 'The object the event is about' }),
      sequence: Type.Integer({ minimum: 1, description: 'Per object, strictly increasing: order one object’s events by it' }),
      apiVersion: Type.String({ description: 'The API version whose shapes data.object follows', examples: ['0.2.0'] }),
      createdAt: DateTime(),
      data: dataSchema,
    },
    { additionalProperties: false, title: eventSchemaName(type), description: EVENT_TYPES[type] },
  );
};

/**
 * Every event, keyed on `type` (the named component `Event`, by its title). The events routes write stored events
 * as they are (events.ts): an event is immutable and keeps the shape of the apiVersion it was made under. Not a
 * shared schema (app.addSchema): the serializer compiler checks every shared schema again for every route it
 * compiles, and this one is large (40 branches), which cost about 2 s of every server start.
 */
export const EventSchema = OneOf(
  ALL_EVENT_TYPES.map((type) => eventOfType(type)),
  { title: 'Event', description: 'An event: `type` says which, and what `data.object` is (docs/event-types.md)' },
);
export const EventRef = Type.Unsafe<EventView>(EventSchema);

export const EventPageSchema = Type.Object(
  { data: Type.Array(EventRef), hasMore: Type.Boolean({ description: 'More events follow; pass the last id as startingAfter' }) },
  { additionalProperties: false, description: 'One page of events' },
);
