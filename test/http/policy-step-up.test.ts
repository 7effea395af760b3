import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Address } from 'viem';
import { encodeTransfer } from '../../src/chain/erc20.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, recipient, signedBody, unsignedCall, unsignedTransfer } from '../harness/customers.js';
import { asMember, post, seatMember, teamAccount, type TeamAccount } from '../harness/members.js';
import { useTenantsWithToken } from '../harness/tokens.js';

/*
 * require_approvals (docs/policies.md#step-up), on anvil: above its amount an entity's transaction waits in created
 * with approvals.required showing the step-up, and is signed only at that many approvals; at the amount itself the
 * account's quorum stands; a policy created after the proposal raises it at the next approval; an individual
 * account keeps its single approval under an integrator-wide step-up.
 */
const CHAIN = 8453;
const MILLI = 10n ** 15n;
const USDC = 1_000_000n;

for (const backend of backends()) {
  describe(`spending policies: require_approvals [${backend}]`, () => {
    const { server, chain, tenants: [acme], token } = useTenantsWithToken(backend, CHAIN, ['Acme']);

    const policy = async (rules: unknown[], accountId?: string) => {
      server.clock.advance(1000);
      const res = await acme.client.post('/v1/policies', { ...(accountId ? { accountId } : {}), rules });
      assert.equal(res.status, 201, res.text);
      return res.body.policyId as string;
    };
    const stepUp = (amount: string, approvals: number, asset = 'ETH') => ({ type: 'require_approvals', above: { asset, chainId: CHAIN, amount }, approvals });
    /** A member's proposal of an unsigned transaction from the entity wallet, stamped by their passkey. */
    const propose = (account: TeamAccount, member: { userId: string; passkey: { stamp(s: string): string } }, unsignedTransaction: string) => {
      server.clock.advance(1000);
      const body = signedBody(server, account, unsignedTransaction);
      return post(server, acme, `/v1/submit/send-transaction-passkey?chain_id=${CHAIN}`, { transactionId: randomUUID(), signedBody: body, actingUserId: member.userId, webAuthnStamp: member.passkey.stamp(JSON.stringify(body)) });
    };
    const approve = (account: TeamAccount, member: { userId: string; passkey: { stamp(s: string): string } }, transactionId: string) =>
      post(server, acme, '/v1/submit/approve-transaction', asMember(server, account, member as never, 'approve-transaction', { transactionId, actingUserId: member.userId }));
    const transaction = async (transactionId: string) => (await acme.client.get(`/v1/query/get-transaction?transactionId=${transactionId}`)).body;

    async function team(approvers: number) {
      const account = await teamAccount(server, acme);
      const members = [];
      for (let i = 0; i < approvers; i++) members.push(await seatMember(server, acme, account, 'approver'));
      await chain.setBalance(account.walletAddress, ETH);
      return { account, members };
    }

    it('above the amount a transfer waits for the step-up (approvals.required shows it); at the amount the quorum of one signs it', async () => {
      const { account, members: [a, b] } = await team(2);
      await policy([stepUp('0.001', 2)], account.accountId);
      const atCap = await propose(account, a!, unsignedTransfer(CHAIN, 0, recipient(), MILLI));
      assert.deepEqual([atCap.status, atCap.body.status], [201, 'processing'], atCap.text);
      const above = await propose(account, a!, unsignedTransfer(CHAIN, 1, recipient(), MILLI + 1n));
      assert.deepEqual([above.status, above.body.status, above.body.approvals.required], [201, 'created', 2], above.text);
      assert.deepEqual(above.body.approvals.received.map((r: { userId: string }) => r.userId), [a!.userId]);
      const record = await transaction(above.body.transactionId);
      assert.deepEqual([record.status, record.approvals.required, record.transactionHash], ['created', 2, null]);
      const signed = await approve(account, b!, above.body.transactionId);
      assert.deepEqual([signed.status, signed.body.status, signed.body.approvals.required], [200, 'processing', 2], signed.text);
    });

    it('a token transfer above a USDC step-up waits; the larger of the step-up and the account’s quorum applies', async () => {
      const { account, members: [a, b, c] } = await team(3);
      const three = await post(server, acme, '/v1/submit/update-approval-policy', asMember(server, account, account.owner, 'update-approval-policy', { accountId: account.accountId, requiredApprovals: 3 }));
      assert.equal(three.status, 200, three.text);
      await token.mint(account.walletAddress, 1_000n * USDC);
      await policy([stepUp('100', 2, 'USDC')], account.accountId);
      const usdc = unsignedCall(CHAIN, 0, token.address, encodeTransfer(recipient() as Address, 101n * USDC));
      const proposal = await propose(account, a!, usdc);
      // A policy never lowers a quorum: 3 (the account's) stands over 2 (the step-up).
      assert.deepEqual([proposal.status, proposal.body.status, proposal.body.approvals.required], [201, 'created', 3], proposal.text);
      const second = await approve(account, b!, proposal.body.transactionId);
      assert.deepEqual([second.body.status, second.body.approvals.required], ['created', 3], second.text);
      const third = await approve(account, c!, proposal.body.transactionId);
      assert.deepEqual([third.status, third.body.status], [200, 'processing'], third.text);
    });

    it('a policy created after the proposal raises its quorum at the next approval', async () => {
      const { account, members: [a, b, c] } = await team(3);
      const two = await post(server, acme, '/v1/submit/update-approval-policy', asMember(server, account, account.owner, 'update-approval-policy', { accountId: account.accountId, requiredApprovals: 2 }));
      assert.equal(two.status, 200, two.text);
      const proposal = await propose(account, a!, unsignedTransfer(CHAIN, 0, recipient(), 2n * MILLI));
      assert.deepEqual([proposal.body.status, proposal.body.approvals.required], ['created', 2], proposal.text);
      // Integrator-wide: it covers the entity's account too.
      await policy([stepUp('0.001', 3)]);
      const second = await approve(account, b!, proposal.body.transactionId);
      assert.deepEqual([second.status, second.body.status, second.body.approvals.required], [200, 'created', 3], second.text);
      assert.equal((await transaction(proposal.body.transactionId)).transactionHash, null, 'nothing was signed at the old quorum');
      const third = await approve(account, c!, proposal.body.transactionId);
      assert.deepEqual([third.status, third.body.status], [200, 'processing'], third.text);
    });

    it('an individual account keeps its single approval under an integrator-wide step-up; one above 1 on it is refused', async () => {
      await policy([stepUp('0', 5)]);
      const who = await createCustomer(server, acme);
      await chain.setBalance(who.walletAddress, ETH);
      const body = signedBody(server, who, unsignedTransfer(CHAIN, 0, recipient(), MILLI));
      const sent = await post(server, acme, `/v1/submit/send-transaction-passkey?chain_id=${CHAIN}`, { transactionId: randomUUID(), signedBody: body, webAuthnStamp: who.passkey.stamp(JSON.stringify(body)) });
      assert.deepEqual([sent.status, sent.body.status], [201, 'processing'], sent.text);
      server.clock.advance(1000);
      const refused = await acme.client.post('/v1/policies', { accountId: who.accountId, rules: [stepUp('1', 2)] });
      assert.equal(refused.status, 400, refused.text);
      assert.deepEqual(refused.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code]), [['/rules/0/approvals', 'individual_account']]);
    });
  });
}
