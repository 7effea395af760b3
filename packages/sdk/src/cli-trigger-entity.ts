// `integrator trigger` for companies: entity accounts, their associated persons, their team (members, invitations, the
// approval policy, transactions waiting for the quorum) and bank accounts. Members act through a software passkey
// (cli-trigger-passkey.ts) registered at their creation, as a front end would with the member's own.
import { randomInt, randomUUID } from 'node:crypto';
import type { IntegratorClient } from './client.js';
import {
  DEFAULT_CHAIN_ID,
  individualAccountBody,
  pdfDataUrl,
  personDocuments,
  refusal,
  setup,
  signedAt,
  tag,
  UsageError,
  withOverrides,
  type Result,
  type Trigger,
  type TriggerOptions,
} from './cli-trigger-base.js';
import { SoftwarePasskey } from './cli-trigger-passkey.js';
import { serializeEip1559, signedBodyFor } from './transactions.js';

type Body<K extends keyof IntegratorClient> = IntegratorClient[K] extends (arg: infer A) => unknown ? (A extends { body: infer B } ? B : never) : never;

function entityBody(): Body<'createEntityAccount'> {
  const address = { streetLine1: '500 Howard St', city: 'San Francisco', state: 'US-CA', postalCode: '94105', country: 'USA' as const };
  return {
    entityInfo: {
      businessLegalName: `Acme Robotics ${tag()} Inc.`,
      businessTradeName: 'Acme',
      businessType: 'corporation',
      companyNumber: `C${randomInt(1_000_000, 10_000_000)}`,
      email: `compliance+${tag()}@acme-robotics.example`,
      website: 'https://acme-robotics.example',
      registeredAddress: address,
      physicalAddress: address,
      activityInfo: { businessDescription: 'Industrial robots for warehouses', businessIndustry: 333922 },
      financialInfo: { sourceOfFunds: 'business_revenue', estimatedAnnualRevenueUsd: '1000000_10000000', expectedMonthlyPaymentsUsd: 250000, hasMaterialIntermediaryEntityOwner: false },
      highRiskInfo: { operatesInProhibitedCountries: false, highRiskActivities: 'none', conductsMoneyServices: false },
    },
    entityDocuments: (['incorporation_cert', 'shareholder_registry', 'source_of_funds', 'proof_of_address'] as const).map((documentType) => ({ documentType, issuingCountry: 'USA' as const, document: pdfDataUrl(documentType) })),
    serviceTermsSignedAt: signedAt(),
  } as Body<'createEntityAccount'>;
}

/** A person of Berlin, `beneficiaryType` of the entity (Maria Garcia at `email` for its representative). */
function personBody(accountId: string, beneficiaryType: string[], person: { firstName: string; lastName: string; email: string }, ownershipPercentage: number): Body<'createAssociatedPerson'> {
  return {
    accountId,
    userInfo: {
      ...person,
      phone: '+4930123456',
      birthDate: '1990-09-30',
      nationality: 'DEU',
      countryOfBirth: 'DEU',
      residentialAddress: { streetLine1: 'Unter den Linden 77', city: 'Berlin', state: 'DE-BE', postalCode: '10117', country: 'DEU' },
    },
    beneficiaryDetails: { beneficiaryType, title: 'Director', ownershipPercentage },
    verificationDocuments: personDocuments('DEU'),
  } as Body<'createAssociatedPerson'>;
}

export interface Member {
  userId: string;
  passkey: SoftwarePasskey;
}

export interface Team extends Result {
  accountId: string;
  organizationId: string;
  walletAddress: string;
  beneficiaryId: string;
  owner: Member;
}

type Step = 'entity' | 'representative' | 'person_verified' | 'entity_verified';

/**
 * An entity account whose representative is a customer of the integrator with a passkey (same email and name), so
 * that customer becomes its first owner (member.added; docs/members.md#first-owner); verified unless `active` is
 * false. --data goes to the request of step `at`.
 */
