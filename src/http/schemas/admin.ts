import { Type } from 'typebox';
import { TRANSACTION_STATUSES } from '../../db/schema/index.js';
import { VERIFICATION_STATUSES } from '../../db/schema/verification-status.js';
import { ROLES } from '../../domain/members/roles.js';
import { DECISIONS } from '../../domain/verification/decisions.js';
import { TransactionSchema } from './transactions.js';
import { Nullable, Uuid, VerificationStatusSchema } from './onboarding/common.js';
import { CaseWorkProperties, QueueFilterProperties, QueueItemProperties, RelatedSubjectSchema } from './admin-cases.js';
import { FORMATS, patterned } from './patterns.js';

/*
 * The operators' API, described by the same schemas that validate its requests and shape its answers; they make
 * the admin OpenAPI document (/admin/openapi.json; docs/review.md).
 */

const DateTime = () => Type.String({ format: 'date-time' });
const ACTOR_TYPES = ['integrator', 'operator', 'system', 'sandbox'] as const;

export const ADMIN_TAGS = { reviews: ['Reviews'], deposits: ['Deposits'], bankAccounts: ['Bank accounts'], withdrawals: ['Withdrawals'], screening: ['Screening'], ledger: ['Ledger'], reconciliation: ['Reconciliation'], operator: ['Operator'] };

/** Every admin route can fail the bearer token, the server or its database (503); a write can also lose a lock conflict. */
export const ADMIN_READ_ERRORS = [400, 401, 429, 500, 503] as const;
export const ADMIN_WRITE_ERRORS = [400, 401, 413, 415, 429, 500, 503] as const;

export const SubjectTypeSchema = Type.Enum(['user', 'associated_person', 'entity'], { type: 'string' });
export const CaseParams = Type.Object({ subjectType: SubjectTypeSchema, subjectId: Uuid() }, { additionalProperties: false });
export const DocumentParams = Type.Object({ documentId: Uuid() }, { additionalProperties: false });
export const ReferenceParams = Type.Object({ reference: patterned(FORMATS.depositReference, { description: 'The deposit’s transfer reference' }) }, { additionalProperties: false });

export const OperatorSchema = Type.Object(
  { operatorId: Uuid(), name: Type.String(), role: Type.Enum(['reviewer', 'supervisor'], { type: 'string', description: 'supervisor: also confirms or overturns another operator’s proposal' }) },
  { additionalProperties: false },
);

export const ReviewQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Enum([...VERIFICATION_STATUSES], { type: 'string', description: 'Only records in this status; absent: every under_review record and every case open on an active customer' }),
    ),
    ...QueueFilterProperties,
    integratorId: Type.Optional(Uuid()),
    olderThanSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 3_155_760_000, description: 'Only cases unchanged for at least this long (at most 100 years)' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    startingAfter: Type.Optional(patterned(FORMATS.cursor, { minLength: 1, maxLength: 200, description: 'The nextCursor of the previous page' })),
  },
  { additionalProperties: false },
);

const ReviewItemSchema = Type.Object(
  {
    subjectType: SubjectTypeSchema,
    subjectId: Uuid(),
    integratorId: Uuid(),
    integratorName: Type.String(),
    verificationStatus: VerificationStatusSchema,
    name: Type.String({ description: 'The person’s name or the company’s legal name' }),
    since: Type.String({ format: 'date-time', description: 'When the record last changed: the queue is oldest first' }),
    ...QueueItemProperties,
  },
  { additionalProperties: false },
);

export const ReviewPageSchema = Type.Object(
  { data: Type.Array(ReviewItemSchema), hasMore: Type.Boolean(), nextCursor: Nullable(Type.String()) },
  { additionalProperties: false },
);

/** An entity's team (docs/members.md), on its case only: who operates the wallet and what waits for their quorum. */
const CaseMemberSchema = Type.Object(
  {
    userId: Uuid(),
    role: Type.Enum([...ROLES], { type: 'string' }),
    firstName: Nullable(Type.String()),
    lastName: Nullable(Type.String()),
    email: Nullable(Type.String()),
    since: Type.String({ format: 'date-time', description: 'When the user became a member' }),
  },
  { additionalProperties: false },
);

