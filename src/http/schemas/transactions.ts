import { Type, type Static, type TProperties } from 'typebox';
import { TRANSACTION_KINDS, TRANSACTION_STATUSES } from '../../db/schema/index.js';
import { ETHEREUM_TRANSACTION, SIGN_TRANSACTION_ACTIVITY } from '../../domain/transactions/send-transaction.js';
import { Nullable, Text, Uuid } from './onboarding/common.js';
import { SIGNED_WRITE_ERRORS, problemResponses } from './problem.js';
import { FORMATS, patterned } from './patterns.js';

// The transaction object and the submission bodies, shared by the transfer, OTP, deposit and withdrawal routes and
// the operators' deposit and withdrawal routes.

const ReceiptSchema = Type.Object(
  {
    transactionHash: Type.String(),
    transactionIndex: Type.Integer(),
    blockHash: Type.String(),
    blockNumber: Type.Integer(),
    gasUsed: Type.String({ description: 'Decimal' }),
    effectiveGasPrice: Type.String({ description: 'Decimal, wei' }),
    blobGasUsed: Type.String({ description: 'Decimal; 0 for non-blob transactions' }),
    blobGasPrice: Type.String({ description: 'Decimal; 0 for non-blob transactions' }),
    from: Type.String(),
    to: Type.String({ description: 'Empty for contract creation' }),
    contractAddress: Type.String({ description: 'Empty unless the transaction created a contract' }),
    status: Type.Enum(['success', 'reverted'], { type: 'string', description: 'Extension: the receipt status' }),
  },
  { additionalProperties: false, title: 'TransactionReceipt', description: 'The Ethereum receipt (completed transactions only)' },
);

/** What a deposit, withdrawal or refund moves on chain (docs/tokens.md#deposits-and-withdrawals). */
const CryptoAmountFields = (moved: string) => ({
  asset: Type.String({ description: `The crypto ${moved}: the chain’s native coin (ETH) or a listed token’s symbol` }),
  cryptoAmount: patterned(FORMATS.decimal, { description: 'In the asset’s units, decimal' }),
  cryptoAmountRaw: patterned(FORMATS.integer, { description: 'In base units (wei for the native coin), integer' }),
  cryptoAmountWei: Type.Optional(patterned(FORMATS.integer, { description: 'The native coin only: cryptoAmountRaw again, as withdrawals showed it before tokens' })),
});

const FiatDepositInstructionsSchema = Type.Object(
  {
    currency: Type.String({ description: 'USD or EUR' }),
    bank_name: Type.String(),
    bank_address: Type.String(),
    payment_rails: Type.Array(Type.String(), { description: 'USD: ach, wire; EUR: sepa' }),
    bank_beneficiary_name: Type.String(),
    bank_beneficiary_address: Type.String(),
    bank_account_number: Type.String({ description: 'USD; empty for EUR' }),
    bank_routing_number: Type.String({ description: 'USD (ABA); empty for EUR' }),
    iban_number: Type.String({ description: 'EUR; empty for USD' }),
    iban_bic: Type.String({ description: 'EUR; empty for USD' }),
    reference: Type.String({ description: 'Extension: the payment reference the sender must quote' }),
  },
  { additionalProperties: false, title: 'FiatDepositInstructions', description: 'Where and how to pay a deposit in (deposits only; docs/deposits.md)' },
);

const DepositSchema = Type.Object(
  {
    amount: Type.String({ description: 'The fiat amount expected, decimal' }),
    currency: Type.String({ description: 'USD or EUR' }),
    reference: Type.String({ description: 'The payment reference (also in fiatDepositInstructions)' }),
    receivedAmount: Nullable(Type.String({ description: 'The fiat amount that arrived; null until then' })),
    expiresAt: Nullable(
      Type.String({
        format: 'date-time',
        description: 'The bank transfer must arrive before this (DEPOSIT_EXPIRY_HOURS after creation); then the deposit fails as expired (docs/deposits.md#expiry)',
      }),
    ),
    payoutError: Type.Optional(Type.String({ description: 'Why the last payout attempt failed, while it is retried' })),
    ...CryptoAmountFields('paid out to the wallet (for the amount asked, then for what arrived)'),
    rate: Type.Optional(Type.String({ description: 'Token deposits: whole units of the token per unit of the currency, quoted at creation and applied to what arrives' })),
  },
  { additionalProperties: false, title: 'DepositDetails', description: 'Extension, deposits only' },
);