export async function entityTeam(api: IntegratorClient, options: TriggerOptions, at: Step | undefined, active = true): Promise<Team> {
  const data = (step: Step) => (step === at ? options.overrides : undefined);
  const email = `maria.garcia+${tag()}@example.com`;
  const passkey = new SoftwarePasskey();
  const customer = await api.createIndividualAccount({ body: { ...individualAccountBody(email), authenticators: [passkey.registration()] } });
  await api.simulateVerification({ body: { accountId: customer.accountId, outcome: 'approve' } });
  const entity = await api.createEntityAccount({ body: withOverrides(entityBody(), data('entity')) });
  const rep = await api.createAssociatedPerson({ body: withOverrides(personBody(entity.accountId, ['representative', 'ubo'], { firstName: 'Maria', lastName: 'Garcia', email }, 70), data('representative')) });
  const triggered = ['user.created', 'account.created', 'user.verification_status.changed', 'entity.created', 'account.created', 'associated_person.created', 'member.added'];
  if (active) {
    await api.simulateVerification({ body: withOverrides({ beneficiaryId: rep.beneficiaryId, outcome: 'approve' as const }, data('person_verified')) });
    await api.simulateVerification({ body: withOverrides({ accountId: entity.accountId, outcome: 'approve' as const }, data('entity_verified')) });
    triggered.push('associated_person.verification_status.changed', 'entity.verification_status.changed');
  }
  const account = await api.getAccountDetails({ query: { accountId: entity.accountId } });
  const { organizationId, walletAddress } = account as unknown as { organizationId: string; walletAddress: string };
  return { triggered, accountId: entity.accountId, entityId: entity.entityId, beneficiaryId: rep.beneficiaryId, organizationId, walletAddress, owner: { userId: customer.userId, passkey }, ownerUserId: customer.userId };
}

/** The body of a change made on behalf of `member`, approved by its passkey (docs/members.md#acting-member). */
function asMember<F extends Record<string, unknown>>(team: Team, member: Member, operation: string, fields: F, options: TriggerOptions) {
  const body = { ...fields, actingUserId: member.userId };
  const signedBody = { type: 'ACTIVITY_TYPE_MEMBER_ACTION', timestampMs: String((options.nowMs ?? Date.now)()), organizationId: team.organizationId, parameters: { operation, ...body } };
  return { ...body, signedBody, webAuthnStamp: member.passkey.stamp(signedBody) };
}

/** The public view of a team (no passkeys) with what was triggered. */
const shown = (team: Team, more: Record<string, unknown>, triggered: string[]): Result => {
  const { owner: _owner, ...rest } = team;
  return { ...rest, ...more, triggered: [...team.triggered, ...triggered] };
};

/** An invitation of the owner's to `role`, with its token from the sandbox's mail outbox. */
async function invite(api: IntegratorClient, team: Team, options: TriggerOptions, role: 'approver' | 'viewer', overrides?: Record<string, unknown>) {
  const email = `lena.fischer+${tag()}@example.com`;
  const invitation = await api.createInvitation({ body: asMember(team, team.owner, 'create-invitation', withOverrides({ accountId: team.accountId, email, role }, overrides), options) });
  const outbox = await api.getMailOutbox({ query: { limit: 100 } });
  const message = outbox.data.find((m) => m.subjectId === invitation.invitationId);
  const token = message && /\/invitations\/([A-Za-z0-9_-]+)/.exec(message.text)?.[1];
  return { invitationId: invitation.invitationId, email: invitation.email, token };
}

/**
 * The owner invites an approver: a verified customer of the integrator with a passkey, who accepts as that user
 * (a new user made by the acceptance would approve only once verified: docs/invitations.md).
 */
async function withApprover(api: IntegratorClient, options: TriggerOptions, acceptOverrides?: Record<string, unknown>) {
  const team = await entityTeam(api, setup(options), undefined);
  const invitation = await invite(api, team, options, 'approver');
  if (!invitation.token) throw new Error(`the invitation ${invitation.invitationId} is not in the sandbox's mail outbox (GET /v1/sandbox/mail-outbox)`);
  const passkey = new SoftwarePasskey();
  const person = individualAccountBody(invitation.email);
  const user = await api.createIndividualAccount({ body: { ...person, userInfo: { ...person.userInfo, firstName: 'Lena', lastName: 'Fischer' }, authenticators: [passkey.registration()] } });
  await api.simulateVerification({ body: { accountId: user.accountId, outcome: 'approve' } });
  const accepted = await api.acceptInvitation({ body: withOverrides({ token: invitation.token, userId: user.userId }, acceptOverrides) as Body<'acceptInvitation'> });
  const approver: Member = { userId: accepted.member.userId, passkey };
  return { team, approver, invitationId: invitation.invitationId, triggered: ['invitation.created', 'user.created', 'account.created', 'user.verification_status.changed', 'member.added', 'invitation.accepted'] };
}

