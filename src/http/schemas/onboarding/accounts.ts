import { Type } from 'typebox';
import { Nullable, Uuid, VerificationStatusSchema } from './common.js';

export const AccountSchema = Type.Object(
  {
    accountId: Uuid(),
    type: Type.Enum(['individual', 'entity'], { type: 'string' }),
    userId: Type.Optional(Uuid('Individual accounts')),
    entityId: Type.Optional(Uuid('Entity accounts')),
    verificationStatus: VerificationStatusSchema,
    walletAddress: Nullable(Type.String()),
    custody: Nullable(Type.Enum(['custodial', 'self_custodial'], { type: 'string' })),
    organizationId: Type.Optional(Uuid('Custody organization of a custodial wallet')),
    requiredApprovals: Nullable(Type.Integer()),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, title: 'Account', description: 'An account' },
);

export const AccountPageSchema = Type.Object(
  {
    data: Type.Array(AccountSchema),
    hasMore: Type.Boolean({ description: 'More accounts follow; pass the last accountId as startingAfter' }),
  },
  { additionalProperties: false, description: 'One page of accounts, oldest first' },
);

export const ListAccountsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    startingAfter: Type.Optional(Uuid('The last accountId of the previous page')),
    type: Type.Optional(Type.Enum(['individual', 'entity'], { type: 'string' })),
    verificationStatus: Type.Optional(VerificationStatusSchema),
  },
  { additionalProperties: false },
);
