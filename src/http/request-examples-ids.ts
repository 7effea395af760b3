/** The placeholders of the request examples (request-examples.ts). */

/** Placeholder ids, one per kind of record; they share a prefix so a test can tell none is left. */
export const EXAMPLE_IDS = {
  userId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b71',
  accountId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b72',
  entityAccountId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b73',
  transactionId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b74',
  bankAccountId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b75',
  beneficiaryId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b76',
  invitationId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b77',
  vaultId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b78',
  /** A member of the entity account (the one a member action is about). */
  memberUserId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b79',
  /** The member who approves a member action with their passkey. */
  actingUserId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b7a',
  /** The custody organization of an account (organizationId of get-account-details). */
  organizationId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b7b',
  /** A transaction id the integrator chooses (a new UUID) for a transfer. */
  newTransactionId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b7c',
  /** A spending policy of the entity account (policyId of create-policy). */
  policyId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b7d',
  /** An onboarding link (onboardingLinkId of POST /v1/onboarding-links). */
  onboardingLinkId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b7e',
} as const;

/** Placeholders for values made per request; each still matches its schema, so the documented shape validates. */
export const EXAMPLE_VALUES = {
  /** The account's wallet (walletAddress of get-account-details). */
  walletAddress: '0x00000000000000000000000000000000000b0b01',
  /** stampWithPasskey(signedBody) of the SDK: the end user's passkey approves the signedBody sent beside it. */
  webAuthnStamp: '<stampWithPasskey(signedBody) from @integrator-api/sdk>',
  /** approvalToken of POST /v1/otp/verify. */
  approvalToken: '<approvalToken from POST /v1/otp/verify>',
  /** buildUnsignedTransaction(...).unsignedTransaction of the SDK (or create-withdrawal's, prepare-vault-*'s). */
  unsignedTransaction: '<unsignedTransaction from buildUnsignedTransaction() of @integrator-api/sdk>',
  /** The six digits the end user received by email (in the sandbox: GET /v1/sandbox/otp-outbox). */
  otpCode: '123456',
  /** The token of an invitation's link (in the sandbox: GET /v1/sandbox/mail-outbox). */
  invitationToken: 'inv_PLACEHOLDERtokenFromTheInvitationEmail00000',
  /** Milliseconds since the epoch: the moment the signedBody is made, within 5 minutes of the server clock. */
  timestampMs: '1764288000000',
} as const;
