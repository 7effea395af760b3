import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiResponse } from '../harness/client.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { generateP256KeyPair } from '../../src/crypto/p256.js';
import { serializeTransaction } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Anvil } from '../harness/anvil.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { backends } from '../harness/backends.js';
import { verifiedBankAccount, withdrawalInTransfer } from '../harness/money.js';
import { ownerInvitation } from '../harness/invitations.js';
import { INVITATION_ADDRESSED, INVITATION_EXAMPLES } from './openapi-examples/invitations.js';
import { ONBOARDING_LINK_ADDRESSED, ONBOARDING_LINK_EXAMPLES } from './openapi-examples/onboarding-links.js';
import { MEMBER_ADDRESSED, memberExamples } from './openapi-examples/members.js';
import { POLICY_ADDRESSED, POLICY_EXAMPLES } from './openapi-examples/policies.js';
import { PRODUCT_ADDRESSED, PRODUCT_EXAMPLES } from './openapi-examples/products.js';
import { TOKEN_ADDRESSED, TOKEN_EXAMPLES } from './openapi-examples/tokens.js';
import { VAULT_ADDRESSED, vaultExamples } from './openapi-examples/vaults.js';
import { openApiChecker, repeatedShapes, type OpenApiDoc, type Operation } from '../harness/openapi.js';
import { berliner, californian, companyInfo, entityDocs, personDocs, signedAt } from '../harness/fixtures.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenantsWithToken } from '../harness/tokens.js';

type Ctx = { server: TestServer; acme: SeededIntegrator; reader: SeededIntegrator; globex: SeededIntegrator; foreign: ForeignRecords; own: ForeignRecords; own2: Payer };
/** Records created by one integrator, to address from another. */
type ForeignRecords = {
  userId: string;
  accountId: string;
  entityAccountId: string;
  beneficiaryId: string;
  publicKey: string;
  subscriptionId: string;
  eventId: string;
  deliveryId: string;
  transactionId: string;
  organizationId: string;
  walletAddress: string;
  bankAccountId: string;
  invitationId: string;
  invitationToken: string;
  policyId: string;
  onboardingLinkId: string;
};

/** An active custodial customer with a passkey and a funded wallet on chain 8453, and one transaction made. */
type Payer = { accountId: string; userId: string; organizationId: string; walletAddress: string; passkey: SoftwareAuthenticator; transactionId: string; request: unknown; nonce: number };

let anvil: Anvil;
let payers = 0;

const transfer = (chainId: number, nonce: number) =>
  serializeTransaction({ chainId, type: 'eip1559', nonce, to: privateKeyToAccount(generatePrivateKey()).address, value: 1n, gas: 21_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n });

function transactionRequest(server: TestServer, p: { organizationId: string; walletAddress: string; passkey?: SoftwareAuthenticator }, nonce: number, transactionId: string = randomUUID()) {
  const signedBody = {
    type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
    timestampMs: String(server.clock.now().getTime()),
    organizationId: p.organizationId,
    parameters: { signWith: p.walletAddress, unsignedTransaction: transfer(8453, nonce), type: 'TRANSACTION_TYPE_ETHEREUM' },
  };
  const passkey = p.passkey ?? new SoftwareAuthenticator();
  return { transactionId, signedBody, webAuthnStamp: passkey.stamp(JSON.stringify(signedBody)) };
}

async function seedPayer(server: TestServer, who: SeededIntegrator): Promise<Payer> {
  const passkey = new SoftwareAuthenticator();
  const created = await who.client.post('/v1/submit/create-individual-account', {
    userInfo: californian({ email: `payer${++payers}@example.com` }),
    serviceTermsSignedAt: signedAt(),
    verificationDocuments: personDocs(),
    authenticators: [passkey.authenticator()],
  });
  assert.equal(created.status, 201, created.text);
  const approved = await who.client.post('/v1/sandbox/simulate-verification', { accountId: created.body.accountId, outcome: 'approve' });
  assert.equal(approved.status, 200, approved.text);
  await anvil.setBalance(created.body.walletAddress, 10n ** 18n);
  const payer = { accountId: created.body.accountId, userId: created.body.userId, organizationId: created.body.organizationId, walletAddress: created.body.walletAddress, passkey };
  const request = transactionRequest(server, payer, 0);
  const sent = await who.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', request);
  assert.equal(sent.status, 201, sent.text);
  return { ...payer, transactionId: request.transactionId, request, nonce: 1 };
}

/** A receiver nobody listens on: deliveries fail at once and stay in the history. */
const DEAD_END = 'http://127.0.0.1:9/hook';