/** A team with a policy of 2 and the owner's transfer proposal, waiting with one approval, on the chain of --chain-id. */
async function pendingTransfer(api: IntegratorClient, options: TriggerOptions, type: string) {
  const chainId = options.chainId === undefined ? DEFAULT_CHAIN_ID : Number(options.chainId);
  if (!Number.isSafeInteger(chainId) || chainId < 0) throw new UsageError('--chain-id must be a chain id (an integer)');
  const { team, approver, triggered } = await withApprover(api, setup(options));
  await api.updateApprovalPolicy({ body: asMember(team, team.owner, 'update-approval-policy', { accountId: team.accountId, requiredApprovals: 2 }, options) });
  // Fees and nonce written out: the proposal waits for a second approval, so nothing is broadcast and no node is asked.
  const unsignedTransaction = serializeEip1559({ chainId, nonce: 0, maxPriorityFeePerGas: 10n ** 9n, maxFeePerGas: 2n * 10n ** 9n, gas: 21_000n, to: `0x${'0b'.repeat(20)}`, value: 1n });
  const signedBody = signedBodyFor({ organizationId: team.organizationId, walletAddress: team.walletAddress, unsignedTransaction, timestampMs: (options.nowMs ?? Date.now)() });
  const body = withOverrides({ transactionId: randomUUID(), signedBody, actingUserId: team.owner.userId }, type === 'transaction.approval_added' ? options.overrides : undefined);
  let proposed;
  try {
    proposed = await api.sendTransactionPasskey({ query: { chain_id: chainId }, body: { ...body, webAuthnStamp: team.owner.passkey.stamp(body.signedBody) } as Body<'sendTransactionPasskey'> });
  } catch (err) {
    throw refusal(options, type, `the transfer proposal on chain ${chainId}`, err, ` It needs a chain the server is configured with: start one (\`npm run chain\`) and the server with CHAIN_RPC_URLS=${DEFAULT_CHAIN_ID}=http://127.0.0.1:8545, or pass --chain-id with one of the server's chains (docs/transactions.md). Made meanwhile: entity account ${team.accountId} with its team.`);
  }
  return { team, approver, transactionId: proposed.transactionId, triggered: [...triggered, 'account.approval_policy_updated', 'transaction.created', 'transaction.approval_added'] };
}

/** A verified individual account's bank account: `holder` Maria Garcia matches the KYC name (verified at once). */
async function bankAccount(api: IntegratorClient, options: TriggerOptions, holder: string) {
  const account = options.account ? { accountId: options.account, triggered: [] as string[] } : await (async () => {
    const created = await api.createIndividualAccount({ body: individualAccountBody() });
    await api.simulateVerification({ body: { accountId: created.accountId, outcome: 'approve' } });
    return { accountId: created.accountId, userId: created.userId, triggered: ['user.created', 'account.created', 'user.verification_status.changed'] };
  })();
  const body = { accountId: account.accountId, currency: 'USD' as const, accountHolderName: holder, bankName: 'Chase', us: { accountNumber: String(randomInt(100_000_000, 1_000_000_000)), routingNumber: '021000021', accountType: 'checking' as const } };
  const created = await api.createBankAccount({ body: withOverrides(body, options.overrides) as Body<'createBankAccount'> });
  return { ...account, bankAccountId: created.bankAccountId, status: created.status, triggered: [...account.triggered, 'bank_account.created'] };
}

const ENTITY_STEP: Record<string, Step> = {
  'entity.created': 'entity',
  'associated_person.created': 'representative',
  'member.added': 'representative',
  'associated_person.verification_status.changed': 'person_verified',
  'entity.verification_status.changed': 'entity_verified',
};

const fromTeam: Trigger = async (api, options, type) => shown(await entityTeam(api, options, ENTITY_STEP[type]), {}, []);

