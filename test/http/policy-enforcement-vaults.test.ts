import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encodeFunctionData, erc20Abi, type Address } from 'viem';
import { registerVault } from '../../src/domain/vaults/vault-admin.js';
import type { Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, recipient, settled, signedBody, type Customer } from '../harness/customers.js';
import { signedAt } from '../harness/fixtures.js';
import { post } from '../harness/members.js';
import { assertPolicyDenied, createPolicy } from '../harness/policy-denials.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenantsOnChain } from '../harness/tenants.js';
import { deployVault, type DeployedVault } from '../harness/vaults.js';

/*
 * A vault call's approval judged by the spending policies (docs/policies.md#enforcement): the prepared transaction,
 * approved under its own transactionId, is refused (created -> failed, policy_denied, nothing signed or sent) when its
 * approve step grants the vault an allowance past a cap or to a spender not allowed; allowed, it goes, and the deposit
 * after it is not counted again (its asset moves under the allowance, which counted when granted). The vault's asset
 * (dUSD) is listed in TOKENS, so a cap can name it.
 */
const CHAIN = 8453;
const USD = 10n ** 6n;

interface PreparedCall {
  transactionId: string;
  unsignedTransaction: string;
  vault: { call: string };
}

for (const backend of backends()) {
  describe(`spending policies on a vault call’s approval [${backend}]`, () => {
    let server: TestServer;
    let chain: Anvil;
    let acme: SeededIntegrator;
    let demo: DeployedVault;
    let vaultId: string;

    before(async () => {
      let deployed: DeployedVault | undefined;
      ({ server, chain, tenants: [acme] } = await startTenantsOnChain(backend, CHAIN, ['Acme'], {}, async (c) => {
        deployed = await deployVault(c);
        return { TOKENS: `${CHAIN}:dUSD:${deployed.token}` };
      }));
      demo = deployed!;
      vaultId = (await registerVault(server.database.db, server.chains, { chainId: CHAIN, address: demo.vault }, server.clock.now())).vaultId;
    });
    after(() => server?.close());

    /** A customer with gas, 1000 dUSD and the yield_vaults product. */
    async function vaultCustomer(): Promise<Customer> {
      const who = await createCustomer(server, acme);
      await chain.setBalance(who.walletAddress, ETH);
      await demo.mint(who.walletAddress as Address, 1000n * USD);
      const enabled = await post(server, acme, '/v1/submit/enable-product', { accountId: who.accountId, productId: 'yield_vaults', termsAcceptedAt: signedAt() });
      assert.equal(enabled.status, 200, enabled.text);
      return who;
    }
    const prepare = async (path: 'prepare-vault-deposit' | 'prepare-vault-withdrawal', who: Customer, amount: string): Promise<PreparedCall[]> => {
      const res = await post(server, acme, `/v1/submit/${path}`, { accountId: who.accountId, vaultId, amount });
      assert.equal(res.status, 200, res.text);
      return res.body.transactions;
    };
    /** The customer approves a prepared transaction with their passkey, under its own transactionId. */
    const approve = (who: Customer, tx: PreparedCall) => {
      const body = signedBody(server, who, tx.unsignedTransaction);
      return post(server, acme, `/v1/submit/send-transaction-passkey?chain_id=${CHAIN}`, { transactionId: tx.transactionId, signedBody: body, webAuthnStamp: who.passkey.stamp(JSON.stringify(body)) });
    };
    const approveAndSettle = async (who: Customer, tx: PreparedCall) => {
      const res = await approve(who, tx);
      assert.deepEqual([res.status, res.body.status], [201, 'processing'], res.text);
      await server.watcher!.nextRound();
      return settled(acme, tx.transactionId);
    };
    const allowance = async (owner: string) =>
      BigInt(await chain.rpc<string>('eth_call', [{ to: demo.token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'allowance', args: [owner as Address, demo.vault] }) }, 'latest']));
    const nonceOf = async (owner: string) => Number(await chain.rpc<string>('eth_getTransactionCount', [owner, 'pending']));
    const status = async (transactionId: string) => (await acme.client.get(`/v1/query/get-transaction?transactionId=${transactionId}`)).body.status;
    const afterPrepared = ['transaction.created', 'transaction.status.changed', 'transaction.failed'];

    it('allowed_destinations without the vault: the approve step’s approval is refused, created -> failed (policy_denied), nothing signed or sent', async () => {
      const who = await vaultCustomer();
      const policyId = await createPolicy(server, acme, who.accountId, [{ type: 'allowed_destinations', addresses: [recipient()] }]);
      const [approveStep, depositStep] = await prepare('prepare-vault-deposit', who, '100');
      assert.deepEqual([approveStep!.vault.call, depositStep!.vault.call], ['approve', 'deposit']);
      assert.equal(await status(approveStep!.transactionId), 'created');
      const nonce = await nonceOf(who.walletAddress);

      const denied = await approve(who, approveStep!);
      await assertPolicyDenied(server, acme, denied, { policyId, ruleType: 'allowed_destinations', transactionId: approveStep!.transactionId, lastEvents: afterPrepared });
      assert.match(denied.body.detail, new RegExp(demo.vault.slice(2, 10), 'i'), 'the vault, spender of the approve, is the destination refused');
      assert.equal(await nonceOf(who.walletAddress), nonce, 'nothing reached the chain');
      assert.equal(await allowance(who.walletAddress), 0n);
      assert.equal(await status(depositStep!.transactionId), 'created', 'the deposit step still waits (its own approval is judged when it comes)');
    });

    it('the same refused approval sent again is answered as that failed transaction (as a new transfer’s is)', async () => {
      const who = await vaultCustomer();
      await createPolicy(server, acme, who.accountId, [{ type: 'allowed_destinations', addresses: [recipient()] }]);
      const [approveStep] = await prepare('prepare-vault-deposit', who, '100');
      const body = signedBody(server, who, approveStep!.unsignedTransaction);
      const request = { transactionId: approveStep!.transactionId, signedBody: body, webAuthnStamp: who.passkey.stamp(JSON.stringify(body)) };
      const path = `/v1/submit/send-transaction-passkey?chain_id=${CHAIN}`;
      assert.equal((await post(server, acme, path, request)).status, 403);
      const again = await post(server, acme, path, request);
      assert.deepEqual([again.status, again.body.transactionId, again.body.status, again.body.failureReason], [200, approveStep!.transactionId, 'failed', 'policy_denied'], again.text);
    });

    it('a policy allowing it: the approve step (the vault listed, within the 24h cap) and the deposit go; the deposit is not counted again; the next approve past the cap is refused', async () => {
      const who = await vaultCustomer();
      const policyId = await createPolicy(server, acme, who.accountId, [
        { type: 'allowed_destinations', addresses: [demo.vault] },
        { type: 'max_amount', asset: 'dUSD', chainId: CHAIN, amount: '100', window: '24h' },
      ]);
      const [approveStep, depositStep] = await prepare('prepare-vault-deposit', who, '100');
      assert.equal((await approveAndSettle(who, approveStep!)).status, 'completed');
      assert.equal(await allowance(who.walletAddress), 100n * USD);
      // Counted again, the deposit would make 200 of a cap of 100.
      const deposited = await approveAndSettle(who, depositStep!);
      assert.equal(deposited.status, 'completed', JSON.stringify(deposited));
      assert.deepEqual(deposited.vault.settled, { assets: '100', shares: '100' });

      const [more] = await prepare('prepare-vault-deposit', who, '1');
      assert.equal(more!.vault.call, 'approve');
      const nonce = await nonceOf(who.walletAddress);
      await assertPolicyDenied(server, acme, await approve(who, more!), { policyId, ruleType: 'max_amount', transactionId: more!.transactionId, lastEvents: afterPrepared });
      assert.equal(await nonceOf(who.walletAddress), nonce, 'nothing reached the chain');
      assert.equal(await allowance(who.walletAddress), 0n);

      // A withdrawal from the vault pays the wallet itself: no outflow, no destination; the full window does not stop it.
      const [withdraw] = await prepare('prepare-vault-withdrawal', who, '20');
      assert.equal(withdraw!.vault.call, 'withdraw');
      assert.equal((await approveAndSettle(who, withdraw!)).status, 'completed');
    });

    it('a cap below the deposit: its approve step is refused, and with the cap met exactly a new preparation goes', async () => {
      const who = await vaultCustomer();
      const policyId = await createPolicy(server, acme, who.accountId, [{ type: 'max_amount', asset: 'dUSD', chainId: CHAIN, amount: '50', window: 'transaction' }]);
      const [tooMuch] = await prepare('prepare-vault-deposit', who, '50.000001');
      await assertPolicyDenied(server, acme, await approve(who, tooMuch!), { policyId, ruleType: 'max_amount', transactionId: tooMuch!.transactionId, lastEvents: afterPrepared });
      const [approveStep, depositStep] = await prepare('prepare-vault-deposit', who, '50');
      assert.equal((await approveAndSettle(who, approveStep!)).status, 'completed');
      assert.equal((await approveAndSettle(who, depositStep!)).status, 'completed');
    });
  });
}