async function seedRecords(server: TestServer, who: SeededIntegrator): Promise<ForeignRecords> {
  const payer = await seedPayer(server, who);
  const subscription = await who.client.post('/v1/webhooks/subscriptions', { name: 'all', url: DEAD_END, eventTypes: '*' });
  assert.equal(subscription.status, 201, subscription.text);
  const user = await who.client.post('/v1/submit/create-individual-account', { userInfo: berliner(), serviceTermsSignedAt: signedAt() });
  const entity = await who.client.post('/v1/submit/create-entity-account', { entityInfo: companyInfo(), entityDocuments: entityDocs(), serviceTermsSignedAt: signedAt() });
  const person = await who.client.post('/v1/submit/create-associated-person', {
    accountId: entity.body.accountId,
    userInfo: berliner({ email: 'rep@example.de' }),
    beneficiaryDetails: { beneficiaryType: ['representative'], title: 'Director' },
  });
  assert.equal(person.status, 201, person.text);
  const subscriptionId = subscription.body.subscription.id;
  const events = await who.client.get('/v1/events?limit=1');
  const deliveries = await who.client.get(`/v1/webhooks/subscriptions/${subscriptionId}/deliveries?limit=1`);
  const bankAccount = await who.client.post('/v1/submit/create-bank-account', { accountId: payer.accountId, currency: 'EUR', accountHolderName: 'Someone Else', iban: { iban: 'DE89370400440532013000' } });
  assert.equal(bankAccount.status, 201, bankAccount.text);
  // The entity has no owner (its representative is no user), so the integrator alone invites one.
  const invitation = await ownerInvitation(server, who, entity.body.accountId);
  const policy = await who.client.post('/v1/policies', { accountId: user.body.accountId, rules: [{ type: 'new_destination_delay', hours: 1 }] });
  assert.equal(policy.status, 201, policy.text);
  const link = await who.client.post('/v1/onboarding-links', { type: 'individual', userId: user.body.userId });
  assert.equal(link.status, 201, link.text);
  return {
    userId: user.body.userId,
    accountId: user.body.accountId,
    entityAccountId: entity.body.accountId,
    beneficiaryId: person.body.beneficiaryId,
    publicKey: who.publicKey,
    subscriptionId,
    eventId: events.body.data[0].id,
    deliveryId: deliveries.body.data[0].id,
    transactionId: payer.transactionId,
    organizationId: payer.organizationId,
    walletAddress: payer.walletAddress,
    bankAccountId: bankAccount.body.bankAccountId,
    invitationId: invitation.invitationId,
    invitationToken: invitation.token,
    policyId: policy.body.policyId,
    onboardingLinkId: link.body.onboardingLinkId,
  };
}

