/** Request examples of credentials, customers (users, accounts, associated persons), verification and webhooks. */
import { EXAMPLE_IDS } from './request-examples-ids.js';

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

export const CUSTOMER_EXAMPLES: Record<string, Record<string, unknown>> = {
  createCredential: { label: 'CI deploy key', scope: 'read_only' },
  updateCredential: { label: 'CI deploy key (rotated monthly)', scope: 'read_only' },
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
  updateEntityAccount: { accountId: EXAMPLE_IDS.entityAccountId, entityInfo: { businessTradeName: 'Acme', website: 'https://acme-robotics.example' } },
  createAssociatedPerson: {
    accountId: EXAMPLE_IDS.entityAccountId,
    userInfo: {
      firstName: 'Jonas',
      lastName: 'Becker',
      email: 'jonas.becker@example.de',
      phone: '+4930123456',
      birthDate: '1990-09-30',
      nationality: 'DEU',
      countryOfBirth: 'DEU',
      residentialAddress: { streetLine1: 'Unter den Linden 77', city: 'Berlin', state: 'DE-BE', postalCode: '10117', country: 'DEU' },
    },
    beneficiaryDetails: { beneficiaryType: ['representative', 'ubo'], title: 'Director', ownershipPercentage: 60 },
  },
  updateAssociatedPerson: { beneficiaryId: EXAMPLE_IDS.beneficiaryId, beneficiaryDetails: { title: 'Chief Financial Officer' } },
  removeAssociatedPerson: { beneficiaryId: EXAMPLE_IDS.beneficiaryId },
  requestVerification: { accountId: EXAMPLE_IDS.accountId },
  simulateVerification: { accountId: EXAMPLE_IDS.accountId, outcome: 'approve' },
  createOnboardingLink: { type: 'individual', email: 'maria.garcia@example.com', redirectUrl: 'https://app.example.com/onboarding/done', expiresInSeconds: 3600 },
  simulateOnboardingLink: { onboardingLinkId: EXAMPLE_IDS.onboardingLinkId, outcome: 'completed', userId: EXAMPLE_IDS.userId },
  // An address literal: a sandbox server accepts it as written (https, public unicast, nothing to resolve).
  createWebhookSubscription: { name: 'Verification and money', url: 'https://1.1.1.1/webhooks/integrator', eventTypes: ['user.verification_status.changed', 'transaction.*'] },
  updateWebhookSubscription: { eventTypes: ['*'] },
  recoverWebhookDeliveries: { since: '2026-11-01T00:00:00Z' },
};
