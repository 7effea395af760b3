import { Type } from 'typebox';
import { LEDGER_ACCOUNT_KINDS, LEDGER_STATUSES } from '../../db/schema/index.js';
import { Nullable, Uuid } from './onboarding/common.js';
import { FORMATS, patterned } from './patterns.js';

// The ledger as the API shows it (docs/ledger.md#reading-it).

export const LedgerStatusSchema = Type.Enum([...LEDGER_STATUSES], { type: 'string', description: 'pending: signed or sent, not final yet; posted: final; archived: failed or reorged (voided, never deleted)' });
export const LedgerAccountKindSchema = Type.Enum([...LEDGER_ACCOUNT_KINDS], { type: 'string', description: 'What the account holds or stands for (docs/ledger.md#accounts)' });

export const LedgerAssetSchema = Type.Object(
  {
    code: patterned(FORMATS.ledgerAsset, { description: 'CAIP-19: the chain’s native coin, an ERC-20 token, or a fiat currency', examples: ['eip155:8453/slip44:60'] }),
    symbol: Type.String({ examples: ['ETH'] }),
    decimals: Type.Integer({ minimum: 0, maximum: 36 }),
    chainId: Nullable(Type.Integer({ minimum: 0, description: 'null for fiat' })),
    tokenAddress: Nullable(patterned(FORMATS.lowercaseAddress, { description: 'ERC-20 tokens’ contract (lower case); null otherwise' })),
  },
  { additionalProperties: false, title: 'LedgerAsset' },
);

const signed = (description: string) => patterned(FORMATS.signedDecimal, { description, examples: ['-0.0001005'] });
const signedRaw = (description: string) => patterned(FORMATS.signedInteger, { description, examples: ['-100500000000000'] });

export const LedgerBalancesSchema = Type.Object(
  {
    posted: signed('Sum of the posted entries, in the asset’s units'),
    pending: signed('Posted and pending entries: what the account holds once everything under way is final'),
    available: signed('Posted, less what pending entries take out: what can be spent now'),
    postedRaw: signedRaw('posted in base units'),
    pendingRaw: signedRaw('pending in base units'),
    availableRaw: signedRaw('available in base units'),
  },
  { additionalProperties: false, title: 'LedgerBalances' },
);

const CauseSchema = Type.Object(
  {
    type: Type.Enum(['transaction', 'payout', 'opening', 'adjustment'], { type: 'string', description: 'transaction: a transaction of the account; payout: a withdrawal’s fiat payout; opening: the balance when the ledger started' }),
    transactionId: Nullable(Uuid('The transaction that caused it (a payout: its withdrawal)')),
    payoutReference: Nullable(patterned(FORMATS.withdrawalReference, { description: 'A payout’s reference' })),
  },
  { additionalProperties: false, title: 'LedgerCause' },
);

const at = (description: string) => Nullable(Type.String({ format: 'date-time', description }));

export const LedgerEntrySchema = Type.Object(
  {
    ledgerEntryId: Uuid(),
    ledgerTransactionId: Uuid('The ledger transaction whose legs sum to zero per asset'),
    ledgerAccountId: Uuid(),
    asset: LedgerAssetSchema,
    amount: signed('Signed, in the asset’s units: positive adds to the account'),
    amountRaw: signedRaw('The same in base units'),
    status: LedgerStatusSchema,
    balanceAfter: Type.Optional({
      ...LedgerBalancesSchema,
      description: 'The account’s balances right after this entry was written: always on a customer account’s entries; absent on a service account’s (the treasury’s, say), whose balances are a sum of balance slots moved concurrently (docs/ledger.md#locking)',
    }),
    cause: CauseSchema,
    description: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    postedAt: at('When it became final'),
    archivedAt: at('When it was voided'),
  },
  { additionalProperties: false, title: 'LedgerEntry' },
);

export const LedgerEntryPageSchema = Type.Object(
  { data: Type.Array(LedgerEntrySchema), hasMore: Type.Boolean({ description: 'More follow; pass the last ledgerEntryId as startingAfter' }) },
  { additionalProperties: false, title: 'LedgerEntryPage', description: 'One page of entries, newest first' },
);

export const LedgerAccountSchema = Type.Object(
  {
    ledgerAccountId: Uuid(),
    code: Type.String({ description: '<kind>:<asset>, or customer:<accountId>:<asset>', examples: ['treasury:eip155:8453/slip44:60'] }),
    kind: LedgerAccountKindSchema,
    asset: LedgerAssetSchema,
    integratorId: Nullable(Uuid()),
    accountId: Nullable(Uuid('A customer account’s')),
    balances: LedgerBalancesSchema,
    version: Type.Integer({ minimum: 0, description: 'Bumped by every change of the balances' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, title: 'LedgerAccount' },
);

export const LedgerAccountAsOfSchema = Type.Object(
  { ...LedgerAccountSchema.properties, asOf: at('The time the balances are as of (the asOf asked); null: now') },
  { additionalProperties: false, title: 'LedgerAccountAsOf' },
);

export const LedgerAccountPageSchema = Type.Object(
  { data: Type.Array(LedgerAccountSchema), hasMore: Type.Boolean(), nextCursor: Nullable(Type.String({ description: 'startingAfter for the next page; null on the last' })) },
  { additionalProperties: false, title: 'LedgerAccountPage' },
);

export const LedgerTransactionSchema = Type.Object(
  {
    ledgerTransactionId: Uuid(),
    status: LedgerStatusSchema,
    cause: CauseSchema,
    description: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    postedAt: at('When it became final'),
    archivedAt: at('When it was voided'),
    entries: Type.Array(
      Type.Object({ ...LedgerEntrySchema.properties, accountCode: Type.String(), accountKind: LedgerAccountKindSchema }, { additionalProperties: false, title: 'LedgerLeg' }),
      { description: 'Every leg; per asset they sum to zero' },
    ),
  },
  { additionalProperties: false, title: 'LedgerTransaction' },
);

export const TrialBalanceSchema = Type.Object(
  {
    balanced: Type.Boolean({ description: 'Every asset sums to zero' }),
    assets: Type.Array(
      Type.Object(
        {
          asset: patterned(FORMATS.ledgerAsset),
          symbol: Type.String(),
          decimals: Type.Integer({ minimum: 0 }),
          posted: signed('Posted balances of every account of the asset, summed: 0'),
          pending: signed('Pending balances summed: 0'),
          balanced: Type.Boolean(),
          byKind: Type.Array(
            Type.Object({ kind: LedgerAccountKindSchema, accounts: Type.Integer({ minimum: 0 }), posted: signed('Summed over the kind’s accounts'), pending: signed('Summed over the kind’s accounts') }, { additionalProperties: false, title: 'TrialBalanceLine' }),
          ),
        },
        { additionalProperties: false, title: 'TrialBalanceAsset' },
      ),
    ),
  },
  { additionalProperties: false, title: 'TrialBalance' },
);

/** get-account-balances' addition: the ledger's figures for the asset beside the chain's. */
export const LedgerFiguresSchema = Nullable(Type.Object(LedgerBalancesSchema.properties, { additionalProperties: false, description: 'The ledger’s figures for this asset (docs/ledger.md); null: nothing posted in it yet' }));