const WithdrawalSchema = Type.Object(
  {
    amount: Type.String({ description: 'Fiat paid to the bank account, decimal' }),
    currency: Type.Enum(['USD', 'EUR'], { type: 'string' }),
    fee: Type.String({ description: 'The service’s fee, same currency, on top of amount' }),
    ...CryptoAmountFields('taken from the wallet for amount + fee'),
    rate: Type.Optional(Type.String({ description: 'Token withdrawals: whole units of the token per unit of the currency (WITHDRAWAL_TOKEN_RATES), the rate the quote applied to amount + fee' })),
    bankAccountId: Uuid(),
    last4: Type.String(),
    quoteExpiresAt: Type.String({ format: 'date-time', description: 'The approval must arrive before this moment (409 quote_expired after)' }),
  },
  { additionalProperties: false, title: 'WithdrawalQuote', description: 'Extension: a withdrawal’s quote (docs/withdrawals.md)' },
);

const AssetAmount = (description: string) => patterned(FORMATS.decimal, { description });

const VaultCallSchema = Type.Object(
  {
    vaultId: Uuid(),
    call: Type.Enum(['approve', 'deposit', 'withdraw', 'redeem'], { type: 'string', description: 'approve: the asset’s ERC-20 approval of the vault; deposit, withdraw, redeem: the ERC-4626 call' }),
    step: Type.Integer({ minimum: 1, description: 'Its place among the transactions prepared together: approve them in this order' }),
    steps: Type.Integer({ minimum: 1 }),
    assets: AssetAmount('Assets, in the asset’s units: deposited (approve, deposit), withdrawn (withdraw) or previewed (redeem)'),
    shares: Nullable(AssetAmount('Shares, in the vault’s units: previewed (deposit, withdraw) or redeemed (redeem); null for approve')),
    settled: Type.Optional(
      Type.Object({ assets: AssetAmount('As the vault’s event recorded'), shares: AssetAmount('As the vault’s event recorded') }, { additionalProperties: false, title: 'VaultCallSettled', description: 'Completed deposits, withdrawals and redemptions' }),
    ),
    expiresAt: Type.String({ format: 'date-time', description: 'The approval must arrive before this moment (409 quote_expired after)' }),
  },
  { additionalProperties: false, title: 'VaultCall', description: 'Extension: a vault transaction as prepared (docs/products.md#vaults)' },
);

const TokenTransferSchema = Type.Object(
  {
    symbol: Type.String({ description: 'The listed token’s symbol on this chain (list-tokens)' }),
    tokenAddress: Type.String({ description: 'The token’s contract, checksummed: the transaction’s to' }),
    to: Type.String({ description: 'The recipient of the tokens, checksummed' }),
    amount: AssetAmount('In the token’s units ("12.5")'),
    amountRaw: patterned(FORMATS.integer, { description: 'The same amount in base units ("12500000")' }),
  },
  { additionalProperties: false, title: 'TokenTransfer', description: 'Extension: a transfer of a listed token, decoded when it was submitted (docs/tokens.md#transfers)' },
);

const IncomingSchema = Type.Object(
  {
    symbol: Type.String({ description: 'A listed token’s symbol (list-tokens), or the chain’s native coin’s (ETH)' }),
    tokenAddress: Nullable(Type.String({ description: 'The token’s contract, checksummed; null for the native coin' })),
    from: Type.String({ description: 'The sender, checksummed (the zero address for a minted token)' }),
    amount: AssetAmount('In the asset’s units ("12.5")'),
    amountRaw: patterned(FORMATS.integer, { description: 'The same amount in base units (wei for the native coin)' }),
  },
  { additionalProperties: false, title: 'IncomingTransfer', description: 'Extension, incoming transfers: what arrived at the account’s wallet from outside (docs/incoming.md)' },
);

const ApprovalsSchema = Type.Object(
  {
    required: Type.Integer({ minimum: 0, description: 'The account’s requiredApprovals, or a spending policy’s step-up when larger (docs/policies.md#step-up)' }),
    received: Type.Array(Type.Object({ userId: Uuid(), at: Type.String({ format: 'date-time' }) }, { additionalProperties: false, title: 'ReceivedApproval' }), {
      description: 'Distinct members whose approval counts now (owners and approvers), oldest first',
    }),
  },
  { additionalProperties: false, title: 'Approvals', description: 'Extension, entity wallets: the quorum so far (docs/members.md#quorum)' },
);

