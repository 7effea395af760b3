import { Type } from 'typebox';
import { OneOf } from '../combinators.js';
import { Nullable, Uuid, VerificationStatusSchema } from './common.js';

const accountFields = {
  accountId: Uuid(),
  verificationStatus: VerificationStatusSchema,
  walletAddress: Nullable(Type.String()),
  custody: Nullable(Type.Enum(['custodial', 'self_custodial'], { type: 'string' })),
  organizationId: Type.Optional(Uuid('Custody organization of a custodial wallet')),
  requiredApprovals: Nullable(Type.Integer()),
  createdAt: Type.String({ format: 'date-time' }),
};

export const IndividualAccountSchema = Type.Object(
  { ...accountFields, type: Type.Literal('individual'), userId: Uuid('The user who owns the account') },
  { additionalProperties: false, title: 'AccountIndividual', description: 'A user’s account' },
);

export const EntityAccountSummarySchema = Type.Object(
  { ...accountFields, type: Type.Literal('entity'), entityId: Uuid('The entity (company) that owns the account') },
  { additionalProperties: false, title: 'AccountEntity', description: 'An entity’s (company’s) account' },
);

/** An account, keyed on `type`: an individual account has `userId`, an entity account `entityId`. */
export const AccountSchema = OneOf([IndividualAccountSchema, EntityAccountSummarySchema], { title: 'Account', description: 'An account, individual or entity (keyed on type)' });

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