export const ENTITY_TRIGGERS: Record<string, Trigger> = {
  ...Object.fromEntries(Object.keys(ENTITY_STEP).map((type) => [type, fromTeam])),
  'entity.updated': async (api, options) => {
    const team = await entityTeam(api, setup(options), undefined, false);
    await api.updateEntityAccount({ body: withOverrides({ accountId: team.accountId, entityInfo: { businessTradeName: 'Acme Robotics' } }, options.overrides) as Body<'updateEntityAccount'> });
    return shown(team, {}, ['entity.updated']);
  },
  'associated_person.updated': async (api, options) => {
    const team = await entityTeam(api, setup(options), undefined, false);
    await api.updateAssociatedPerson({ body: withOverrides({ beneficiaryId: team.beneficiaryId, userInfo: { phone: '+4930123457' } }, options.overrides) as Body<'updateAssociatedPerson'> });
    return shown(team, {}, ['associated_person.updated']);
  },
  'associated_person.removed': async (api, options) => {
    const team = await entityTeam(api, setup(options), undefined, false);
    const ubo = await api.createAssociatedPerson({ body: personBody(team.accountId, ['ubo'], { firstName: 'Jonas', lastName: 'Becker', email: `jonas.becker+${tag()}@example.de` }, 30) });
    await api.removeAssociatedPerson({ body: withOverrides({ beneficiaryId: ubo.beneficiaryId }, options.overrides) });
    return shown(team, { removedBeneficiaryId: ubo.beneficiaryId }, ['associated_person.created', 'associated_person.removed']);
  },
  'invitation.created': async (api, options) => {
    const team = await entityTeam(api, setup(options), undefined);
    const { invitationId } = await invite(api, team, options, 'viewer', options.overrides);
    return shown(team, { invitationId }, ['invitation.created']);
  },
  'invitation.revoked': async (api, options) => {
    const team = await entityTeam(api, setup(options), undefined);
    const { invitationId } = await invite(api, team, options, 'viewer');
    await api.revokeInvitation({ body: asMember(team, team.owner, 'revoke-invitation', withOverrides({ invitationId }, options.overrides), options) });
    return shown(team, { invitationId }, ['invitation.created', 'invitation.revoked']);
  },
  'invitation.accepted': async (api, options) => {
    const { team, approver, invitationId, triggered } = await withApprover(api, options, options.overrides);
    return shown(team, { invitationId, memberUserId: approver.userId }, triggered);
  },
  'member.role_changed': async (api, options) => {
    const { team, approver, triggered } = await withApprover(api, setup(options));
    await api.updateMemberRole({ body: asMember(team, team.owner, 'update-member-role', withOverrides({ accountId: team.accountId, userId: approver.userId, role: 'viewer' as const }, options.overrides), options) });
    return shown(team, { memberUserId: approver.userId }, [...triggered, 'member.role_changed']);
  },
  'member.removed': async (api, options) => {
    const { team, approver, triggered } = await withApprover(api, setup(options));
    await api.removeMember({ body: asMember(team, team.owner, 'remove-member', withOverrides({ accountId: team.accountId, userId: approver.userId }, options.overrides), options) });
    return shown(team, { memberUserId: approver.userId }, [...triggered, 'member.removed']);
  },
  'account.approval_policy_updated': async (api, options) => {
    const { team, triggered } = await withApprover(api, setup(options));
    await api.updateApprovalPolicy({ body: asMember(team, team.owner, 'update-approval-policy', withOverrides({ accountId: team.accountId, requiredApprovals: 2 }, options.overrides), options) });
    return shown(team, {}, [...triggered, 'account.approval_policy_updated']);
  },
  'transaction.approval_added': async (api, options, type) => {
    const { team, transactionId, triggered } = await pendingTransfer(api, options, type);
    return shown(team, { transactionId }, triggered);
  },
  'transaction.failed': async (api, options, type) => {
    // The second approver rejects the proposal: failed (rejected), nothing broadcast.
    const { team, approver, transactionId, triggered } = await pendingTransfer(api, setup(options), type);
    await api.rejectTransaction({ body: asMember(team, approver, 'reject-transaction', withOverrides({ transactionId }, options.overrides), options) });
    return shown(team, { transactionId }, [...triggered, 'transaction.status.changed', 'transaction.failed']);
  },
  'bank_account.created': async (api, options) => bankAccount(api, options, 'Maria Garcia'),
  'bank_account.status_changed': async (api, options) => {
    // A holder who is not the account's person goes to review, which the sandbox approves.
    const created = await bankAccount(api, setup(options), 'Jonas Becker');
    const reviewed = await api.simulateBankAccountReview({ body: withOverrides({ bankAccountId: created.bankAccountId, outcome: 'approve' as const }, options.overrides) });
    return { ...created, status: reviewed.status, triggered: [...created.triggered, 'bank_account.status_changed'] };
  },
  'bank_account.removed': async (api, options) => {
    const created = await bankAccount(api, setup(options), 'Maria Garcia');
    await api.removeBankAccount({ body: withOverrides({ bankAccountId: created.bankAccountId }, options.overrides) });
    return { ...created, triggered: [...created.triggered, 'bank_account.removed'] };
  },
};