export const TransactionSchema = Type.Object(
  {
    transactionId: Uuid('The integrator’s id of the transaction (its idempotency key)'),
    status: Type.Enum([...TRANSACTION_STATUSES], { type: 'string', description: 'docs/transactions.md; failed is our extension' }),
    broadcastedAt: Nullable(Type.String({ format: 'date-time', description: 'Moment of broadcast; null unless completed' })),
    transactionReceipt: Type.Optional(ReceiptSchema),
    fiatDepositInstructions: Type.Optional(FiatDepositInstructionsSchema),
    kind: Type.Enum([...TRANSACTION_KINDS], {
      type: 'string',
      description:
        'Extension: a transfer from the account’s wallet, a fiat deposit paid out to it, a withdrawal to a bank account, the refund of a returned withdrawal, a call to a yield vault (vault_deposit: approve and deposit; vault_withdrawal: withdraw or redeem), or a transfer to the wallet from outside seen on chain (incoming, docs/incoming.md)',
    }),
    deposit: Type.Optional(DepositSchema),
    withdrawal: Type.Optional(WithdrawalSchema),
    vault: Type.Optional(VaultCallSchema),
    unsignedTransaction: Type.Optional(
      Type.String({ description: 'Withdrawals and vault transactions: the transaction this service prepared, which the end user approves (send-transaction-passkey/otp with this transactionId)' }),
    ),
    refund: Type.Optional(Type.Object({ withdrawalTransactionId: Uuid(), ...CryptoAmountFields('paid back to the wallet') }, { additionalProperties: false, title: 'Refund', description: 'Refunds: the returned withdrawal, and what is paid back' })),
    transfer: Type.Optional(TokenTransferSchema),
    incoming: Type.Optional(IncomingSchema),
    blockNumber: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Extension, incoming transfers: the block it is in (until confirmed, a reorg may move it)' })),
    accountId: Uuid('Extension: the account whose wallet signs (transfers) or receives (deposits)'),
    chainId: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Extension' }),
    transactionHash: Nullable(Type.String({ description: 'Extension: the hash of the signed transaction, known from broadcast on' })),
    failureReason: Type.Optional(
      Type.Enum(['reverted', 'dropped', 'cancelled', 'quote_expired', 'bank_account_unavailable', 'payout_returned', 'rejected', 'expired', 'refused', 'reorged', 'policy_denied'], {
        type: 'string',
        description:
          'Extension, failed only (rejected and expired: an entity’s proposal, docs/members.md#quorum; expired also: a deposit whose funds did not arrive, docs/deposits.md#expiry; refused: the node refused it after it was recorded, docs/transactions.md#sending; bank_account_unavailable: a withdrawal approved after its bank account was removed or stopped being verified, docs/withdrawals.md#approval; reorged: an incoming transfer whose block left the chain before it was confirmed, docs/incoming.md#reorgs; policy_denied: a spending policy refused it before it was signed, docs/policies.md#enforcement)',
      }),
    ),
    approvals: Type.Optional(ApprovalsSchema),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Transaction', additionalProperties: false, description: 'Transaction (response of passkey submission), with documented extensions' },
);
export type TransactionResponse = Static<typeof TransactionSchema>;
/** The named component `Transaction` (registered once in app.ts): what every operation answering a transaction refers to. */
export const TransactionRef = Type.Unsafe<TransactionResponse>(Type.Ref('Transaction'));

export const SignedBodySchema = Type.Object(
  {
    type: Text(100, { description: `${SIGN_TRANSACTION_ACTIVITY}` }),
    timestampMs: patterned(FORMATS.timestampMs, { description: 'Milliseconds since the epoch, within 5 minutes of the server clock' }),
    organizationId: Text(100, { description: 'The custody organization of the account (organizationId of the account)' }),
    parameters: Type.Object(
      {
        signWith: Text(100, { description: 'The account’s wallet address' }),
        unsignedTransaction: Text(262_144, { minLength: 1, description: 'Serialized unsigned EVM transaction, hex with or without 0x' }),
        type: Text(100, { description: ETHEREUM_TRANSACTION }),
      },
      { additionalProperties: false, title: 'SignTransactionParameters' },
    ),
  },
  { additionalProperties: false, title: 'SignedBody', description: 'What the end user stamps; the challenge commits to JSON.stringify of this object (docs/passkeys.md)' },
);

export const ChainIdQuery = Type.Object(
  { chain_id: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'A configured chain (CHAIN_RPC_URLS): 1 is Ethereum, 8453 Base' }) },
  { additionalProperties: false },
);

/** The body of a transfer submission: the shared fields plus the approval (webAuthnStamp or approvalToken). */
export function submissionBody<A extends TProperties>(approval: A) {
  return Type.Object(
    {
      transactionId: Uuid('Your id for this transaction; the same id with the same body returns the same transaction'),
      signedBody: SignedBodySchema,
      actingUserId: Type.Optional(Uuid('Entity wallets only: the member who proposes (or approves a pending withdrawal); docs/members.md#quorum')),
      ...approval,
    },
    { additionalProperties: false },
  );
}

/** What both submission paths answer: 201 when created, 200 for the same request again. */
export const SUBMISSION_RESPONSES = {
  200: { ...TransactionRef, description: 'The same request again: the transaction as it is now' },
  201: TransactionRef,
  ...problemResponses(...SIGNED_WRITE_ERRORS, 404, 502),
};
