import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { accountMembers } from '../../src/db/schema/index.js';
import type { SoftwareAuthenticator } from './authenticator.js';
import { createCustomer, type Customer } from './customers.js';
import { berliner, companyInfo, entityDocs, personDocs, signedAt } from './fixtures.js';
import type { SeededIntegrator, TestServer } from './server.js';

/** An entity account with its wallet and its first owner (a customer who is also its representative). */
export interface TeamAccount {
  accountId: string;
  organizationId: string;
  walletAddress: string;
  owner: Customer;
}

/** A signed POST in a second of its own (the replay guard refuses an identical signed write within one). */
export function post(server: TestServer, who: SeededIntegrator, path: string, body: unknown) {
  server.clock.advance(1000);
  return who.client.post(path, body);
}

/**
 * The body of a request made on behalf of a member (docs/members.md#acting-member), before its approval: the
 * operation's fields, actingUserId, and a signedBody of type ACTIVITY_TYPE_MEMBER_ACTION over them.
 */
export function memberAction(
  server: TestServer,
  account: Pick<TeamAccount, 'organizationId'>,
  userId: string,
  operation: string,
  fields: Record<string, unknown>,
  overrides: { parameters?: Record<string, unknown>; timestampMs?: string } = {},
) {
  const body = { ...fields, actingUserId: userId };
  const signedBody = {
    type: 'ACTIVITY_TYPE_MEMBER_ACTION',
    timestampMs: overrides.timestampMs ?? String(server.clock.now().getTime()),
    organizationId: account.organizationId,
    parameters: overrides.parameters ?? { operation, ...body },
  };
  return { ...body, signedBody };
}

/** memberAction stamped by the member's (software) passkey. */
export function asMember(
  server: TestServer,
  account: Pick<TeamAccount, 'organizationId'>,
  member: { userId: string; passkey: SoftwareAuthenticator },
  operation: string,
  fields: Record<string, unknown>,
  overrides: { parameters?: Record<string, unknown>; timestampMs?: string } = {},
) {
  const body = memberAction(server, account, member.userId, operation, fields, overrides);
  return { ...body, webAuthnStamp: member.passkey.stamp(JSON.stringify(body.signedBody)) };
}

/**
 * An entity account whose representative is a customer of the same integrator (same email and name), so that
 * customer is its first owner; active (representative and entity approved through the sandbox) unless told otherwise.
 */
export async function teamAccount(server: TestServer, who: SeededIntegrator, options: { active?: boolean } = {}): Promise<TeamAccount> {
  const email = `owner.${randomUUID()}@example.de`;
  const owner = await createCustomer(server, who, { email });
  const entity = await post(server, who, '/v1/submit/create-entity-account', { entityInfo: companyInfo(), entityDocuments: entityDocs(), serviceTermsSignedAt: signedAt() });
  assert.equal(entity.status, 201, entity.text);
  const accountId = entity.body.accountId;
  const account = await who.client.get(`/v1/query/get-account-details?accountId=${accountId}`);
  assert.equal(account.status, 200, account.text);
  // The representative is the customer: createCustomer's californian fixture is Maria Garcia.
  const rep = await post(server, who, '/v1/submit/create-associated-person', {
    accountId,
    userInfo: { ...berliner({ email }), firstName: 'Maria', lastName: 'Garcia' },
    beneficiaryDetails: { beneficiaryType: ['representative', 'ubo'], title: 'Director', ownershipPercentage: 100 },
    verificationDocuments: personDocs('DEU'),
  });
  assert.equal(rep.status, 201, rep.text);
  if (options.active !== false) {
    assert.equal((await post(server, who, '/v1/sandbox/simulate-verification', { beneficiaryId: rep.body.beneficiaryId, outcome: 'approve' })).status, 200);
    const active = await post(server, who, '/v1/sandbox/simulate-verification', { accountId, outcome: 'approve' });
    assert.equal(active.body.verificationStatus, 'active', active.text);
  }
  return { accountId, organizationId: account.body.organizationId, walletAddress: account.body.walletAddress, owner };
}

/**
 * A new customer seated as a member with `role`, written straight to the database: a set-up shortcut for suites
 * about what members do (the way in for real, the invitation, has its own suite).
 */
export async function seatMember(server: TestServer, who: SeededIntegrator, account: Pick<TeamAccount, 'accountId'>, role: string): Promise<Customer> {
  const member = await createCustomer(server, who);
  await seatUser(server, who, account, member.userId, role);
  return member;
}

/** An existing user of the integrator seated as a member with `role` (the same set-up shortcut). */
export async function seatUser(server: TestServer, who: SeededIntegrator, account: Pick<TeamAccount, 'accountId'>, userId: string, role: string): Promise<void> {
  const now = server.clock.now();
  await server.database.db.insert(accountMembers).values({ integratorId: who.integratorId, accountId: account.accountId, userId, role: role as 'viewer', createdAt: now, updatedAt: now });
}
