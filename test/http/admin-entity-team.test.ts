import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createOperator } from '../../src/domain/operators/operators.js';
import { adminRequest } from '../harness/admin.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, signedBody } from '../harness/customers.js';
import { companyInfo, entityDocs, signedAt } from '../harness/fixtures.js';
import { approveAs, teamWithPendingTransfer, type PendingTeam } from '../harness/entity-team.js';
import { post } from '../harness/members.js';
import { useTenantsOnChain } from '../harness/tenants.js';

// The operators' case of an entity shows its team (docs/review.md, "Entity team"): members, the approval policy
// and the members' proposals waiting for the quorum, read-only; other subjects' cases are unchanged.

const DAY_MS = 24 * 60 * 60 * 1000;

for (const backend of backends()) {
  describe(`admin API: an entity case's members and pending approvals [${backend}]`, () => {
    const { server, chain, tenants: [acme] } = useTenantsOnChain(backend, 8453, ['Acme']);
    let token: string;
    let team: PendingTeam;
    let entityId: string;

    before(async () => {
      ({ token } = await createOperator(server.database, 'Alice', server.clock.now()));
      await chain.setBalance(server.treasury!.address, ETH);
      team = await teamWithPendingTransfer(server, chain, acme);
      const details = await acme.client.get(`/v1/query/get-account-details?accountId=${team.account.accountId}`);
      entityId = details.body.entityId;
      assert.ok(entityId, details.text);
    });

    const entityCase = async (id = entityId) => {
      const res = await adminRequest(server, 'GET', `/admin/api/reviews/entity/${id}`, { token });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };

    it('lists the members oldest first with their names, emails and roles, and the policy', async () => {
      const body = await entityCase();
      assert.equal(body.requiredApprovals, 2);
      const { owner } = team.account;
      assert.deepEqual(
        body.members.map((m: { userId: string; role: string; firstName: string; lastName: string; email: string }) => [m.userId, m.role, m.firstName, m.lastName, m.email]),
        [
          [owner.userId, 'owner', 'Maria', 'Garcia', owner.email],
          ...[team.proposer, team.approver, team.viewer].map((m) => [m.userId, m.role, m.firstName, m.lastName, m.email]),
        ],
      );
      for (const m of body.members) assert.ok(!Number.isNaN(Date.parse(m.since)), m.since);
    });

    it('shows the pending transfer: what, where, who proposed it, 1 of 2 approvals, expiring 24 h after the proposal', async () => {
      const [pending, ...others] = (await entityCase()).pendingApprovals;
      assert.deepEqual(others, []);
      assert.deepEqual(
        { ...pending, createdAt: undefined, expiresAt: undefined, approvals: { ...pending.approvals, received: pending.approvals.received.map((r: { userId: string }) => r.userId) } },
        {
          transactionId: team.transactionId,
          kind: 'transfer',
          chainId: 8453,
          toAddress: team.to.toLowerCase(),
          value: String(team.value),
          proposedByUserId: team.proposer.userId,
          createdAt: undefined,
          expiresAt: undefined,
          approvals: { required: 2, received: [team.proposer.userId] },
        },
      );
      assert.equal(Date.parse(pending.expiresAt) - Date.parse(pending.createdAt), DAY_MS);
    });

    it('a withdrawal proposal expires with its quote', async () => {
      const bank = await post(server, acme, '/v1/submit/create-bank-account', { accountId: team.account.accountId, currency: 'USD', accountHolderName: 'Acme Robotics Inc', us: { accountNumber: '55500011', routingNumber: '021000021', accountType: 'checking' } });
      assert.equal(bank.body.status, 'verified', bank.text);
      const withdrawal = await post(server, acme, '/v1/submit/create-withdrawal', { accountId: team.account.accountId, bankAccountId: bank.body.bankAccountId, chainId: 8453, amount: '1.00', currency: 'USD' });
      assert.equal(withdrawal.status, 201, withdrawal.text);
      const before = await entityCase();
      assert.equal(before.pendingApprovals.length, 1, 'a quote nobody proposed yet waits for no member');

      const body = signedBody(server, team.account, withdrawal.body.unsignedTransaction);
      const { approver } = team;
      const proposed = await post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: withdrawal.body.transactionId, signedBody: body, actingUserId: approver.userId, webAuthnStamp: approver.passkey.stamp(JSON.stringify(body)) });
      assert.equal(proposed.status, 201, proposed.text);
      const after = (await entityCase()).pendingApprovals;
      assert.deepEqual(after.map((p: { transactionId: string }) => p.transactionId), [team.transactionId, withdrawal.body.transactionId]);
      assert.equal(after[1].kind, 'withdrawal');
      assert.equal(after[1].proposedByUserId, approver.userId);
      assert.equal(after[1].expiresAt, withdrawal.body.withdrawal.quoteExpiresAt);
      assert.equal(after[1].value, withdrawal.body.withdrawal.cryptoAmountWei);
    });

    it('a transfer reaching its quorum leaves the list; nothing else about the case changes', async () => {
      const before = await entityCase();
      const approved = await approveAs(server, acme, team.account, team.approver, team.transactionId);
      assert.deepEqual([approved.status, approved.body.status], [200, 'processing'], approved.text);
      const after = await entityCase();
      assert.deepEqual(after.pendingApprovals.map((p: { transactionId: string }) => p.transactionId).includes(team.transactionId), false);
      assert.deepEqual({ ...after, pendingApprovals: undefined }, { ...before, pendingApprovals: undefined });
    });

    it('an entity without members shows empty lists and the default policy; a user’s case has none of these fields', async () => {
      const entity = await post(server, acme, '/v1/submit/create-entity-account', { entityInfo: companyInfo(), entityDocuments: entityDocs(), serviceTermsSignedAt: signedAt() });
      assert.equal(entity.status, 201, entity.text);
      const details = await acme.client.get(`/v1/query/get-account-details?accountId=${entity.body.accountId}`);
      const empty = await entityCase(details.body.entityId);
      assert.deepEqual([empty.requiredApprovals, empty.members, empty.pendingApprovals], [1, [], []]);

      const customer = await createCustomer(server, acme);
      const userCase = await adminRequest(server, 'GET', `/admin/api/reviews/user/${customer.userId}`, { token });
      assert.equal(userCase.status, 200, userCase.text);
      for (const field of ['members', 'pendingApprovals', 'requiredApprovals']) assert.equal(field in userCase.body, false, field);
    });
  });
}