/** Each operation that addresses a record, aimed at `r` (another integrator's records in the sweep). */
const ADDRESSED: Record<string, (c: Ctx, r: ForeignRecords) => Promise<ApiResponse>> = {
  updateCredential: (c, r) => c.acme.client.patch(`/v1/integrator/credentials/${r.publicKey}`, { label: 'x' }),
  deleteCredential: (c, r) => c.acme.client.delete(`/v1/integrator/credentials/${r.publicKey}`),
  getUserDetails: (c, r) => c.acme.client.get(`/v1/query/get-user-details?userId=${r.userId}`),
  getAccountDetails: (c, r) => c.acme.client.get(`/v1/query/get-account-details?accountId=${r.accountId}`),
  listAccounts: (c, r) => c.acme.client.get(`/v1/query/list-accounts?startingAfter=${r.accountId}`),
  getEntityDetails: (c, r) => c.acme.client.get(`/v1/query/get-entity-details?accountId=${r.entityAccountId}`),
  updateEntityAccount: (c, r) => c.acme.client.patch('/v1/submit/update-entity-account', { accountId: r.entityAccountId, entityInfo: { businessTradeName: 'x' } }),
  getAssociatedPersonDetails: (c, r) => c.acme.client.get(`/v1/query/get-associated-person-details?beneficiaryId=${r.beneficiaryId}`),
  createAssociatedPerson: (c, r) =>
    c.acme.client.post('/v1/submit/create-associated-person', {
      accountId: r.entityAccountId,
      userInfo: berliner(),
      beneficiaryDetails: { beneficiaryType: ['representative'], title: 'Director' },
    }),
  updateAssociatedPerson: (c, r) => c.acme.client.patch('/v1/submit/update-associated-person', { beneficiaryId: r.beneficiaryId, userInfo: { firstName: 'x' } }),
  removeAssociatedPerson: (c, r) => c.acme.client.post('/v1/submit/remove-associated-person', { beneficiaryId: r.beneficiaryId }),
  updateUser: (c, r) => c.acme.client.patch('/v1/submit/update-user', { userId: r.userId, userInfo: { firstName: 'x' } }),
  requestVerification: (c, r) => c.acme.client.post('/v1/submit/request-verification', { accountId: r.accountId }),
  simulateVerification: (c, r) => c.acme.client.post('/v1/sandbox/simulate-verification', { beneficiaryId: r.beneficiaryId, outcome: 'approve' }),
  listEvents: (c, r) => c.acme.client.get(`/v1/events?startingAfter=${r.eventId}`),
  getEvent: (c, r) => c.acme.client.get(`/v1/events/${r.eventId}`),
  listEventDeliveries: (c, r) => c.acme.client.get(`/v1/events/${r.eventId}/deliveries`),
  getWebhookSubscription: (c, r) => c.acme.client.get(`/v1/webhooks/subscriptions/${r.subscriptionId}`),
  updateWebhookSubscription: (c, r) => c.acme.client.patch(`/v1/webhooks/subscriptions/${r.subscriptionId}`, { name: 'x' }),
  deleteWebhookSubscription: (c, r) => c.acme.client.delete(`/v1/webhooks/subscriptions/${r.subscriptionId}`),
  rotateWebhookSigningKey: (c, r) => c.acme.client.post(`/v1/webhooks/subscriptions/${r.subscriptionId}/rotate-key`),
  sendWebhookTest: (c, r) => c.acme.client.post(`/v1/webhooks/subscriptions/${r.subscriptionId}/test`),
  listWebhookDeliveries: (c, r) => c.acme.client.get(`/v1/webhooks/subscriptions/${r.subscriptionId}/deliveries`),
  retryWebhookDelivery: (c, r) => c.acme.client.post(`/v1/webhooks/subscriptions/${r.subscriptionId}/deliveries/${r.deliveryId}/retry`),
  recoverWebhookDeliveries: (c, r) => c.acme.client.post(`/v1/webhooks/subscriptions/${r.subscriptionId}/recover`, { since: '2020-01-01T00:00:00Z' }),
  // Another integrator's transactionId is free for this one; its organization is what is not found.
  sendTransactionPasskey: (c, r) => c.acme.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', transactionRequest(c.server, r, 0, r.transactionId)),
  getTransaction: (c, r) => c.acme.client.get(`/v1/query/get-transaction?transactionId=${r.transactionId}`),
  listTransactions: (c, r) => c.acme.client.get(`/v1/query/list-transactions?accountId=${r.accountId}`),
  ...MEMBER_ADDRESSED,
  ...INVITATION_ADDRESSED,
  ...ONBOARDING_LINK_ADDRESSED,
  ...PRODUCT_ADDRESSED,
  ...POLICY_ADDRESSED,
  ...TOKEN_ADDRESSED,
  ...VAULT_ADDRESSED,
  createDeposit: (c, r) => c.acme.client.post('/v1/submit/create-deposit', { accountId: r.accountId, amount: '1.00', currency: 'USD', chainId: 8453 }),
  simulateDeposit: (c, r) => c.acme.client.post('/v1/sandbox/simulate-deposit', { transactionId: r.transactionId, amount: '1.00' }),
  createEntityWallet: (c, r) => c.acme.client.post('/v1/submit/create-entity-wallet', { accountId: r.entityAccountId }),
  createBankAccount: (c, r) => c.acme.client.post('/v1/submit/create-bank-account', { accountId: r.accountId, currency: 'USD', accountHolderName: 'Maria Garcia', us: { accountNumber: '12345678', routingNumber: '021000021', accountType: 'checking' } }),
  listBankAccounts: (c, r) => c.acme.client.get(`/v1/query/list-bank-accounts?accountId=${r.accountId}`),
  getBankAccount: (c, r) => c.acme.client.get(`/v1/query/get-bank-account?bankAccountId=${r.bankAccountId}`),
  removeBankAccount: (c, r) => c.acme.client.post('/v1/submit/remove-bank-account', { bankAccountId: r.bankAccountId }),
  simulateBankAccountReview: (c, r) => c.acme.client.post('/v1/sandbox/simulate-bank-account-review', { bankAccountId: r.bankAccountId, outcome: 'approve' }),
  createWithdrawal: (c, r) => c.acme.client.post('/v1/submit/create-withdrawal', { accountId: r.accountId, bankAccountId: r.bankAccountId, chainId: 8453, amount: '1.00', currency: 'EUR' }),
  simulateWithdrawal: (c, r) => c.acme.client.post('/v1/sandbox/simulate-withdrawal', { transactionId: r.transactionId, outcome: 'completed' }),
  initOtp: (c, r) => c.acme.client.post('/v1/otp/init', { userId: r.userId, channel: 'email' }),
  verifyOtp: (c, r) => c.acme.client.post('/v1/otp/verify', { userId: r.userId, code: '123456' }),
  getOtpOutbox: (c, r) => c.acme.client.get(`/v1/sandbox/otp-outbox?userId=${r.userId}`),
  sendTransactionOtp: (c, r) => {
    const { webAuthnStamp: _, ...request } = transactionRequest(c.server, r, 0, r.transactionId);
    return c.acme.client.post('/v1/submit/send-transaction-otp?chain_id=8453', { ...request, approvalToken: `otpa_${'A'.repeat(43)}` });
  },
};

/** A fresh code for the payer's user (past the resend interval), verified into an approval token. */
async function otpToken(server: TestServer, who: SeededIntegrator, userId: string): Promise<string> {
  server.clock.advance(31_000);
  const sent = await who.client.post('/v1/otp/init', { userId, channel: 'email' });
  assert.equal(sent.status, 201, sent.text);
  const box = await who.client.get(`/v1/sandbox/otp-outbox?userId=${userId}`);
  const verified = await who.client.post('/v1/otp/verify', { userId, code: box.body.data[0].code });
  assert.equal(verified.status, 200, verified.text);
  return verified.body.approvalToken;
}

