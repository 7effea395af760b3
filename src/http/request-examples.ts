/**
 * The request body examples of the integrators' OpenAPI document: what /docs pre-fills in Try it out and what
 * a reader copies. Each is accepted by the server as written once its ids name records of the caller's: the ids
 * below are placeholders (EXAMPLE_IDS), and test/http/openapi.test.ts sends every example with them replaced by
 * real ones and expects a success.
 */

/** The placeholder ids the examples use, one per kind of record. */
export const EXAMPLE_IDS = {
  userId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b71',
  accountId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b72',
  entityAccountId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b73',
  transactionId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b74',
  bankAccountId: '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b75',
} as const;

const userInfo = {
  firstName: 'Maria',
  lastName: 'Garcia',
  email: 'maria.garcia@example.com',
  phone: '+14155552671',
  birthDate: '1988-04-12',
  nationality: 'USA',
  countryOfBirth: 'USA',
  residentialAddress: { streetLine1: '1 Market St', city: 'San Francisco', state: 'US-CA', postalCode: '94105', country: 'USA' },
  socialSecurityNumber: '123-45-6789',
};
const serviceTermsSignedAt = '2026-11-02T09:30:00Z';

export const REQUEST_EXAMPLES: Record<string, Record<string, unknown>> = {
  createCredential: { label: 'CI deploy key', scope: 'read_only' },
  createUser: { userInfo, partnerSignedAgreementId: 'agr_2026_0001', serviceTermsSignedAt },
  createIndividualAccount: { userInfo, serviceTermsSignedAt },
  updateUser: { userId: EXAMPLE_IDS.userId, userInfo: { phone: '+14155550123' } },
  createEntityAccount: {
    entityInfo: {
      businessLegalName: 'Acme Robotics Inc.',
      businessType: 'corporation',
      companyNumber: 'C4512345',
      email: 'compliance@acme-robotics.example',
      registeredAddress: { streetLine1: '500 Howard St', city: 'San Francisco', state: 'US-CA', postalCode: '94105', country: 'USA' },
    },
    serviceTermsSignedAt,
  },
  simulateVerification: { accountId: EXAMPLE_IDS.accountId, outcome: 'approve' },
  createWebhookSubscription: { name: 'Verification and money', url: 'https://hooks.example.com/integrator', eventTypes: ['user.verification_status.changed', 'transaction.*'] },
  updateWebhookSubscription: { eventTypes: ['*'] },
  initOtp: { userId: EXAMPLE_IDS.userId, channel: 'email' },
  createDeposit: { accountId: EXAMPLE_IDS.accountId, amount: '25.00', currency: 'USD', chainId: 8453 },
  simulateDeposit: { transactionId: EXAMPLE_IDS.transactionId, amount: '25.00' },
  createBankAccount: {
    accountId: EXAMPLE_IDS.accountId,
    currency: 'USD',
    accountHolderName: 'Maria Garcia',
    bankName: 'Chase',
    us: { accountNumber: '000123456789', routingNumber: '021000021', accountType: 'checking' },
  },
  createWithdrawal: { accountId: EXAMPLE_IDS.accountId, bankAccountId: EXAMPLE_IDS.bankAccountId, chainId: 8453, amount: '10.00', currency: 'USD' },
};
