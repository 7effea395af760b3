/** Request examples of transfers, one-time codes, deposits, bank accounts, withdrawals, products and vaults. */
import { EXAMPLE_IDS, EXAMPLE_VALUES } from './request-examples-ids.js';

/** What the end user approves for a transfer from the account's wallet (signedBodyFor of the SDK makes it). */
const signedBody = {
  type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
  timestampMs: EXAMPLE_VALUES.timestampMs,
  organizationId: EXAMPLE_IDS.organizationId,
  parameters: { signWith: EXAMPLE_VALUES.walletAddress, unsignedTransaction: EXAMPLE_VALUES.unsignedTransaction, type: 'TRANSACTION_TYPE_ETHEREUM' },
};

export const MONEY_EXAMPLES: Record<string, Record<string, unknown>> = {
  sendTransactionPasskey: { transactionId: EXAMPLE_IDS.newTransactionId, signedBody, webAuthnStamp: EXAMPLE_VALUES.webAuthnStamp },
  sendTransactionOtp: { transactionId: EXAMPLE_IDS.newTransactionId, signedBody, approvalToken: EXAMPLE_VALUES.approvalToken },
  initOtp: { userId: EXAMPLE_IDS.userId, channel: 'email' },
  verifyOtp: { userId: EXAMPLE_IDS.userId, code: EXAMPLE_VALUES.otpCode },
  createDeposit: { accountId: EXAMPLE_IDS.accountId, amount: '25.00', currency: 'USD', chainId: 8453 },
  simulateDeposit: { transactionId: EXAMPLE_IDS.transactionId, amount: '25.00' },
  createBankAccount: {
    accountId: EXAMPLE_IDS.accountId,
    currency: 'USD',
    accountHolderName: 'Maria Garcia',
    bankName: 'Chase',
    us: { accountNumber: '000123456789', routingNumber: '021000021', accountType: 'checking' },
  },
  simulateBankAccountReview: { bankAccountId: EXAMPLE_IDS.bankAccountId, outcome: 'approve' },
  removeBankAccount: { bankAccountId: EXAMPLE_IDS.bankAccountId },
  createWithdrawal: { accountId: EXAMPLE_IDS.accountId, bankAccountId: EXAMPLE_IDS.bankAccountId, chainId: 8453, amount: '10.00', currency: 'USD' },
  simulateWithdrawal: { transactionId: EXAMPLE_IDS.transactionId, outcome: 'completed' },
  createEntityWallet: { accountId: EXAMPLE_IDS.entityAccountId },
  enableProduct: { accountId: EXAMPLE_IDS.accountId, productId: 'yield_vaults', termsAcceptedAt: '2026-11-02T09:30:00Z' },
  disableProduct: { accountId: EXAMPLE_IDS.accountId, productId: 'yield_vaults' },
  prepareVaultDeposit: { accountId: EXAMPLE_IDS.accountId, vaultId: EXAMPLE_IDS.vaultId, amount: '10.5' },
  prepareVaultWithdrawal: { accountId: EXAMPLE_IDS.accountId, vaultId: EXAMPLE_IDS.vaultId, amount: '5' },
};

const transfer =
  'In the example, signedBody is what `signedBodyFor({ organizationId, walletAddress, unsignedTransaction })` of the SDK makes, ' +
  'its unsignedTransaction from `buildUnsignedTransaction()` (docs/sdk.md#building-a-transfer); timestampMs is the moment it is made.';

export const MONEY_EXAMPLE_NOTES: Record<string, string> = {
  sendTransactionPasskey: `${transfer} webAuthnStamp is \`stampWithPasskey(signedBody)\` of the SDK (docs/sdk.md#passkey-stamps).`,
  sendTransactionOtp: `${transfer} approvalToken is the answer of otp/verify (docs/otp.md).`,
  verifyOtp: 'The example’s code is the one the end user received by email (in the sandbox: GET /v1/sandbox/otp-outbox).',
};
