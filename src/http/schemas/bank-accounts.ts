import { Type } from 'typebox';
import { BANK_ACCOUNT_STATUSES } from '../../db/schema/index.js';
import { BANK_CURRENCIES } from '../../domain/bank-accounts/bank-details.js';
import { exactlyOneOf } from './combinators.js';
import { AddressSchema, Nullable, Uuid } from './onboarding/common.js';

const Currency = Type.Enum([...BANK_CURRENCIES], { type: 'string', description: 'USD (ACH, with `us`) or EUR (SEPA, with `iban`)' });

export const CreateBankAccountBody = Type.Object(
  {
    accountId: Uuid('An active account of the integrator (individual or entity)'),
    currency: Currency,
    accountHolderName: Type.String({ maxLength: 200, description: '2 to 140 characters; compared with the KYC name (individual) or the legal or trade name (entity)' }),
    bankName: Type.Optional(Type.String({ maxLength: 140 })),
    us: Type.Optional(
      Type.Object(
        {
          accountNumber: Type.String({ maxLength: 40, description: '4 to 17 digits; sealed at rest, never returned (only last4)' }),
          routingNumber: Type.String({ maxLength: 40, description: 'The 9-digit ABA routing number (checksum verified)' }),
          accountType: Type.Enum(['checking', 'savings'], { type: 'string' }),
        },
        { additionalProperties: false, description: 'A US account paid by ACH; only with currency USD' },
      ),
    ),
    iban: Type.Optional(
      Type.Object(
        {
          iban: Type.String({ maxLength: 64, description: 'An IBAN of a SEPA country (spaces allowed; mod-97 and length checked); sealed at rest, never returned (only last4)' }),
          bic: Type.Optional(Type.String({ maxLength: 20, description: 'The bank’s BIC (8 or 11 characters)' })),
        },
        { additionalProperties: false, description: 'A SEPA account; only with currency EUR' },
      ),
    ),
    address: Type.Optional(AddressSchema),
  },
  { additionalProperties: false, ...exactlyOneOf('us', 'iban'), description: 'Exactly one of us (currency USD) and iban (currency EUR)' },
);

export const BankAccountSchema = Type.Object(
  {
    bankAccountId: Uuid(),
    accountId: Uuid(),
    currency: Currency,
    rail: Type.Enum(['ach', 'sepa'], { type: 'string' }),
    accountHolderName: Type.String(),
    bankName: Nullable(Type.String()),
    last4: Type.String({ description: 'The last four characters of the account number or IBAN' }),
    routingNumber: Nullable(Type.String({ description: 'ACH: the routing number' })),
    accountType: Nullable(Type.Enum(['checking', 'savings'], { type: 'string' })),
    ibanCountry: Nullable(Type.String({ description: 'SEPA: the IBAN’s country (ISO 3166-1 alpha-2)' })),
    bic: Nullable(Type.String()),
    address: Nullable(AddressSchema),
    status: Type.Enum([...BANK_ACCOUNT_STATUSES], { type: 'string', description: 'verified: withdrawals may be paid to it; pending_review: an operator compares the holder name; rejected; removed' }),
    rejectionReason: Nullable(Type.String()),
    removedAt: Nullable(Type.String({ format: 'date-time' })),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, title: 'BankAccount', description: 'An external bank account (the number itself is never returned)' },
);

export const BankAccountPageSchema = Type.Object(
  {
    data: Type.Array(BankAccountSchema),
    hasMore: Type.Boolean({ description: 'More bank accounts follow; pass the last bankAccountId as startingAfter' }),
  },
  { additionalProperties: false, description: 'One page of an account’s bank accounts (not removed), oldest first' },
);

export const ListBankAccountsQuery = Type.Object(
  {
    accountId: Uuid(),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    startingAfter: Type.Optional(Uuid('The last bankAccountId of the previous page')),
  },
  { additionalProperties: false },
);

export const BankAccountIdBody = Type.Object({ bankAccountId: Uuid() }, { additionalProperties: false });

export const SimulateBankAccountReviewBody = Type.Object(
  { bankAccountId: Uuid(), outcome: Type.Enum(['approve', 'reject'], { type: 'string' }) },
  { additionalProperties: false },
);

/** Operators: a bank account with its integrator, the names its holder is compared with, and its audit trail. */
export const BankAccountCaseSchema = Type.Object(
  {
    ...BankAccountSchema.properties,
    integratorId: Uuid(),
    integratorName: Type.String(),
    expectedHolderNames: Type.Array(Type.String(), { description: 'The KYC name (individual) or the legal and trade names (entity)' }),
    history: Type.Array(
      Type.Object(
        {
          fromStatus: Nullable(Type.String()),
          toStatus: Type.String(),
          actorType: Type.Enum(['integrator', 'operator', 'system', 'sandbox'], { type: 'string' }),
          actorId: Nullable(Type.String()),
          reason: Nullable(Type.String()),
          at: Type.String({ format: 'date-time' }),
        },
        { additionalProperties: false, title: 'BankAccountStatusChange' },
      ),
    ),
  },
  { additionalProperties: false, title: 'BankAccountCase' },
);

export const BankAccountCasePageSchema = Type.Object(
  { data: Type.Array(BankAccountCaseSchema), hasMore: Type.Boolean() },
  { additionalProperties: false, description: 'Bank accounts waiting for review, every integrator’s, oldest first' },
);

export const BankAccountDecisionBody = Type.Object(
  {
    outcome: Type.Enum(['approve', 'reject'], { type: 'string' }),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Required to reject; shown to the integrator as rejectionReason' })),
  },
  { additionalProperties: false },
);
