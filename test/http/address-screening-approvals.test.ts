import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { encodeFunctionData, erc20Abi, getAddress, serializeTransaction, type Address, type Hex } from 'viem';
import { otpApprovalTokens, transactions, usedStampChallenges } from '../../src/db/schema/index.js';
import { registerVault } from '../../src/domain/vaults/vault-admin.js';
import type { Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, recipient, settled, signedBody, type Customer } from '../harness/customers.js';
import { namedMember } from '../harness/entity-team.js';
import { signedAt } from '../harness/fixtures.js';
import { erc20Read, heldDeposit, nonceOf, recordedHits, relist, writeAddressList } from '../harness/listed-addresses.js';
import { asMember, post, teamAccount } from '../harness/members.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenantsWithToken, type TestToken } from '../harness/tokens.js';
import { deployVault, type DeployedVault } from '../harness/vaults.js';

// Issue 51, item 1 (docs/screening.md#wallet-addresses), the paths other than a customer's new call: an OTP approval,
// a prepared vault call, the member approval that completes an entity's quorum, and a deposit's payout in a token.
// Each refusal leaves its approval good: once the address is off the list, the very same request goes through.

const LISTED = getAddress('0x' + '7a'.repeat(19) + '11');
const UNIT = 1_000_000n;
const approveCall = (spender: string, amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender as Address, amount] });
const unsignedCall = (nonce: number, to: string, data: Hex) =>
  serializeTransaction({ chainId: 8453, type: 'eip1559', nonce, to: to as Address, value: 0n, data, gas: 200_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n });

