import { Type } from 'typebox';
import { Nullable } from './onboarding/common.js';
import { FORMATS, patterned } from './patterns.js';

const Decimal = (description: string) => patterned(FORMATS.decimal, { description });
const Integer = (description: string) => patterned(FORMATS.integer, { description });

const TreasuryBalanceSchema = Type.Object(
  {
    chainId: Type.Integer(),
    symbol: Type.String({ description: 'The chain’s native coin (ETH) or a listed token' }),
    tokenAddress: Nullable(Type.String({ description: 'null for the native coin' })),
    decimals: Type.Integer({ minimum: 0 }),
    amount: Type.Optional(Decimal('The treasury’s balance in the asset’s units; absent when the chain did not answer')),
    amountRaw: Type.Optional(Integer('The same in base units')),
    error: Type.Optional(Type.String({ description: 'Why the chain gave no figure' })),
  },
  { additionalProperties: false, title: 'TreasuryBalance' },
);

const WaitingPayoutSchema = Type.Object(
  {
    transactionId: Type.String({ format: 'uuid' }),
    kind: Type.Enum(['deposit', 'refund'], { type: 'string' }),
    chainId: Type.Integer(),
    reference: Nullable(Type.String({ description: 'Deposits: the reference on the bank instructions' })),
    asset: Type.String(),
    cryptoAmount: Decimal('What the payout sends, in the asset’s units'),
    cryptoAmountRaw: Integer('The same in base units'),
    cryptoAmountWei: Type.Optional(Integer('Native-coin payouts: the same in wei')),
    payoutError: Type.String({ description: 'Why the last attempt failed (insufficient_funds: the treasury lacks the asset or gas)' }),
    attempts: Type.Integer({ minimum: 0 }),
    since: Type.String({ format: 'date-time', description: 'The last attempt; the next waits 2^attempts seconds (at most 5 minutes)' }),
  },
  { additionalProperties: false, title: 'WaitingPayout' },
);

export const TreasurySchema = Type.Object(
  {
    address: Nullable(Type.String({ description: 'The treasury wallet deposits and refunds are paid out from; null when none is configured' })),
    chainIds: Type.Array(Type.Integer()),
    balances: Type.Array(TreasuryBalanceSchema, { description: 'The treasury’s balance of every configured chain’s native coin and of every listed token, read now' }),
    waitingPayouts: Type.Array(WaitingPayoutSchema, { description: 'Payouts whose last attempt failed and that wait (oldest 100), with why' }),
  },
  { additionalProperties: false, title: 'Treasury' },
);