/** Real calls per operation; between them they should exercise each operation's success and typical failures. */
const EXAMPLES: Record<string, (c: Ctx) => Promise<ApiResponse[]>> = {
  ...memberExamples(() => anvil),
  ...INVITATION_EXAMPLES,
  ...ONBOARDING_LINK_EXAMPLES,
  ...PRODUCT_EXAMPLES,
  ...POLICY_EXAMPLES,
  ...TOKEN_EXAMPLES,
  ...vaultExamples(() => anvil),
  livez: async ({ server }) => [await plain(server, '/livez')],
  readyz: async ({ server }) => [await plain(server, '/readyz')],
  describeProblem: async ({ server }) => [await plain(server, '/problems/invalid_signature'), await plain(server, '/problems/nope')],
  health: async ({ acme }) => [await acme.client.get('/v1/health')],
  whoami: async ({ acme, reader }) => [await acme.client.get('/v1/integrator/whoami'), await reader.client.get('/v1/integrator/whoami')],
  listCredentials: async ({ acme }) => [await acme.client.get('/v1/integrator/credentials')],
  createCredential: async ({ acme, globex }) => [
    await acme.client.post('/v1/integrator/credentials', { label: 'gen', scope: 'read_only' }),
    await acme.client.post('/v1/integrator/credentials', { label: 'byok', scope: 'read_only', publicKey: generateP256KeyPair().publicKey }),
    await acme.client.post('/v1/integrator/credentials', { label: 'dup', scope: 'read_only', publicKey: globex.publicKey }),
    await acme.client.post('/v1/integrator/credentials', { label: 7 }),
    await acme.client.request('POST', '/v1/integrator/credentials', { rawBody: '{' }),
    await acme.client.request('POST', '/v1/integrator/credentials', { rawBody: 'a=b', headers: { 'content-type': 'text/plain' } }),
  ],
  updateCredential: async ({ acme, server }) => {
    const created = await acme.client.post('/v1/integrator/credentials', { label: 'upd', scope: 'read_only' });
    server.clock.advance(1000);
    return [
      await acme.client.patch(`/v1/integrator/credentials/${created.body.credential.publicKey}`, { label: 'updated' }),
      await acme.client.patch(`/v1/integrator/credentials/${acme.publicKey}`, { active: false }),
      await acme.client.patch('/v1/integrator/credentials/0x12', { label: 'x' }),
    ];
  },
  createUser: async ({ acme }) => [
    await acme.client.post('/v1/submit/create-user', { userInfo: californian(), partnerSignedAgreementId: 'agr-1', serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs() }),
    await acme.client.post('/v1/submit/create-user', { userInfo: berliner(), partnerSignedAgreementId: 'agr-2', serviceTermsSignedAt: signedAt() }),
    await acme.client.post('/v1/submit/create-user', { userInfo: californian({ socialSecurityNumber: null }), partnerSignedAgreementId: 'x', serviceTermsSignedAt: signedAt() }),
  ],
  createIndividualAccount: async ({ acme }) => [
    await acme.client.post('/v1/submit/create-individual-account', { userInfo: berliner(), serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs('DEU') }),
    await acme.client.post('/v1/submit/create-individual-account', {
      userInfo: californian(),
      serviceTermsSignedAt: signedAt(),
      walletAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    }),
    await acme.client.post('/v1/submit/create-individual-account', { userInfo: berliner({ birthDate: '1950-01-01' }), serviceTermsSignedAt: signedAt() }),
  ],
  getUserDetails: async ({ acme, own }) => [await acme.client.get(`/v1/query/get-user-details?userId=${own.userId}`), await acme.client.get('/v1/query/get-user-details?userId=nope')],
  getAccountDetails: async ({ acme, own }) => [
    await acme.client.get(`/v1/query/get-account-details?accountId=${own.accountId}`),
    await acme.client.get(`/v1/query/get-account-details?accountId=${own.entityAccountId}`),
  ],
  listAccounts: async ({ acme }) => [await acme.client.get('/v1/query/list-accounts?limit=1&type=individual'), await acme.client.get('/v1/query/list-accounts?limit=0')],
  createEntityAccount: async ({ acme }) => [
    await acme.client.post('/v1/submit/create-entity-account', { serviceTermsSignedAt: signedAt() }),
    await acme.client.post('/v1/submit/create-entity-account', { entityInfo: companyInfo(), entityDocuments: entityDocs(), serviceTermsSignedAt: signedAt() }),
  ],
  updateEntityAccount: async ({ acme, own }) => [
    await acme.client.patch('/v1/submit/update-entity-account', { accountId: own.entityAccountId, entityInfo: { businessTradeName: 'Acme 2' } }),
  ],
  getEntityDetails: async ({ acme, own }) => [await acme.client.get(`/v1/query/get-entity-details?accountId=${own.entityAccountId}`)],
  getAssociatedPersonDetails: async ({ acme, own }) => [
    await acme.client.get(`/v1/query/get-associated-person-details?beneficiaryId=${own.beneficiaryId}`),
    await acme.client.get('/v1/query/get-associated-person-details?beneficiaryId=not-a-uuid'),
  ],
  createAssociatedPerson: async ({ acme, own }) => [
    await acme.client.post('/v1/submit/create-associated-person', {
      accountId: own.entityAccountId,
      userInfo: californian({ email: 'ubo@example.com' }),
      beneficiaryDetails: { beneficiaryType: ['ubo'], ownershipPercentage: 40 },
      verificationDocuments: personDocs(),
    }),
  ],
  updateAssociatedPerson: async ({ acme, own }) => [
    await acme.client.patch('/v1/submit/update-associated-person', { beneficiaryId: own.beneficiaryId, beneficiaryDetails: { title: 'CFO' } }),
  ],
  removeAssociatedPerson: async ({ acme, own, server }) => {
    const extra = await acme.client.post('/v1/submit/create-associated-person', {
      accountId: own.entityAccountId,
      userInfo: berliner({ email: 'temp@example.de' }),
      beneficiaryDetails: { beneficiaryType: ['representative'], title: 'Temp' },
    });
    server.clock.advance(1000);
    return [await acme.client.post('/v1/submit/remove-associated-person', { beneficiaryId: extra.body.beneficiaryId })];
  },
  updateUser: async ({ acme, own }) => [
    await acme.client.patch('/v1/submit/update-user', { userId: own.userId, userInfo: { phone: '+4930901820' } }),
    await acme.client.patch('/v1/submit/update-user', { userId: own.userId }),
  ],
  requestVerification: async ({ acme, own }) => [
    await acme.client.post('/v1/submit/request-verification', { accountId: own.accountId }),
    await acme.client.post('/v1/submit/request-verification', { beneficiaryId: own.beneficiaryId }),
  ],
  simulateVerification: async ({ acme, own, server }) => {
    const person = await acme.client.post('/v1/submit/create-associated-person', {
      accountId: own.entityAccountId,
      userInfo: berliner({ email: 'sim@example.de' }),
      beneficiaryDetails: { beneficiaryType: ['representative'], title: 'COO' },
      verificationDocuments: personDocs('DEU'),
    });
    server.clock.advance(1000);
    return [
      await acme.client.post('/v1/sandbox/simulate-verification', { beneficiaryId: person.body.beneficiaryId, outcome: 'request_resubmission', reasons: ['blurry'] }),
      await acme.client.post('/v1/sandbox/simulate-verification', { beneficiaryId: person.body.beneficiaryId, outcome: 'approve' }),
    ];
  },
  listEvents: async ({ acme }) => [
    await acme.client.get('/v1/events?limit=2&order=asc&types=user.created,account.created'),
    await acme.client.get('/v1/events?type=no.such.type'),
    await acme.client.get('/v1/events?deliverySuccess=false&createdGte=2020-01-01T00:00:00Z'),
  ],
  getEvent: async ({ acme, own }) => [await acme.client.get(`/v1/events/${own.eventId}`), await acme.client.get('/v1/events/not-a-uuid')],
  listEventDeliveries: async ({ acme, own }) => [await acme.client.get(`/v1/events/${own.eventId}/deliveries?status=failed`)],
  listWebhookSubscriptions: async ({ acme }) => [await acme.client.get('/v1/webhooks/subscriptions')],
  createWebhookSubscription: async ({ acme }) => [
    await acme.client.post('/v1/webhooks/subscriptions', { name: 'users', url: DEAD_END, eventTypes: ['user.*'], httpHeaders: { 'X-Token': 't' }, enabled: false }),
    await acme.client.post('/v1/webhooks/subscriptions', { name: 'bad', url: 'ftp://example.com', eventTypes: ['nope'] }),
    await acme.client.post('/v1/webhooks/subscriptions', { name: 'bad', url: DEAD_END, eventTypes: '*', httpHeaders: { 'webhook-id': 'x' } }),
    await acme.client.post('/v1/webhooks/subscriptions', { name: 'hmac', url: DEAD_END, eventTypes: ['user.*'], enabled: false, algorithm: 'hmac-sha256' }),
  ],
  getWebhookSubscription: async ({ acme, own }) => [await acme.client.get(`/v1/webhooks/subscriptions/${own.subscriptionId}`)],
  updateWebhookSubscription: async ({ acme, own }) => [
    await acme.client.patch(`/v1/webhooks/subscriptions/${own.subscriptionId}`, { name: 'everything', eventTypes: ['*'] }),
    await acme.client.patch(`/v1/webhooks/subscriptions/${own.subscriptionId}`, {}),
  ],
  deleteWebhookSubscription: async ({ acme }) => {
    const created = await acme.client.post('/v1/webhooks/subscriptions', { name: 'temp', url: DEAD_END, eventTypes: '*' });
    return [await acme.client.delete(`/v1/webhooks/subscriptions/${created.body.subscription.id}`)];
  },
  rotateWebhookSigningKey: async ({ acme, own }) => [await acme.client.post(`/v1/webhooks/subscriptions/${own.subscriptionId}/rotate-key`)],
  sendWebhookTest: async ({ acme, own }) => [await acme.client.post(`/v1/webhooks/subscriptions/${own.subscriptionId}/test`), await acme.client.post(`/v1/webhooks/subscriptions/${randomUUID()}/test`)],
  listWebhookDeliveries: async ({ acme, own }) => [await acme.client.get(`/v1/webhooks/subscriptions/${own.subscriptionId}/deliveries?limit=2`)],
  retryWebhookDelivery: async ({ acme, own }) => [await acme.client.post(`/v1/webhooks/subscriptions/${own.subscriptionId}/deliveries/${own.deliveryId}/retry`)],
  recoverWebhookDeliveries: async ({ acme, own }) => [
    await acme.client.post(`/v1/webhooks/subscriptions/${own.subscriptionId}/recover`, { since: '2020-01-01T00:00:00Z' }),
  ],
  sendTransactionPasskey: async ({ acme, own2, server }) => {
    const request = transactionRequest(server, own2, own2.nonce++);
    const created = await acme.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', request);
    server.clock.advance(1000);
    return [
      created,
      await acme.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', request),
      await acme.client.post('/v1/submit/send-transaction-passkey?chain_id=137', transactionRequest(server, own2, own2.nonce)),
      await acme.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: 'x' }),
    ];
  },
  createDeposit: async ({ acme, own2 }) => [
    await acme.client.post('/v1/submit/create-deposit', { accountId: own2.accountId, amount: '25.00', currency: 'USD', chainId: 8453 }),
    await acme.client.post('/v1/submit/create-deposit', { accountId: own2.accountId, amount: '25', currency: 'EUR', chainId: 8453 }),
    await acme.client.post('/v1/submit/create-deposit', { accountId: own2.accountId, amount: '1.001', currency: 'USD', chainId: 8453 }),
    await acme.client.post('/v1/submit/create-deposit', { accountId: own2.accountId, amount: '1', currency: 'USD', chainId: 137 }),
  ],
  simulateDeposit: async ({ acme, own2, server }) => {
    const created = await acme.client.post('/v1/submit/create-deposit', { accountId: own2.accountId, amount: '2.00', currency: 'USD', chainId: 8453 });
    server.clock.advance(1000);
    const body = { transactionId: created.body.transactionId, amount: '2.00' };
    const funded = await acme.client.post('/v1/sandbox/simulate-deposit', body);
    server.clock.advance(1000);
    return [funded, await acme.client.post('/v1/sandbox/simulate-deposit', body), await acme.client.post('/v1/sandbox/simulate-deposit', { transactionId: own2.transactionId, amount: '1' })];
  },
  createBankAccount: async ({ acme, own2, own }) => [
    await acme.client.post('/v1/submit/create-bank-account', { accountId: own2.accountId, currency: 'USD', accountHolderName: 'Maria Garcia', bankName: 'Chase', us: { accountNumber: '000123456789', routingNumber: '021000021', accountType: 'checking' } }),
    await acme.client.post('/v1/submit/create-bank-account', {
      accountId: own2.accountId,
      currency: 'EUR',
      accountHolderName: 'Maria Garcia',
      iban: { iban: 'FR14 2004 1010 0505 0001 3M02 606', bic: 'BNPAFRPP' },
      address: { streetLine1: '1 Rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FRA' },
    }),
    await acme.client.post('/v1/submit/create-bank-account', { accountId: own2.accountId, currency: 'EUR', accountHolderName: 'Maria Garcia', iban: { iban: 'DE89370400440532013001' } }),
    await acme.client.post('/v1/submit/create-bank-account', { accountId: own.accountId, currency: 'USD', accountHolderName: 'Jonas Becker', us: { accountNumber: '1234', routingNumber: '021000021', accountType: 'savings' } }),
  ],
  listBankAccounts: async ({ acme, own2 }) => [
    await acme.client.get(`/v1/query/list-bank-accounts?accountId=${own2.accountId}&limit=1`),
    await acme.client.get('/v1/query/list-bank-accounts?accountId=nope'),
  ],
  getBankAccount: async ({ acme, own }) => [await acme.client.get(`/v1/query/get-bank-account?bankAccountId=${own.bankAccountId}`), await acme.client.get(`/v1/query/get-bank-account?bankAccountId=${randomUUID()}`)],
  removeBankAccount: async ({ acme, own2 }) => {
    const created = await acme.client.post('/v1/submit/create-bank-account', { accountId: own2.accountId, currency: 'USD', accountHolderName: 'Maria Garcia', us: { accountNumber: '99887766', routingNumber: '011000015', accountType: 'savings' } });
    assert.equal(created.status, 201, created.text);
    return [await acme.client.post('/v1/submit/remove-bank-account', { bankAccountId: created.body.bankAccountId }), await acme.client.post('/v1/submit/remove-bank-account', { bankAccountId: created.body.bankAccountId })];
  },
  simulateBankAccountReview: async ({ acme, own }) => [
    await acme.client.post('/v1/sandbox/simulate-bank-account-review', { bankAccountId: own.bankAccountId, outcome: 'reject' }),
    await acme.client.post('/v1/sandbox/simulate-bank-account-review', { bankAccountId: own.bankAccountId, outcome: 'approve' }),
  ],
  createEntityWallet: async ({ acme, own, own2 }) => [
    await acme.client.post('/v1/submit/create-entity-wallet', { accountId: own.entityAccountId }),
    await acme.client.post('/v1/submit/create-entity-wallet', { accountId: own2.accountId }),
  ],
  createWithdrawal: async (c) => {
    const bankAccountId = await verifiedBankAccount(c.server, c.acme, c.own2.accountId);
    c.server.clock.advance(1000);
    const body = { accountId: c.own2.accountId, bankAccountId, chainId: 8453, amount: '5.00', currency: 'USD' };
    return [
      await c.acme.client.post('/v1/submit/create-withdrawal', body),
      await c.acme.client.post('/v1/submit/create-withdrawal', { ...body, currency: 'EUR' }),
      await c.acme.client.post('/v1/submit/create-withdrawal', { ...body, bankAccountId: c.own.bankAccountId }),
      await c.acme.client.post('/v1/submit/create-withdrawal', { ...body, amount: '5.001' }),
    ];
  },
  simulateWithdrawal: async (c) => {
    const withdrawal = await withdrawalInTransfer(c.server, c.acme, c.own2, await verifiedBankAccount(c.server, c.acme, c.own2.accountId), '2.00');
    c.own2.nonce++; // the withdrawal's transfer took the wallet's next nonce
    c.server.clock.advance(1000);
    const body = { transactionId: withdrawal.transactionId, outcome: 'returned' };
    return [await c.acme.client.post('/v1/sandbox/simulate-withdrawal', body), await c.acme.client.post('/v1/sandbox/simulate-withdrawal', { ...body, outcome: 'completed' })];
  },
  initOtp: async ({ acme, own2, server }) => {
    server.clock.advance(31_000);
    return [
      await acme.client.post('/v1/otp/init', { userId: own2.userId, channel: 'email' }),
      await acme.client.post('/v1/otp/init', { userId: own2.userId, channel: 'email', x: 1 }),
      await acme.client.post('/v1/otp/init', { userId: own2.userId, channel: 'email' }),
    ];
  },
  verifyOtp: async ({ acme, own2, server }) => {
    server.clock.advance(31_000);
    await acme.client.post('/v1/otp/init', { userId: own2.userId, channel: 'email' });
    const code: string = (await acme.client.get(`/v1/sandbox/otp-outbox?userId=${own2.userId}`)).body.data[0].code;
    return [
      await acme.client.post('/v1/otp/verify', { userId: own2.userId, code: code === '000000' ? '000001' : '000000' }),
      await acme.client.post('/v1/otp/verify', { userId: own2.userId, code }),
      await acme.client.post('/v1/otp/verify', { userId: own2.userId, code: 'abc' }),
    ];
  },
  getOtpOutbox: async ({ acme, own2 }) => [await acme.client.get(`/v1/sandbox/otp-outbox?userId=${own2.userId}&limit=1`)],
  sendTransactionOtp: async ({ acme, own2, server }) => {
    const approvalToken = await otpToken(server, acme, own2.userId);
    const { webAuthnStamp: _, ...transfer } = transactionRequest(server, own2, own2.nonce++);
    const request = { ...transfer, approvalToken };
    const created = await acme.client.post('/v1/submit/send-transaction-otp?chain_id=8453', request);
    server.clock.advance(1000);
    return [
      created,
      await acme.client.post('/v1/submit/send-transaction-otp?chain_id=8453', request),
      await acme.client.post('/v1/submit/send-transaction-otp?chain_id=8453', { ...request, transactionId: randomUUID() }),
      await acme.client.post('/v1/submit/send-transaction-otp?chain_id=8453', { ...request, approvalToken: 'nope' }),
    ];
  },
  getTransaction: async ({ acme, own2 }) => [
    await acme.client.get(`/v1/query/get-transaction?transactionId=${own2.transactionId}`),
    await acme.client.get('/v1/query/get-transaction?transactionId=nope'),
  ],
  listTransactions: async ({ acme, own2 }) => [await acme.client.get(`/v1/query/list-transactions?accountId=${own2.accountId}&limit=1`)],
  deleteCredential: async ({ acme }) => {
    const created = await acme.client.post('/v1/integrator/credentials', { label: 'del', scope: 'read_only' });
    return [
      await acme.client.delete(`/v1/integrator/credentials/${created.body.credential.publicKey}`),
      await acme.client.delete(`/v1/integrator/credentials/${acme.publicKey}`),
    ];
  },
};