for (const backend of backends()) {
  describe(`approvals of calls to listed addresses, on anvil [${backend}]`, () => {
    const listDir = mkdtempSync(join(tmpdir(), 'iapi-sdn-'));
    let server: TestServer;
    let chain: Anvil;
    let acme: SeededIntegrator;
    let usdc: TestToken;
    let demo: DeployedVault;
    let alice: Customer;

    before(async () => {
      writeAddressList(listDir, [LISTED]);
      ({ server, chain, tenants: [acme], token: usdc } = await startTenantsWithToken(backend, 8453, ['Acme'], { SCREENING_LISTS: `TEST-SDN=${listDir}`, INCOMING_POLL_MS: '60000' }));
      alice = await createCustomer(server, acme);
      await chain.setBalance(alice.walletAddress, ETH);
    });
    after(async () => {
      await server?.close();
      rmSync(listDir, { recursive: true, force: true });
    });

    const usedStamps = async () => (await server.database.db.select().from(usedStampChallenges)).length;
    const rowsOf = (transactionId: string) => server.database.db.select().from(transactions).where(eq(transactions.transactionId, transactionId));
    const refused = (res: { status: number; body: any; text: string }, role: string) => {
      assert.deepEqual([res.status, res.body.code], [403, 'sanctioned_address'], res.text);
      assert.ok(res.body.detail.startsWith(`The ${role} `), res.body.detail);
    };

    it('by OTP: approve to a listed spender is refused, the approval token unused; off the list, the same request is mined', async () => {
      const spender = recipient();
      await relist(server, listDir, [LISTED, spender]);
      server.clock.advance(31_000);
      assert.equal((await acme.client.post('/v1/otp/init', { userId: alice.userId, channel: 'email' })).status, 201);
      const box = await acme.client.get(`/v1/sandbox/otp-outbox?userId=${alice.userId}`);
      const verified = await acme.client.post('/v1/otp/verify', { userId: alice.userId, code: box.body.data[0].code });
      assert.equal(verified.status, 200, verified.text);
      const request = { transactionId: randomUUID(), signedBody: signedBody(server, alice, unsignedCall(0, usdc.address, approveCall(spender, 5n * UNIT))), approvalToken: verified.body.approvalToken };
      refused(await post(server, acme, '/v1/submit/send-transaction-otp?chain_id=8453', request), 'spender of approve');
      assert.deepEqual(await rowsOf(request.transactionId), []);
      assert.deepEqual((await recordedHits(server)).map((h) => [h.activity, h.accountId, h.address.toLowerCase()]), [['transfer', alice.accountId, spender.toLowerCase()]]);
      assert.deepEqual((await server.database.db.select().from(otpApprovalTokens).where(eq(otpApprovalTokens.userId, alice.userId))).map((t) => t.usedAt), [null]);
      assert.equal(await nonceOf(chain, alice.walletAddress), 0);
      assert.equal(await erc20Read(chain, usdc.address, 'allowance', [alice.walletAddress, spender]), 0n);

      await relist(server, listDir, [LISTED]);
      const sent = await post(server, acme, '/v1/submit/send-transaction-otp?chain_id=8453', request);
      assert.equal(sent.status, 201, sent.text);
      assert.equal((await settled(acme, request.transactionId)).status, 'completed');
      assert.equal(await erc20Read(chain, usdc.address, 'allowance', [alice.walletAddress, spender]), 5n * UNIT);
    });

    it('a prepared vault deposit approved once the vault is listed: refused, still waiting, unsigned; off the list, the same approval is mined', async () => {
      demo = await deployVault(chain);
      const { vaultId } = await registerVault(server.database.db, server.chains, { chainId: 8453, address: demo.vault }, server.clock.now());
      await demo.mint(alice.walletAddress as Address, 100n * UNIT);
      assert.equal((await post(server, acme, '/v1/submit/enable-product', { accountId: alice.accountId, productId: 'yield_vaults', termsAcceptedAt: signedAt() })).status, 200);
      const prepared = await post(server, acme, '/v1/submit/prepare-vault-deposit', { accountId: alice.accountId, vaultId, amount: '10' });
      assert.equal(prepared.status, 200, prepared.text);
      const [approveStep] = prepared.body.transactions as { transactionId: string; unsignedTransaction: string; vault: { call: string } }[];
      assert.equal(approveStep!.vault.call, 'approve');
      await relist(server, listDir, [LISTED, demo.vault]);
      const [nonce, stamps] = [await nonceOf(chain, alice.walletAddress), await usedStamps()];
      const body = signedBody(server, alice, approveStep!.unsignedTransaction);
      const request = { transactionId: approveStep!.transactionId, signedBody: body, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body)) };
      refused(await post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', request), 'spender of approve');
      const [row] = await rowsOf(approveStep!.transactionId);
      assert.deepEqual([row!.status, row!.signedRaw, row!.transactionHash], ['created', null, null]);
      assert.deepEqual([await nonceOf(chain, alice.walletAddress), await usedStamps()], [nonce, stamps]);
      assert.equal(await erc20Read(chain, demo.token, 'allowance', [alice.walletAddress, demo.vault]), 0n);
      const [hit] = (await recordedHits(server)).filter((h) => h.transactionRowId === row!.id);
      assert.equal(hit?.address.toLowerCase(), demo.vault.toLowerCase());

      await relist(server, listDir, [LISTED]);
      const sent = await post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', request);
      assert.equal(sent.status, 201, sent.text);
      assert.equal((await settled(acme, request.transactionId)).status, 'completed');
      assert.equal(await erc20Read(chain, demo.token, 'allowance', [alice.walletAddress, demo.vault]), 10n * UNIT);
    });

    it('an entity: a member’s proposal of an allowance to a listed spender, and each approval of one listed since, the quorum’s included: refused, the proposal waits; off the list, the same approval counts', async () => {
      const account = await teamAccount(server, acme);
      const [proposer, second, third] = [await namedMember(server, acme, account, 'approver', 'Jonas', 'Weber'), await namedMember(server, acme, account, 'approver', 'Lena', 'Fischer'), await namedMember(server, acme, account, 'approver', 'Tom', 'Becker')];
      const policy = await post(server, acme, '/v1/submit/update-approval-policy', asMember(server, account, account.owner, 'update-approval-policy', { accountId: account.accountId, requiredApprovals: 3 }));
      assert.equal(policy.status, 200, policy.text);
      await chain.setBalance(account.walletAddress, ETH);
      const propose = (spender: string) => {
        const body = signedBody(server, account, unsignedCall(0, usdc.address, approveCall(spender, 5n * UNIT)));
        const request = { transactionId: randomUUID(), signedBody: body, actingUserId: proposer.userId, webAuthnStamp: proposer.passkey.stamp(JSON.stringify(body)) };
        return post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', request).then((res) => ({ request, res }));
      };
      // A member's proposal is screened as a customer's transfer is: refused, nothing recorded but the hit.
      const listedProposal = await propose(LISTED);
      refused(listedProposal.res, 'spender of approve');
      assert.deepEqual(await rowsOf(listedProposal.request.transactionId), []);
      const spender = recipient();
      const { res: proposed } = await propose(spender);
      assert.deepEqual([proposed.status, proposed.body.status], [201, 'created'], proposed.text);
      const { transactionId } = proposed.body;
      const [row] = await rowsOf(transactionId);

      // The second approval (2 of 3), then the third, which would sign it: each refused while the spender is listed.
      for (const [member, approvals] of [[second, 1], [third, 2]] as const) {
        await relist(server, listDir, [LISTED, spender]);
        const [stamps, hits] = [await usedStamps(), (await recordedHits(server)).length];
        const request = asMember(server, account, member, 'approve-transaction', { transactionId });
        refused(await post(server, acme, '/v1/submit/approve-transaction', request), 'spender of approve');
        const waiting = await acme.client.get(`/v1/query/get-transaction?transactionId=${transactionId}`);
        assert.deepEqual([waiting.body.status, waiting.body.approvals.received.length], ['created', approvals]);
        assert.equal(await usedStamps(), stamps, 'the member’s stamp is not used up');
        assert.equal(await nonceOf(chain, account.walletAddress), 0);
        assert.equal(await erc20Read(chain, usdc.address, 'allowance', [account.walletAddress, spender]), 0n);
        assert.deepEqual(
          (await recordedHits(server)).slice(hits).map((h) => [h.activity, h.transactionRowId, h.address.toLowerCase()]),
          [['transfer', row!.id, spender.toLowerCase()]],
        );
        await relist(server, listDir, [LISTED]);
        const counted = await post(server, acme, '/v1/submit/approve-transaction', request);
        assert.equal(counted.status, 200, counted.text);
      }
      assert.equal((await settled(acme, transactionId)).status, 'completed');
      assert.equal(await erc20Read(chain, usdc.address, 'allowance', [account.walletAddress, spender]), 5n * UNIT);
    });

    it('a deposit paid out in USDC to a listed wallet: its transfer is never signed; the treasury’s nonce and balance unchanged', async () => {
      const treasury = server.treasury!.address;
      await chain.setBalance(treasury, 10n * ETH);
      await usdc.mint(treasury, 100n * UNIT);
      const self = await createCustomer(server, acme, { email: `listed.${randomUUID()}@example.com`, walletAddress: LISTED });
      const [nonce, held] = [await nonceOf(chain, treasury), await usdc.balanceOf(treasury)];
      await heldDeposit(server, acme, self.accountId, LISTED, { asset: 'usdc' });
      server.clock.advance(10 * 60_000);
      await server.watcher!.nextRound();
      assert.deepEqual([await nonceOf(chain, treasury), await usdc.balanceOf(treasury), await usdc.balanceOf(LISTED)], [nonce, held, 0n]);
      const payouts = (await recordedHits(server)).filter((h) => h.activity === 'deposit_payout');
      assert.deepEqual(payouts.map((h) => [h.accountId, h.address.toLowerCase()]), [[self.accountId, LISTED.toLowerCase()]]);
    });
  });
}
