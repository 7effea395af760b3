import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { backends } from '../harness/backends.js';
import { ETH, settled, signedBody, unsignedTransfer } from '../harness/customers.js';
import { eventsFor } from '../harness/db.js';
import { asMember, post, seatMember, teamAccount, type TeamAccount } from '../harness/members.js';
import { useTenantsOnChain } from '../harness/tenants.js';
import type { SoftwareAuthenticator } from '../harness/authenticator.js';

interface Member {
  userId: string;
  passkey: SoftwareAuthenticator;
}

for (const backend of backends()) {
  describe(`transactions from entity wallets: proposals and quorum [${backend}]`, () => {
    const { server, chain, tenants: [acme, globex] } = useTenantsOnChain(backend, 8453, ['Acme', 'Globex']);
    const nonce = new Map<string, number>();

    /** An active team with two approvers and an initiator, its wallet funded, needing `required` approvals. */
    async function team(required: number) {
      const account = await teamAccount(server, acme);
      const [a, b, initiator, viewer] = [await seatMember(server, acme, account, 'approver'), await seatMember(server, acme, account, 'approver'), await seatMember(server, acme, account, 'initiator'), await seatMember(server, acme, account, 'viewer')];
      if (required !== 1) {
        const policy = await post(server, acme, '/v1/submit/update-approval-policy', asMember(server, account, account.owner, 'update-approval-policy', { accountId: account.accountId, requiredApprovals: required }));
        assert.equal(policy.status, 200, policy.text);
      }
      await chain.setBalance(account.walletAddress, ETH);
      return { account, a, b, initiator, viewer };
    }

    /** A member's proposal of a transfer from the team's wallet (send-transaction-passkey with actingUserId). */
    function propose(account: TeamAccount, member: Member, transactionId = randomUUID()) {
      const n = nonce.get(account.walletAddress) ?? 0;
      nonce.set(account.walletAddress, n + 1);
      server.clock.advance(1000);
      const body = signedBody(server, account, unsignedTransfer(8453, n));
      return post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId, signedBody: body, actingUserId: member.userId, webAuthnStamp: member.passkey.stamp(JSON.stringify(body)) });
    }

    const approve = (account: TeamAccount, member: Member, transactionId: string, who = acme) => post(server, who, '/v1/submit/approve-transaction', asMember(server, account, member, 'approve-transaction', { transactionId }));
    const reject = (account: TeamAccount, member: Member, transactionId: string) => post(server, acme, '/v1/submit/reject-transaction', asMember(server, account, member, 'reject-transaction', { transactionId }));

    it('2 of 3: an approver proposes (one approval), a second approves, the transaction is signed, broadcast and mined', async () => {
      const { account, a, b } = await team(2);
      const proposed = await propose(account, a);
      assert.equal(proposed.status, 201, proposed.text);
      assert.equal(proposed.body.status, 'created');
      assert.equal(proposed.body.transactionHash, null);
      assert.deepEqual(proposed.body.approvals.required, 2);
      assert.deepEqual(proposed.body.approvals.received.map((r: { userId: string }) => r.userId), [a.userId]);
      const approved = await approve(account, b, proposed.body.transactionId);
      assert.equal(approved.status, 200, approved.text);
      assert.equal(approved.body.status, 'processing');
      assert.deepEqual(approved.body.approvals.received.map((r: { userId: string }) => r.userId), [a.userId, b.userId]);
      const done = await settled(acme, proposed.body.transactionId);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      const rowId = (await server.database.db.query.transactions.findFirst({ where: (t, { eq }) => eq(t.transactionId, proposed.body.transactionId) }))!.id;
      const types = (await eventsFor(server.database, rowId)).map((e) => e.type);
      assert.deepEqual(types.slice(0, 4), ['transaction.created', 'transaction.approval_added', 'transaction.approval_added', 'transaction.status.changed']);
    });

    it('the same member twice counts once; an initiator’s proposal does not count; viewers and initiators may not approve (403)', async () => {
      const { account, a, initiator, viewer } = await team(2);
      const byViewer = await propose(account, viewer);
      assert.deepEqual([byViewer.status, byViewer.body.code], [403, 'role_not_allowed'], byViewer.text);
      const proposed = await propose(account, initiator);
      assert.equal(proposed.status, 201, proposed.text);
      assert.deepEqual(proposed.body.approvals.received, []);
      const once = await approve(account, a, proposed.body.transactionId);
      const twice = await approve(account, a, proposed.body.transactionId);
      assert.deepEqual([once.body.status, twice.status, twice.body.status, twice.body.approvals.received.length], ['created', 200, 'created', 1], twice.text);
      const byInitiator = await approve(account, initiator, proposed.body.transactionId);
      assert.deepEqual([byInitiator.status, byInitiator.body.code], [403, 'role_not_allowed']);
    });

    it('two approvers racing at the quorum: one signs and broadcasts, the other is 409; one transaction on chain', async () => {
      const { account, a, b } = await team(2);
      const proposed = await propose(account, a);
      server.clock.advance(1000);
      const [x, y] = await Promise.all([
        acme.client.post('/v1/submit/approve-transaction', asMember(server, account, b, 'approve-transaction', { transactionId: proposed.body.transactionId })),
        acme.client.post('/v1/submit/approve-transaction', asMember(server, account, account.owner, 'approve-transaction', { transactionId: proposed.body.transactionId })),
      ]);
      assert.deepEqual([x.status, y.status].sort(), [200, 409], `${x.text}\n${y.text}`);
      const loser = x.status === 409 ? x : y;
      assert.equal(loser.body.code, 'invalid_transaction_state');
      const done = await settled(acme, proposed.body.transactionId);
      assert.equal(done.status, 'completed');
      const row = await server.database.db.query.transactions.findFirst({ where: (t, { eq }) => eq(t.transactionId, proposed.body.transactionId) });
      const transitions = await server.database.db.query.transactionTransitions.findMany({ where: (t, { eq }) => eq(t.transactionRowId, row!.id) });
      assert.equal(transitions.filter((t) => t.toStatus === 'processing').length, 1, 'moved to processing once');
    });

    it('a removed approver’s approval stops counting', async () => {
      const { account, a, b } = await team(2);
      const proposed = await propose(account, a);
      const removed = await post(server, acme, '/v1/submit/remove-member', asMember(server, account, account.owner, 'remove-member', { accountId: account.accountId, userId: a.userId }));
      assert.equal(removed.status, 200, removed.text);
      const read = await acme.client.get(`/v1/query/get-transaction?transactionId=${proposed.body.transactionId}`);
      assert.deepEqual(read.body.approvals, { required: 2, received: [] });
      const first = await approve(account, b, proposed.body.transactionId);
      assert.equal(first.body.status, 'created', 'one counting approval of two');
      const second = await approve(account, account.owner, proposed.body.transactionId);
      assert.equal(second.body.status, 'processing', second.text);
    });

    it('a policy lowered while a proposal waits applies at the next approval, even a repeated one', async () => {
      const { account, a } = await team(2);
      const proposed = await propose(account, a);
      const lowered = await post(server, acme, '/v1/submit/update-approval-policy', asMember(server, account, account.owner, 'update-approval-policy', { accountId: account.accountId, requiredApprovals: 1 }));
      assert.equal(lowered.status, 200, lowered.text);
      const again = await approve(account, a, proposed.body.transactionId);
      assert.deepEqual([again.status, again.body.status, again.body.approvals.required], [200, 'processing', 1], again.text);
    });

    it('the same proposal request again is answered as it is (a replay), not proposed twice', async () => {
      const { account, a } = await team(2);
      const body = signedBody(server, account, unsignedTransfer(8453, 0));
      const request = { transactionId: randomUUID(), signedBody: body, actingUserId: a.userId, webAuthnStamp: a.passkey.stamp(JSON.stringify(body)) };
      const first = await post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', request);
      const second = await post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', request);
      assert.deepEqual([first.status, second.status, second.body.status, second.body.approvals.received.length], [201, 200, 'created', 1], second.text);
    });

    it('a quorum of one: an owner’s proposal is sent at once (201 processing)', async () => {
      const { account } = await team(1);
      const proposed = await propose(account, account.owner);
      assert.deepEqual([proposed.status, proposed.body.status], [201, 'processing'], proposed.text);
      assert.equal((await settled(acme, proposed.body.transactionId)).status, 'completed');
    });

    it('reject: an approver ends it as failed (rejected); then nothing more is decided on it', async () => {
      const { account, a, b, initiator } = await team(2);
      const proposed = await propose(account, initiator);
      const byInitiator = await reject(account, initiator, proposed.body.transactionId);
      assert.equal(byInitiator.status, 403);
      const rejected = await reject(account, a, proposed.body.transactionId);
      assert.deepEqual([rejected.status, rejected.body.status, rejected.body.failureReason], [200, 'failed', 'rejected'], rejected.text);
      const late = await approve(account, b, proposed.body.transactionId);
      assert.deepEqual([late.status, late.body.code], [409, 'invalid_transaction_state']);
    });

    it('a proposal without its quorum expires after 24 hours (the watcher, or the next approval)', async () => {
      const { account, a, b } = await team(2);
      const first = await propose(account, a);
      const second = await propose(account, a);
      server.clock.advance(24 * 60 * 60 * 1000);
      const late = await approve(account, b, second.body.transactionId);
      assert.deepEqual([late.status, late.body.code], [409, 'invalid_transaction_state'], late.text);
      await server.watcher!.nextRound();
      for (const id of [first.body.transactionId, second.body.transactionId]) {
        const read = await acme.client.get(`/v1/query/get-transaction?transactionId=${id}`);
        assert.deepEqual([read.body.status, read.body.failureReason], ['failed', 'expired'], read.text);
      }
    });

    it('a proposal is approved by the acting member’s own passkey: another member’s stamp, or the acting member named with another’s, is credential_mismatch', async () => {
      const { account, a, b } = await team(2);
      server.clock.advance(1000);
      const body = signedBody(server, account, unsignedTransfer(8453, 77));
      for (const [acting, stamper] of [
        [a, b],
        [b, a],
      ] as const) {
        const res = await post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: randomUUID(), signedBody: body, actingUserId: acting.userId, webAuthnStamp: stamper.passkey.stamp(JSON.stringify(body)) });
        assert.deepEqual([res.status, res.body.code, res.body.reason], [422, 'invalid_stamp', 'credential_mismatch'], res.text);
      }
    });

    it('an entity proposal needs actingUserId (400); an individual’s transfer refuses one naming someone else', async () => {
      const { account } = await team(1);
      server.clock.advance(1000);
      const body = signedBody(server, account, unsignedTransfer(8453, 99));
      const res = await post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: randomUUID(), signedBody: body, webAuthnStamp: account.owner.passkey.stamp(JSON.stringify(body)) });
      assert.deepEqual([res.status, res.body.errors?.[0]?.pointer], [400, '/actingUserId'], res.text);
      const mine = signedBody(server, account.owner, unsignedTransfer(8453, 0));
      const other = await post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: randomUUID(), signedBody: mine, actingUserId: randomUUID(), webAuthnStamp: account.owner.passkey.stamp(JSON.stringify(mine)) });
      assert.deepEqual([other.status, other.body.errors?.[0]?.pointer], [400, '/actingUserId'], other.text);
    });

    it('an entity’s withdrawal: a member proposes its approval, the quorum sends the crypto to the treasury', async () => {
      const { account, a, b } = await team(2);
      await chain.setBalance(server.treasury!.address, ETH);
      const bank = await post(server, acme, '/v1/submit/create-bank-account', { accountId: account.accountId, currency: 'USD', accountHolderName: 'Acme Robotics Inc', us: { accountNumber: String(Date.now()).slice(-9), routingNumber: '021000021', accountType: 'checking' } });
      assert.equal(bank.body.status, 'verified', bank.text);
      const withdrawal = await post(server, acme, '/v1/submit/create-withdrawal', { accountId: account.accountId, bankAccountId: bank.body.bankAccountId, chainId: 8453, amount: '1.00', currency: 'USD' });
      assert.equal(withdrawal.status, 201, withdrawal.text);
      const body = signedBody(server, account, withdrawal.body.unsignedTransaction);
      const proposed = await post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: withdrawal.body.transactionId, signedBody: body, actingUserId: a.userId, webAuthnStamp: a.passkey.stamp(JSON.stringify(body)) });
      assert.deepEqual([proposed.status, proposed.body.status, proposed.body.approvals?.received.length], [201, 'created', 1], proposed.text);
      const approved = await approve(account, b, withdrawal.body.transactionId);
      assert.deepEqual([approved.status, approved.body.status], [200, 'processing'], approved.text);
      const moved = await settled(acme, withdrawal.body.transactionId);
      assert.equal(moved.status, 'funds_in_transfer', JSON.stringify(moved));
    });

    it('another integrator cannot approve or reject (404), and its own members are no members here', async () => {
      const { account, a, b } = await team(2);
      const proposed = await propose(account, a);
      const foreign = await approve(account, b, proposed.body.transactionId, globex);
      assert.equal(foreign.status, 404, foreign.text);
      const read = await acme.client.get(`/v1/query/get-transaction?transactionId=${proposed.body.transactionId}`);
      assert.equal(read.body.approvals.received.length, 1);
    });
  });
}
