import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema/index.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { backends } from '../harness/backends.js';
import { ETH, recipient, settled, signedBody, unsignedTransfer, type Customer } from '../harness/customers.js';
import { eventsFor } from '../harness/db.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import { inviteeInfo, outboxMessage, tokenIn } from '../harness/invitations.js';
import { asMember, post, seatMember, teamAccount, type TeamAccount } from '../harness/members.js';
import { useTenantsOnChain } from '../harness/tenants.js';

// The two escalations the outside review reproduced on a real chain (issue 33), replayed end to end: an admin who
// made themselves approver and sent 0.1 ETH alone; an admin who invited an approver at an address of their own,
// raised themselves, and completed a 2-of-n transfer with that accomplice. Neither moves a wei now, and an invited
// member counts only once verified.

const TENTH = ETH / 10n;

interface Member {
  userId: string;
  passkey: SoftwareAuthenticator;
}

for (const backend of backends()) {
  describe(`an admin cannot move an entity's funds [${backend}]`, () => {
    const { server, chain, tenants: [acme] } = useTenantsOnChain(backend, 8453, ['Acme']);

    const balance = async (address: string) => BigInt(await chain.rpc<string>('eth_getBalance', [address, 'latest']));

    function propose(team: TeamAccount, member: Member, nonce: number, to: string) {
      const body = signedBody(server, team, unsignedTransfer(8453, nonce, to, TENTH));
      return post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: randomUUID(), signedBody: body, actingUserId: member.userId, webAuthnStamp: member.passkey.stamp(JSON.stringify(body)) });
    }

    const roleOf = async (team: TeamAccount, userId: string) => {
      const members = await acme.client.get(`/v1/query/list-members?accountId=${team.accountId}`);
      return members.body.data.find((m: { userId: string }) => m.userId === userId)?.role as string | undefined;
    };

    it('requiredApprovals 1: the admin’s own promotion is 403 cannot_change_own_role, their proposal 403; no coin moves', async () => {
      const team = await teamAccount(server, acme);
      await chain.setBalance(team.walletAddress, ETH);
      const admin: Customer = await seatMember(server, acme, team, 'admin');
      const raised = await post(server, acme, '/v1/submit/update-member-role', asMember(server, team, admin, 'update-member-role', { accountId: team.accountId, userId: admin.userId, role: 'approver' }));
      assert.deepEqual([raised.status, raised.body.code], [403, 'cannot_change_own_role'], raised.text);
      assert.equal(await roleOf(team, admin.userId), 'admin');
      const to = recipient();
      const proposed = await propose(team, admin, 0, to);
      assert.deepEqual([proposed.status, proposed.body.code], [403, 'role_not_allowed'], proposed.text);
      assert.equal(await balance(to), 0n);
      assert.equal(await balance(team.walletAddress), ETH);
      assert.ok(!(await eventsFor(server.database, team.accountId)).some((e) => e.type === 'member.role_changed'));
    });

    it('requiredApprovals 2: the admin can neither invite an approver nor raise themselves; an owner’s invitee counts only once verified', async () => {
      const team = await teamAccount(server, acme);
      await chain.setBalance(team.walletAddress, ETH);
      const approver = await seatMember(server, acme, team, 'approver');
      const admin = await seatMember(server, acme, team, 'admin');
      const policy = await post(server, acme, '/v1/submit/update-approval-policy', asMember(server, team, team.owner, 'update-approval-policy', { accountId: team.accountId, requiredApprovals: 2 }));
      assert.equal(policy.status, 200, policy.text);

      // The review's path: an invitation of an approver at an address the admin holds, then their own promotion.
      const accomplice = `accomplice.${randomUUID()}@example.org`;
      for (const role of ['approver', 'owner', 'admin']) {
        const invited = await post(server, acme, '/v1/submit/create-invitation', asMember(server, team, admin, 'create-invitation', { accountId: team.accountId, email: accomplice, role }));
        assert.deepEqual([invited.status, invited.body.code], [403, 'role_not_allowed'], `${role}: ${invited.text}`);
      }
      const raised = await post(server, acme, '/v1/submit/update-member-role', asMember(server, team, admin, 'update-member-role', { accountId: team.accountId, userId: admin.userId, role: 'approver' }));
      assert.deepEqual([raised.status, raised.body.code], [403, 'cannot_change_own_role'], raised.text);

      // An owner's invitation, accepted with just a name and a passkey: a member, not yet someone who moves funds.
      const invited = await post(server, acme, '/v1/submit/create-invitation', asMember(server, team, team.owner, 'create-invitation', { accountId: team.accountId, email: accomplice, role: 'approver' }));
      assert.equal(invited.status, 201, invited.text);
      const passkey = new SoftwareAuthenticator();
      const token = tokenIn((await outboxMessage(acme, invited.body.invitationId)).text);
      const accepted = await post(server, acme, '/v1/submit/accept-invitation', { token, userInfo: inviteeInfo(accomplice), serviceTermsSignedAt: signedAt(), authenticator: passkey.authenticator() });
      assert.equal(accepted.status, 201, accepted.text);
      const newcomer: Member = { userId: accepted.body.member.userId, passkey };
      const user = await acme.client.get(`/v1/query/get-user-details?userId=${newcomer.userId}`);
      assert.equal(user.body.verificationStatus, 'awaiting_information', user.text);

      const to = recipient();
      const own = await propose(team, newcomer, 0, to);
      assert.deepEqual([own.status, own.body.code], [409, 'member_not_verified'], own.text);
      const waiting = await propose(team, approver, 0, to);
      assert.deepEqual([waiting.status, waiting.body.status, waiting.body.approvals.received.length], [201, 'created', 1], waiting.text);
      const early = await post(server, acme, '/v1/submit/approve-transaction', asMember(server, team, newcomer, 'approve-transaction', { transactionId: waiting.body.transactionId }));
      assert.deepEqual([early.status, early.body.code], [409, 'member_not_verified'], early.text);
      const meanwhile = await acme.client.get(`/v1/query/get-transaction?transactionId=${waiting.body.transactionId}`);
      assert.deepEqual([meanwhile.body.status, meanwhile.body.approvals], ['created', { required: 2, received: [{ userId: approver.userId, at: waiting.body.approvals.received[0].at }] }]);
      const counted = await acme.client.get(`/v1/query/get-approval-policy?accountId=${team.accountId}`);
      assert.equal(counted.body.approvers, 2, 'the owner and the verified approver; not the newcomer');
      assert.equal(await balance(to), 0n);

      // Verified as any user is (the rest of the details and documents, review): now their approval counts.
      server.clock.advance(1000);
      const completed = await acme.client.patch('/v1/submit/update-user', { userId: newcomer.userId, userInfo: californian({ firstName: 'Erika', middleName: null, lastName: 'Mustermann', email: accomplice }), verificationDocuments: personDocs() });
      assert.equal(completed.status, 200, completed.text);
      const accountId = completed.body.accountId as string;
      if (completed.body.verificationStatus !== 'under_review') {
        const requested = await post(server, acme, '/v1/submit/request-verification', { accountId });
        assert.equal(requested.status, 200, requested.text);
      }
      const approved = await post(server, acme, '/v1/sandbox/simulate-verification', { accountId, outcome: 'approve' });
      assert.equal(approved.body.verificationStatus, 'active', approved.text);
      const approval = await post(server, acme, '/v1/submit/approve-transaction', asMember(server, team, newcomer, 'approve-transaction', { transactionId: waiting.body.transactionId }));
      assert.deepEqual([approval.status, approval.body.status], [200, 'processing'], approval.text);
      assert.equal((await settled(acme, waiting.body.transactionId)).status, 'completed');
      assert.equal(await balance(to), TENTH);
    });

    it('an approval given while verified stops counting when the user leaves active, and counts again once back', async () => {
      const team = await teamAccount(server, acme);
      await chain.setBalance(team.walletAddress, ETH);
      const [a, b] = [await seatMember(server, acme, team, 'approver'), await seatMember(server, acme, team, 'approver')];
      const policy = await post(server, acme, '/v1/submit/update-approval-policy', asMember(server, team, team.owner, 'update-approval-policy', { accountId: team.accountId, requiredApprovals: 2 }));
      assert.equal(policy.status, 200, policy.text);
      const to = recipient();
      const proposed = await propose(team, a, 0, to);
      assert.deepEqual([proposed.status, proposed.body.approvals.received.length], [201, 1], proposed.text);
      // A set-up shortcut: review sends a verified user back (an operator's decision in real life).
      const setStatus = (status: 'active' | 'inactive') => server.database.db.update(users).set({ verificationStatus: status }).where(eq(users.id, a.userId));
      await setStatus('inactive');
      const dropped = await acme.client.get(`/v1/query/get-transaction?transactionId=${proposed.body.transactionId}`);
      assert.deepEqual(dropped.body.approvals, { required: 2, received: [] });
      assert.equal((await acme.client.get(`/v1/query/get-approval-policy?accountId=${team.accountId}`)).body.approvers, 2);
      const one = await post(server, acme, '/v1/submit/approve-transaction', asMember(server, team, b, 'approve-transaction', { transactionId: proposed.body.transactionId }));
      assert.deepEqual([one.status, one.body.status, one.body.approvals.received.map((r: { userId: string }) => r.userId)], [200, 'created', [b.userId]], one.text);
      assert.equal(await balance(to), 0n);
      await setStatus('active');
      const again = await post(server, acme, '/v1/submit/approve-transaction', asMember(server, team, b, 'approve-transaction', { transactionId: proposed.body.transactionId }));
      assert.deepEqual([again.status, again.body.status], [200, 'processing'], again.text);
      assert.equal((await settled(acme, proposed.body.transactionId)).status, 'completed');
      assert.equal(await balance(to), TENTH);
    });
  });
}