async function plain(server: TestServer, path: string): Promise<ApiResponse> {
  const res = await fetch(`${server.url}${path}`);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

/** A concrete URL for a templated path (its parameters do not matter where it is used). */
const operationUrl = (path: string) => path.replace(/\{[^}]+\}/g, '0x02');

for (const backend of backends()) {
  describe(`OpenAPI document and real responses [${backend}]`, () => {
    let server: TestServer | undefined;
    let ctx: Ctx;
    let doc: OpenApiDoc;
    let operations: Operation[];
    let assertConforms: ReturnType<typeof openApiChecker>['assertConforms'];

    before(async () => {
      // With a listed USDC, so list-tokens and get-account-balances answer a token too.
      const started = await startTenantsWithToken(backend, 8453, ['Acme', 'Globex'], { WEBHOOK_ALLOW_PRIVATE: '1' });
      ({ server, chain: anvil } = started);
      const [acme, globex] = started.tenants;
      const issued = await acme.client.post('/v1/integrator/credentials', { label: 'reader', scope: 'read_only' });
      const reader = { ...acme, publicKey: issued.body.credential.publicKey, privateKey: issued.body.privateKey, client: server.clientFor(issued.body.privateKey) };
      ctx = { server, acme, reader, globex, foreign: await seedRecords(server, globex), own: await seedRecords(server, acme), own2: await seedPayer(server, acme) };
      doc = (await plain(server, '/openapi.json')).body;
      ({ operations, assertConforms } = openApiChecker(doc));
    });
    after(() => server?.close());

    it('is OpenAPI 3.1 at version 0.2.0 with the three-header security scheme', () => {
      assert.equal(doc.openapi, '3.1.0');
      assert.equal(doc.info.version, '0.2.0');
      assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['pubkey', 'signature', 'timestamp']);
      assert.equal(doc.components.securitySchemes.signature!.name, 'X-Signature');
      assert.deepEqual(doc.security, [{ pubkey: [], timestamp: [], signature: [] }]);
      for (const { path, op } of operations) {
        assert.ok(op.operationId, `${path} has an operationId`);
        if (path.startsWith('/v1/')) {
          assert.equal(op.security, undefined, `${op.operationId} inherits the signed scheme`);
          assert.ok(op.responses['401'], `${op.operationId} declares 401`);
        } else assert.deepEqual(op.security, [], `${op.operationId} is unsigned`);
      }
    });

    it('declares its server, describes every tag it uses and every operation, and names the shared shapes once', () => {
      assert.deepEqual(doc.servers, [{ url: '/', description: 'This server' }]);
      const declared = new Map((doc.tags ?? []).map((t) => [t.name, t.description]));
      for (const { op } of operations) {
        assert.ok(op.description, `${op.operationId} has a description`);
        for (const tag of op.tags ?? []) assert.ok(declared.get(tag), `tag ${tag} (${op.operationId}) is declared with a description`);
      }
      for (const name of ['Problem', 'Credential', 'Transaction', 'Event', 'WebhookSubscription', 'Vault', 'Address', 'UserInfo', 'User', 'Account', 'EntityInfo', 'AssociatedPerson', 'BankAccount', 'Member', 'Invitation', 'SignedBody']) {
        assert.ok(doc.components.schemas?.[name], `components.schemas.${name}`);
      }
      assert.deepEqual(repeatedShapes(doc), [], 'object schemas written out more than once (give each a title: openapi-components.ts)');
    });

    it('serves a docs page', async () => {
      const res = await fetch(`${ctx.server.url}/docs`);
      assert.equal(res.status, 200);
      assert.match(await res.text(), /swagger-ui/i);
    });

    it('has an example for every operation, and every real response validates against the document', async () => {
      const ids = operations.map((o) => o.op.operationId);
      assert.deepEqual(ids.filter((id) => !EXAMPLES[id]), [], 'operations without examples');
      for (const { method, path, op } of operations) {
        const responses = await EXAMPLES[op.operationId]!(ctx);
        assert.ok(responses.length > 0);
        for (const res of responses) {
          // The example's own URL is not on the response; its operation is this one.
          assertConforms(method, path.replace(/\{pubkey\}/, '0x00').replace(/\{code\}/, 'x'), res);
        }
        ctx.server.clock.advance(1000);
      }
    });

    it('addresses every operation that takes a record id in the sweep below', () => {
      const takesId = operations.filter(({ path, op }) => {
        const params = (op.parameters ?? []).map((p) => p.name);
        const body = op.requestBody?.content?.['application/json']?.schema?.properties ?? {};
        return path.startsWith('/v1/') && [...params, ...Object.keys(body)].some((n) => /^(accountId|userId|entityId|beneficiaryId|pubkey|startingAfter|eventId|subscriptionId|deliveryId|transactionId|bankAccountId)$/.test(n));
      });
      assert.deepEqual(takesId.map((o) => o.op.operationId).filter((id) => !ADDRESSED[id]), []);
    });

    it('over every signed operation: unsigned is 401, read_only on a mutation is 403, another integrator’s record is 404', async () => {
      const signed = operations.filter((o) => o.path.startsWith('/v1/'));
      assert.ok(signed.length >= 6);
      const readerMay = new Set<string>((await ctx.reader.client.get('/v1/integrator/whoami')).body.capabilities);
      for (const { method, op } of signed) if (method !== 'GET') assert.ok(!readerMay.has(op.operationId), `${op.operationId} is a mutation`);
      for (const { method, path, op } of signed) {
        const url = operationUrl(path);
        const unsigned = await fetch(`${ctx.server.url}${url}`, { method, headers: { 'content-type': 'application/json' }, ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }) });
        const text = await unsigned.text();
        const res = { status: unsigned.status, headers: unsigned.headers, text, body: JSON.parse(text) };
        assert.equal(res.status, 401, `${op.operationId} unsigned`);
        assertConforms(method, url, res);

        const body = method === 'POST' ? { label: 'x', scope: 'read_only' } : method === 'PATCH' ? { label: 'x' } : undefined;
        const asReader = await ctx.reader.client.request(method, url, body === undefined ? {} : { body });
        if (!readerMay.has(op.operationId)) {
          assert.equal(asReader.status, 403, `${op.operationId} read_only`);
          assertConforms(method, url, asReader);
        } else assert.ok(asReader.status !== 401 && asReader.status !== 403, `${op.operationId} read_only may read`);

        const addressed = ADDRESSED[op.operationId];
        if (addressed) {
          ctx.server.clock.advance(1000);
          const foreign = await addressed(ctx, ctx.foreign);
          assert.equal(foreign.status, 404, `${op.operationId} foreign record: ${foreign.text}`);
          assertConforms(method, operationUrl(path), foreign);
          // Byte-identical to a record that does not exist, apart from the request id.
          const missing = await addressed(ctx, {
            userId: randomUUID(),
            accountId: randomUUID(),
            entityAccountId: randomUUID(),
            beneficiaryId: randomUUID(),
            publicKey: generateP256KeyPair().publicKey,
            subscriptionId: randomUUID(),
            eventId: randomUUID(),
            deliveryId: randomUUID(),
            transactionId: randomUUID(),
            organizationId: randomUUID(),
            walletAddress: privateKeyToAccount(generatePrivateKey()).address,
            bankAccountId: randomUUID(),
            invitationId: randomUUID(),
            invitationToken: `inv_${randomBytes(32).toString('base64url')}`,
            policyId: randomUUID(),
            onboardingLinkId: randomUUID(),
          });
          assert.deepEqual({ ...foreign.body, requestId: 0 }, { ...missing.body, requestId: 0 }, op.operationId);
        }
      }
    });
  });
}
