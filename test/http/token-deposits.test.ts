import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getAddress, keccak256, type Hex } from 'viem';
import { createOperator } from '../../src/domain/operators/operators.js';
import { adminRequest } from '../harness/admin.js';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, type Customer } from '../harness/customers.js';
import { eventually } from '../harness/eventually.js';
import { startRpcProxy, type RpcProxy } from '../harness/rpc-proxy.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';
import { deployTestToken, type TestToken } from '../harness/tokens.js';
import type { TransactionView } from '../harness/types.js';

// Deposits paid out in a listed token (docs/tokens.md#deposits-and-withdrawals): the harness's USDC (6 decimals, compiled
// from contracts/DemoToken.sol), the server's node behind a proxy so a payout's send can be cut off after its signing.

const USDC = 10n ** 6n;

for (const backend of backends()) {
  describe(`deposits in a token: asset, rate, a transfer from the treasury paid once [${backend}]`, () => {
    let chain: Anvil;
    let proxy: RpcProxy;
    let token: TestToken;
    let server: TestServer;
    let acme: SeededIntegrator;
    let alice: Customer;
    let operatorToken: string;

    before(async () => {
      chain = await startAnvil(31337);
      token = await deployTestToken(chain);
      proxy = await startRpcProxy(chain.url);
      ({ server, tenants: [acme] } = await startTenants(backend, ['Acme'], { CHAIN_RPC_URLS: `31337=${proxy.url}`, TOKENS: `31337:USDC:${token.address}` }));
      alice = await createCustomer(server, acme);
      await chain.setBalance(server.treasury!.address, 10n * ETH);
      await token.mint(server.treasury!.address, 1_000n * USDC);
      operatorToken = (await createOperator(server.database, 'treasury desk', server.clock.now())).token;
    });
    after(async () => {
      await server?.close();
      await proxy?.close();
      await chain?.stop();
    });

    const post = (path: string, body: unknown) => {
      server.clock.advance(1000);
      return acme.client.post(path, body);
    };
    const deposit = (body: Record<string, unknown> = {}) => post('/v1/submit/create-deposit', { accountId: alice.accountId, amount: '250.00', currency: 'USD', chainId: 31337, asset: 'usdc', ...body });
    const read = async (transactionId: string): Promise<TransactionView> => (await acme.client.get(`/v1/query/get-transaction?transactionId=${transactionId}`)).body;
    const until = (transactionId: string, ok: (t: TransactionView) => boolean, what: string) =>
      eventually(() => read(transactionId), ok, what, 15_000);
    const treasuryNonce = async () => Number(BigInt(await chain.rpc<string>('eth_getTransactionCount', [server.treasury!.address, 'latest'])));

    it('asset in any case: the deposit shows USDC, its amount in USDC and base units, and the 1:1 sandbox rate', async () => {
      const res = await deposit();
      assert.equal(res.status, 201, res.text);
      const { reference, expiresAt } = res.body.deposit;
      assert.deepEqual(res.body.deposit, { amount: '250.00', currency: 'USD', reference, receivedAmount: null, expiresAt, asset: 'USDC', cryptoAmount: '250', cryptoAmountRaw: String(250n * USDC), rate: '1' });
      const native = await deposit({ asset: undefined, amount: '1.00' });
      assert.equal(native.status, 201, native.text);
      assert.deepEqual([native.body.deposit.asset, native.body.deposit.cryptoAmountWei, native.body.deposit.cryptoAmountRaw, native.body.deposit.rate], ['ETH', String(10n ** 12n), String(10n ** 12n), undefined]);
    });

    it('an unknown asset is a 400 naming /asset and what is listed; a currency without a rate for it is 422 not_offered naming /asset, not a 503 to retry', async () => {
      const unknown = await deposit({ asset: 'DOGE' });
      assert.equal(unknown.status, 400, unknown.text);
      assert.equal(unknown.body.errors[0].pointer, '/asset');
      assert.equal(unknown.body.errors[0].code, 'unknown_asset');
      assert.match(unknown.body.errors[0].detail, /listed: USDC/);
      const malformed = await deposit({ asset: '$$' });
      assert.deepEqual([malformed.status, malformed.body.errors?.[0]?.pointer], [400, '/asset'], malformed.text);
      const eur = await deposit({ currency: 'EUR' });
      assert.deepEqual([eur.status, eur.body.code, eur.headers.get('retry-after')], [422, 'not_offered', null], eur.text);
      assert.deepEqual(eur.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code]), [['/asset', 'no_rate']]);
      assert.equal(eur.body.detail, 'Deposits of EUR in USDC are not offered on this deployment: DEPOSIT_TOKEN_RATES has no rate for EUR:USDC');
    });

    it('funded: the treasury transfers exactly what arrived in USDC to the wallet, once, and the deposit completes', async () => {
      const created = (await deposit({ amount: '12.34' })).body;
      const [walletBefore, treasuryBefore, nonceBefore] = [await token.balanceOf(alice.walletAddress), await token.balanceOf(server.treasury!.address), await treasuryNonce()];
      const funded = await post('/v1/sandbox/simulate-deposit', { transactionId: created.transactionId, amount: '12.30' });
      assert.equal(funded.status, 200, funded.text);
      assert.deepEqual([funded.body.deposit.cryptoAmount, funded.body.deposit.cryptoAmountRaw], ['12.3', String(12_300_000n)], 'what arrived, at the rate quoted');
      const done = await until(created.transactionId, (t) => t.status === 'completed' || t.status === 'failed', 'the token payout');
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.equal(done.transactionReceipt!.to.toLowerCase(), token.address.toLowerCase(), 'a call to the token');
      assert.equal((await token.balanceOf(alice.walletAddress)) - walletBefore, 12_300_000n);
      assert.equal(treasuryBefore - (await token.balanceOf(server.treasury!.address)), 12_300_000n);
      assert.equal(await treasuryNonce(), nonceBefore + 1, 'one transaction from the treasury');
      // The payout is the deposit's; the incoming watcher does not report it again (docs/incoming.md#what-is-seen).
      await server.incoming!.runOnce();
      const listed = await acme.client.get(`/v1/query/list-transactions?accountId=${alice.accountId}&limit=100`);
      assert.deepEqual(listed.body.data.filter((t: TransactionView) => t.transactionHash === done.transactionHash).map((t: TransactionView) => t.kind), ['deposit']);
    });

    it('a send cut off after the payout was signed is retried with the same signed transfer, and pays once', async () => {
      const created = (await deposit({ amount: '5.00' })).body;
      const [walletBefore, nonceBefore] = [await token.balanceOf(alice.walletAddress), await treasuryNonce()];
      proxy.mode = 'hold';
      try {
        assert.equal((await post('/v1/sandbox/simulate-deposit', { transactionId: created.transactionId, amount: '5.00' })).status, 200);
        await proxy.held();
        // The node never answers this send: the watcher keeps the signed payout and tries it again.
        proxy.abortHeld();
        await until(created.transactionId, (t) => t.deposit?.payoutError !== undefined, 'the failed send recorded');
      } finally {
        proxy.mode = 'pass';
      }
      const signed = proxy.heldRaw.at(-1) as Hex;
      server.clock.advance(10_000);
      server.watcher?.kick();
      const done = await until(created.transactionId, (t) => t.status === 'completed', 'the payout sent again');
      assert.equal(done.transactionHash, keccak256(signed), 'the transfer signed before the cut, not a second one');
      assert.equal((await token.balanceOf(alice.walletAddress)) - walletBefore, 5n * USDC, 'paid once');
      assert.equal(await treasuryNonce(), nonceBefore + 1);
    });

    it('a treasury short of USDC: the payout waits, unsigned, and /admin/api/treasury says why; funded, it is paid once', async () => {
      const bob = await createCustomer(server, acme);
      const held = await token.balanceOf(server.treasury!.address);
      const created = (await post('/v1/submit/create-deposit', { accountId: bob.accountId, amount: '2000.00', currency: 'USD', chainId: 31337, asset: 'USDC' })).body;
      const nonceBefore = await treasuryNonce();
      assert.equal((await post('/v1/sandbox/simulate-deposit', { transactionId: created.transactionId, amount: '2000.00' })).status, 200);
      const waiting = await until(created.transactionId, (t) => t.deposit?.payoutError !== undefined, 'a payout attempt refused for want of USDC');
      assert.equal(waiting.status, 'funds_in_transfer');
      assert.match(waiting.deposit!.payoutError!, /^insufficient_funds: .*holds [0-9.]+ USDC.*needs 2000 USDC/);
      assert.equal(await treasuryNonce(), nonceBefore, 'nothing signed or sent');

      const shown = await adminRequest(server, 'GET', '/admin/api/treasury', { token: operatorToken });
      assert.equal(shown.status, 200, shown.text);
      assert.equal(shown.body.address, server.treasury!.address);
      const usdc = shown.body.balances.find((b: { symbol: string }) => b.symbol === 'USDC');
      assert.deepEqual(usdc, { chainId: 31337, symbol: 'USDC', tokenAddress: getAddress(token.address), decimals: 6, amount: (Number(held) / 1e6).toString(), amountRaw: held.toString() });
      const eth = shown.body.balances.find((b: { symbol: string }) => b.symbol === 'ETH');
      assert.deepEqual([eth.tokenAddress, eth.decimals, BigInt(eth.amountRaw) > 0n], [null, 18, true]);
      const listed = shown.body.waitingPayouts.find((p: { transactionId: string }) => p.transactionId === created.transactionId);
      assert.ok(listed, shown.text);
      assert.deepEqual([listed.kind, listed.asset, listed.cryptoAmount, listed.reference], ['deposit', 'USDC', '2000', created.deposit.reference]);
      assert.match(listed.payoutError, /insufficient_funds/);

      const walletBefore = await token.balanceOf(bob.walletAddress);
      await token.mint(server.treasury!.address, 2_000n * USDC);
      server.clock.advance(10_000);
      server.watcher?.kick();
      const done = await until(created.transactionId, (t) => t.status === 'completed', 'the payout once the treasury was funded');
      assert.equal(done.deposit!.payoutError, undefined);
      assert.equal((await token.balanceOf(bob.walletAddress)) - walletBefore, 2_000n * USDC);
      assert.equal(await treasuryNonce(), nonceBefore + 1, 'paid once');
      const after = await adminRequest(server, 'GET', '/admin/api/treasury', { token: operatorToken });
      assert.ok(!after.body.waitingPayouts.some((p: { transactionId: string }) => p.transactionId === created.transactionId), 'no longer waiting');
    });
  });
}
