import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { accountMembers } from '../../src/db/schema/index.js';
import type { Anvil } from './anvil.js';
import { SoftwareAuthenticator } from './authenticator.js';
import { ETH, recipient, signedBody, unsignedTransfer } from './customers.js';
import { californian, personDocs, signedAt } from './fixtures.js';
import { asMember, post, teamAccount, type TeamAccount } from './members.js';
import type { SeededIntegrator, TestServer } from './server.js';

// An entity whose team the operators' case shows (docs/review.md, "Entity team"): members with names of their own
// (every harness customer is Maria Garcia, which would not tell a proposer from an approver) and a member's
// transfer waiting for a 2-of-3 quorum.

export interface NamedMember {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  role: string;
  passkey: SoftwareAuthenticator;
}

/** An active customer called `firstName lastName`, seated as a member with `role` (the set-up shortcut seatMember takes). */
export async function namedMember(server: TestServer, who: SeededIntegrator, account: Pick<TeamAccount, 'accountId'>, role: string, firstName: string, lastName: string): Promise<NamedMember> {
  const passkey = new SoftwareAuthenticator();
  const email = `${firstName}.${lastName}.${randomUUID().slice(0, 8)}@example.com`.toLowerCase();
  const created = await post(server, who, '/v1/submit/create-individual-account', {
    userInfo: californian({ firstName, middleName: null, lastName, email }),
    serviceTermsSignedAt: signedAt(),
    verificationDocuments: personDocs(),
    authenticators: [passkey.authenticator()],
  });
  assert.equal(created.status, 201, created.text);
  const approved = await post(server, who, '/v1/sandbox/simulate-verification', { accountId: created.body.accountId, outcome: 'approve' });
  assert.equal(approved.body.verificationStatus, 'active', approved.text);
  const now = server.clock.now();
  await server.database.db.insert(accountMembers).values({ integratorId: who.integratorId, accountId: account.accountId, userId: created.body.userId, role: role as 'viewer', createdAt: now, updatedAt: now });
  return { userId: created.body.userId, firstName, lastName, email, role, passkey };
}

export interface PendingTeam {
  account: TeamAccount;
  /** Two approvers and a viewer, after the owner (Maria Garcia, the representative). */
  proposer: NamedMember;
  approver: NamedMember;
  viewer: NamedMember;
  /** The proposer's transfer: created, one approval of two. */
  transactionId: string;
  to: string;
  value: bigint;
}

/** A member's transfer from an entity wallet (send-transaction-passkey with actingUserId), nonce `nonce`. */
export function proposeTransfer(server: TestServer, who: SeededIntegrator, account: TeamAccount, member: Pick<NamedMember, 'userId' | 'passkey'>, options: { nonce: number; to: string; value: bigint }) {
  const body = signedBody(server, account, unsignedTransfer(8453, options.nonce, options.to, options.value));
  return post(server, who, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: randomUUID(), signedBody: body, actingUserId: member.userId, webAuthnStamp: member.passkey.stamp(JSON.stringify(body)) });
}

/** A member's approval of a transaction (approve-transaction on behalf of `member`). */
export function approveAs(server: TestServer, who: SeededIntegrator, account: TeamAccount, member: Pick<NamedMember, 'userId' | 'passkey'>, transactionId: string) {
  return post(server, who, '/v1/submit/approve-transaction', asMember(server, account, member, 'approve-transaction', { transactionId }));
}

/**
 * An active entity with an owner, two approvers and a viewer, a policy of 2 (of the 3 who may approve), its wallet
 * funded on chain 8453, and the first approver's transfer of 0.25 ETH waiting with one approval.
 */
export async function teamWithPendingTransfer(server: TestServer, chain: Anvil, who: SeededIntegrator): Promise<PendingTeam> {
  const account = await teamAccount(server, who);
  const proposer = await namedMember(server, who, account, 'approver', 'Jonas', 'Weber');
  const approver = await namedMember(server, who, account, 'approver', 'Lena', 'Fischer');
  const viewer = await namedMember(server, who, account, 'viewer', 'Tom', 'Becker');
  const policy = await post(server, who, '/v1/submit/update-approval-policy', asMember(server, account, account.owner, 'update-approval-policy', { accountId: account.accountId, requiredApprovals: 2 }));
  assert.equal(policy.status, 200, policy.text);
  await chain.setBalance(account.walletAddress, ETH);
  const to = recipient();
  const value = ETH / 4n;
  const proposed = await proposeTransfer(server, who, account, proposer, { nonce: 0, to, value });
  assert.deepEqual([proposed.status, proposed.body.status, proposed.body.approvals?.received.length], [201, 'created', 1], proposed.text);
  return { account, proposer, approver, viewer, transactionId: proposed.body.transactionId, to, value };
}