const PendingApprovalSchema = Type.Object(
  {
    transactionId: Uuid(),
    kind: Type.Enum(['transfer', 'withdrawal', 'vault_deposit', 'vault_withdrawal'], { type: 'string' }),
    chainId: Type.Integer(),
    toAddress: Nullable(Type.String()),
    value: patterned(FORMATS.integer, { description: 'Wei, decimal' }),
    proposedByUserId: Uuid(),
    createdAt: DateTime(),
    expiresAt: Type.String({ format: 'date-time', description: 'When it fails without its quorum: 24 h after the proposal (transfer) or the quote’s expiry (withdrawal)' }),
    approvals: Type.Object(
      {
        required: Type.Integer({ minimum: 1 }),
        received: Type.Array(Type.Object({ userId: Uuid(), at: DateTime() }, { additionalProperties: false, title: 'ReceivedApproval' }), { description: 'Approvals that count now (owners and approvers), oldest first' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const CaseSchema = Type.Object(
  {
    subjectType: SubjectTypeSchema,
    subjectId: Uuid(),
    integratorId: Uuid(),
    verificationStatus: VerificationStatusSchema,
    findings: Type.Array(
      Type.Object(
        {
          documentId: Nullable(Uuid()),
          severity: Type.Enum(['warning', 'error'], { type: 'string' }),
          code: Type.String(),
          message: Type.String(),
          hitId: Nullable(Uuid('The screening hit a watch-list finding reports')),
          related: RelatedSubjectSchema,
        },
        { additionalProperties: false },
      ),
    ),
    missingDocuments: Type.Array(Type.String()),
    missingCompanyData: Type.Array(Type.String()),
    record: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'The record as its integrator reads it (get-user-details, get-associated-person-details or get-entity-details); each document also has a contentUrl under /admin/api/documents',
      },
    ),
    history: Type.Array(
      Type.Object(
        {
          fromStatus: Type.String(),
          toStatus: Type.String(),
          action: Type.String(),
          actorType: Type.Enum([...ACTOR_TYPES], { type: 'string' }),
          actorId: Nullable(Type.String()),
          reason: Nullable(Type.String()),
          at: DateTime(),
        },
        { additionalProperties: false },
      ),
    ),
    ...CaseWorkProperties,
    requiredApprovals: Type.Optional(Type.Integer({ minimum: 1, description: 'Entity cases: the approval policy of its wallet' })),
    members: Type.Optional(Type.Array(CaseMemberSchema, { description: 'Entity cases: the account’s members, oldest first' })),
    pendingApprovals: Type.Optional(
      Type.Array(PendingApprovalSchema, { description: 'Entity cases: members’ proposals in created waiting for the quorum, oldest first (at most 100)' }),
    ),
  },
  { additionalProperties: false },
);

export const DecisionBody = Type.Object(
  {
    decision: Type.Enum([...DECISIONS], { type: 'string' }),
    reasons: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { minItems: 1, maxItems: 10, description: 'Required to reject or ask for resubmission' })),
    documents: Type.Optional(Type.Array(Uuid(), { maxItems: 20, description: 'request_resubmission: the documents to replace' })),
  },
  { additionalProperties: false },
);

export const DecisionResultSchema = Type.Object(
  { subjectType: SubjectTypeSchema, subjectId: Uuid(), verificationStatus: VerificationStatusSchema },
  { additionalProperties: false, title: 'DecisionResult' },
);

/** A document's bytes, in the media type it was uploaded with. */
export const DocumentContentResponse = {
  description: 'The document’s bytes',
  content: Object.fromEntries(['image/jpeg', 'image/png', 'application/pdf'].map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
};

const TransactionStatusSchema = Type.Enum([...TRANSACTION_STATUSES], { type: 'string' });

/** A deposit as its integrator reads it, with its integrator and its audit trail (who moved it, when, why). */
export const DepositAuditSchema = Type.Object(
  {
    ...TransactionSchema.properties,
    integratorId: Uuid(),
    history: Type.Array(
      Type.Object(
        {
          fromStatus: Nullable(TransactionStatusSchema),
          toStatus: TransactionStatusSchema,
          actorType: Type.Enum([...ACTOR_TYPES], { type: 'string' }),
          actorId: Nullable(Type.String()),
          detail: Nullable(Type.String()),
          at: DateTime(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
