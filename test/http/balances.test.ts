import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { getAddress } from 'viem';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { createCustomer, type Customer } from '../harness/customers.js';
import { eventually } from '../harness/eventually.js';
import { californian, signedAt } from '../harness/fixtures.js';
import { startRpcProxy, type RpcProxy } from '../harness/rpc-proxy.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';
import { deployTestToken, type TestToken } from '../harness/tokens.js';

// get-account-balances (docs/tokens.md#balances): the native coin and every listed token, read on a real anvil
// through a proxy that counts the node's round trips: one per chain for a wallet not read yet, none for the same
// wallet again within the block time (chain 8453: 2 s), a 503 with Retry-After when the node does not answer.

interface Balance {
  chainId: number;
  symbol: string;
  tokenAddress: string | null;
  decimals: number;
  amount: string;
  amountRaw: string;
  blockNumber: number;
}

for (const backend of backends()) {
  describe(`get-account-balances [${backend}]`, () => {
    let node: Anvil;
    let proxy: RpcProxy;
    let token: TestToken;
    let server: TestServer;
    let acme: SeededIntegrator;
    let globex: SeededIntegrator;
    let alice: Customer;

    before(async () => {
      node = await startAnvil(8453);
      token = await deployTestToken(node);
      proxy = await startRpcProxy(node.url);
      // The incoming watcher polls the same node: its first round runs here, the next not within the test (the round
      // trips counted below are the balance reads').
      server = await startServer(backend, { CHAIN_RPC_URLS: `8453=${proxy.url}`, TOKENS: `8453:USDC:${token.address}`, INCOMING_POLL_MS: '60000' });
      await server.incoming!.runOnce();
      acme = await server.seedIntegrator('Acme');
      globex = await server.seedIntegrator('Globex');
      alice = await createCustomer(server, acme);
    });
    after(async () => {
      await server?.close();
      await proxy?.close();
      await node?.stop();
    });

    const balancesOf = (accountId: string, who = acme) => who.client.get(`/v1/query/get-account-balances?accountId=${accountId}`);
    const head = async () => Number(await node.rpc<string>('eth_blockNumber'));

    it('the native coin then USDC, before and after money arrives, each figure with the block it was read at', async () => {
      const first = await balancesOf(alice.accountId);
      assert.equal(first.status, 200, first.text);
      const at = first.body.balances[0].blockNumber as number;
      assert.ok(at <= (await head()) && at >= 0);
      assert.deepEqual(first.body, {
        accountId: alice.accountId,
        walletAddress: alice.walletAddress,
        balances: [
          // The ledger's figures beside the chain's (docs/ledger.md): nothing posted yet.
          { chainId: 8453, symbol: 'ETH', tokenAddress: null, decimals: 18, amount: '0', amountRaw: '0', blockNumber: at, ledger: null },
          { chainId: 8453, symbol: 'USDC', tokenAddress: getAddress(token.address), decimals: 6, amount: '0', amountRaw: '0', blockNumber: at, ledger: null },
        ],
      });

      await node.setBalance(alice.walletAddress, 1_500_000_000_000_000_000n);
      await token.mint(alice.walletAddress, 12_500_000n);
      const minted = await head();
      // Within the chain's block time the figure read before is current; after it, the new block's is read.
      const later = await eventually(
        () => balancesOf(alice.accountId),
        (res) => res.status === 200 && (res.body.balances as Balance[]).every((b) => b.blockNumber >= minted),
        'the balances of the block the mint was in',
        5_000,
      );
      assert.deepEqual(
        (later.body.balances as Balance[]).map((b) => [b.symbol, b.amount, b.amountRaw]),
        [
          ['ETH', '1.5', '1500000000000000000'],
          ['USDC', '12.5', '12500000'],
        ],
      );
      assert.equal(new Set((later.body.balances as Balance[]).map((b) => b.blockNumber)).size, 1, 'one block per chain');
      assert.equal(await token.balanceOf(alice.walletAddress), 12_500_000n);
    });

    it('one round trip to the node for a wallet not read yet, whatever the number of tokens; none for it again in the block', async () => {
      const bob = await createCustomer(server, acme);
      const before = proxy.requests;
      const calls = proxy.calls.length;
      const first = await balancesOf(bob.accountId);
      assert.equal(first.status, 200, first.text);
      assert.equal(proxy.requests - before, 1, 'one HTTP request to the node');
      assert.deepEqual(
        proxy.calls.slice(calls).map((c) => c.method),
        ['eth_call'],
        'one call reads the native coin and every token, at one block',
      );
      const again = await balancesOf(bob.accountId);
      assert.deepEqual(again.body, first.body);
      assert.equal(proxy.requests - before, 1, 'served from memory');
    });

    it("another integrator's account or a missing one: 404; an account without a wallet: 409", async () => {
      const foreign = await balancesOf(alice.accountId, globex);
      const missing = await balancesOf(randomUUID(), globex);
      assert.deepEqual([foreign.status, foreign.body.code], [404, 'not_found'], foreign.text);
      assert.deepEqual({ ...foreign.body, requestId: 0 }, { ...missing.body, requestId: 0 });
      const walletless = await acme.client.post('/v1/submit/create-user', {
        userInfo: californian({ email: `walletless.${randomUUID()}@example.com` }),
        serviceTermsSignedAt: signedAt(),
        partnerSignedAgreementId: 'agreement-1',
      });
      assert.equal(walletless.status, 201, walletless.text);
      const refused = await balancesOf(walletless.body.accountId);
      assert.deepEqual([refused.status, refused.body.code], [409, 'account_without_wallet'], refused.text);
      const bad = await balancesOf('nope');
      assert.deepEqual([bad.status, bad.body.errors?.[0]?.pointer], [400, '/accountId'], bad.text);
    });

    it('a node that does not answer: 503 with Retry-After, never the figure read before it went down; read again once back', async () => {
      const carol = await createCustomer(server, acme);
      proxy.down = true;
      try {
        const fresh = await balancesOf(carol.accountId);
        assert.deepEqual([fresh.status, fresh.body.code, fresh.headers.get('retry-after')], [503, 'service_unavailable', '2'], fresh.text);
        assert.match(fresh.body.detail, /chain 8453/);
        // Alice's figures were read before: served while current (1.5 block times at most), then a 503.
        const refused = await eventually(() => balancesOf(alice.accountId), (res) => res.status !== 200, 'the cached figure to stop being current', 5_000);
        assert.deepEqual([refused.status, refused.headers.get('retry-after')], [503, '2'], refused.text);
      } finally {
        proxy.down = false;
      }
      const back = await balancesOf(carol.accountId);
      assert.equal(back.status, 200, back.text);
    });
  });
}
