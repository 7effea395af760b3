import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { decodeFunctionData, encodeFunctionData, erc20Abi, erc4626Abi, getAddress, parseTransaction, type Address, type Hex } from 'viem';
import { registerVault } from '../../src/domain/vaults/vault-admin.js';
import { vaultIdOf } from '../../src/domain/vaults/vault-config.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, settled, signedBody, type Customer } from '../harness/customers.js';
import { eventsFor } from '../harness/db.js';
import { signedAt } from '../harness/fixtures.js';
import { post } from '../harness/members.js';
import { useTenantsOnChain } from '../harness/tenants.js';
import { deployVault, type DeployedVault } from '../harness/vaults.js';

const USD = 10n ** 6n;
const DAY = 86_400_000;

interface Prepared {
  accountId: string;
  vaultId: string;
  preview: { assets: string; shares: string };
  transactions: { transactionId: string; status: string; kind: string; unsignedTransaction: string; vault: { call: string; step: number; steps: number; assets: string; shares: string | null } }[];
}

for (const backend of backends()) {
  describe(`yield vaults on anvil: a real ERC-20 and ERC-4626 vault [${backend}]`, () => {
    const { server, chain, tenants: [acme, globex] } = useTenantsOnChain(backend, 8453, ['Acme', 'Globex']);
    let demo: DeployedVault;
    let vaultId: string;
    let alice: Customer;

    const tokenBalance = async (token: Address, owner: string) =>
      BigInt(await chain.rpc<string>('eth_call', [{ to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [owner as Address] }) }, 'latest']));

    /** The end user approves a prepared transaction with their passkey, under its own transactionId. */
    const approve = (who: Customer, tx: { transactionId: string; unsignedTransaction: string }, unsignedTransaction = tx.unsignedTransaction) => {
      const body = signedBody(server, who, unsignedTransaction);
      return post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: tx.transactionId, signedBody: body, webAuthnStamp: who.passkey.stamp(JSON.stringify(body)) });
    };
    const approveAndSettle = async (who: Customer, tx: { transactionId: string; unsignedTransaction: string }) => {
      const res = await approve(who, tx);
      assert.equal(res.status, 201, res.text);
      await server.watcher!.nextRound();
      return settled(acme, tx.transactionId);
    };
    const prepare = async (path: 'prepare-vault-deposit' | 'prepare-vault-withdrawal', body: Record<string, unknown>, who = acme) => post(server, who, `/v1/submit/${path}`, body);

    before(async () => {
      demo = await deployVault(chain);
      // The snapshot job's first round (kicked at start) must not see the vault: its query can wait on a pool
      // connection long enough under load to run after the registration, and record the snapshot the position test
      // records on purpose. A round asked for now runs after that one.
      assert.equal(await server.vaultSnapshots!.runOnce(), 0);
      const registered = await registerVault(server.database.db, server.chains, { chainId: 8453, address: demo.vault }, server.clock.now());
      vaultId = registered.vaultId;
      alice = await createCustomer(server, acme);
      await chain.setBalance(alice.walletAddress, ETH);
      await demo.mint(alice.walletAddress as Address, 1000n * USD);
      const enabled = await post(server, acme, '/v1/submit/enable-product', { accountId: alice.accountId, productId: 'yield_vaults', termsAcceptedAt: signedAt() });
      assert.equal(enabled.status, 200, enabled.text);
    });

    it('list-vaults and get-vault read the vault from the chain: name, asset, total assets, share price; no APY without history', async () => {
      assert.equal(vaultId, vaultIdOf(8453, demo.vault), 'the id is derived from chain and address');
      const list = await acme.client.get('/v1/query/list-vaults');
      assert.equal(list.status, 200, list.text);
      assert.equal(list.body.data.length, 1);
      assert.deepEqual(list.body.data[0], {
        vaultId,
        chainId: 8453,
        address: demo.vault.toLowerCase(),
        name: 'Demo USD Vault',
        symbol: 'dvUSD',
        decimals: list.body.data[0].decimals,
        asset: { address: demo.token.toLowerCase(), symbol: 'dUSD', decimals: 6 },
        totalAssets: '0',
        sharePrice: '1',
        apy7d: null,
        apy30d: null,
      });
      const one = await acme.client.get(`/v1/query/get-vault?vaultId=${vaultId}`);
      assert.deepEqual(one.body, list.body.data[0]);
      assert.equal((await acme.client.get(`/v1/query/get-vault?vaultId=${vaultIdOf(8453, alice.walletAddress)}`)).status, 404);
    });

    it('prepare-vault-deposit: approve (allowance short) then deposit, unsigned EIP-1559 with consecutive nonces; nothing sent yet', async () => {
      const res = await prepare('prepare-vault-deposit', { accountId: alice.accountId, vaultId, amount: '100' });
      assert.equal(res.status, 200, res.text);
      const prepared = res.body as Prepared;
      assert.deepEqual(prepared.preview, { assets: '100', shares: '100' });
      assert.deepEqual(
        prepared.transactions.map((t) => [t.kind, t.status, t.vault.call, t.vault.step, t.vault.steps]),
        [
          ['vault_deposit', 'created', 'approve', 1, 2],
          ['vault_deposit', 'created', 'deposit', 2, 2],
        ],
      );
      const [approveTx, depositTx] = prepared.transactions.map((t) => parseTransaction(t.unsignedTransaction as Hex));
      assert.equal(approveTx!.type, 'eip1559');
      assert.equal(approveTx!.to, demo.token.toLowerCase());
      assert.deepEqual(decodeFunctionData({ abi: erc20Abi, data: approveTx!.data! }).args, [getAddress(demo.vault), 100n * USD]);
      assert.equal(depositTx!.to, demo.vault.toLowerCase());
      assert.deepEqual(decodeFunctionData({ abi: erc4626Abi, data: depositTx!.data! }).args, [100n * USD, getAddress(alice.walletAddress)]);
      assert.equal(depositTx!.nonce, approveTx!.nonce! + 1);
      assert.equal(await tokenBalance(demo.token, alice.walletAddress), 1000n * USD, 'nothing was sent');

      // Approving anything but what was issued is refused, and uses nothing up.
      const other = await prepare('prepare-vault-deposit', { accountId: alice.accountId, vaultId, amount: '1' });
      const mismatch = await approve(alice, prepared.transactions[0]!, other.body.transactions[1].unsignedTransaction);
      assert.equal(mismatch.status, 409, mismatch.text);
      assert.equal(mismatch.body.code, 'transaction_mismatch');

      // The end user approves each, in order, exactly as a transfer.
      assert.equal((await approveAndSettle(alice, prepared.transactions[0]!)).status, 'completed');
      const deposited = await approveAndSettle(alice, prepared.transactions[1]!);
      assert.equal(deposited.status, 'completed', JSON.stringify(deposited));
      assert.deepEqual(deposited.vault.settled, { assets: '100', shares: '100' });
      assert.equal(await tokenBalance(demo.token, alice.walletAddress), 900n * USD);

      const listed = await acme.client.get(`/v1/query/list-transactions?accountId=${alice.accountId}`);
      assert.ok(listed.body.data.some((t: { transactionId: string; kind: string }) => t.transactionId === prepared.transactions[1]!.transactionId && t.kind === 'vault_deposit'), listed.text);
      const events = await eventsFor(server.database, prepared.transactions[1]!.transactionId);
      assert.ok(events.length >= 2, 'created and the moves after it are events');
    });

    it('the position: shares, assets, net deposited, earnings; yield minted into the vault shows in the position and the APY', async () => {
      const before_ = await acme.client.get(`/v1/query/get-vault-position?accountId=${alice.accountId}&vaultId=${vaultId}`);
      assert.equal(before_.status, 200, before_.text);
      assert.equal(before_.body.shares, '100');
      assert.equal(before_.body.netDeposited, '100');
      assert.equal(before_.body.earnings, '0');

      // A snapshot now, a week passes, the vault earns 10 % (the test mints assets into it).
      assert.equal(await server.vaultSnapshots!.runOnce(), 1);
      server.clock.advance(7 * DAY + 60_000);
      await demo.mint(demo.vault, 10n * USD);

      const vault = (await acme.client.get(`/v1/query/get-vault?vaultId=${vaultId}`)).body;
      assert.ok(Number(vault.sharePrice) > 1.09 && Number(vault.sharePrice) <= 1.1, vault.sharePrice);
      // 10 % in a week, compounded over a year: (1.1)^(365/7) - 1.
      assert.ok(vault.apy7d > 100 && vault.apy7d < 160, String(vault.apy7d));
      assert.equal(vault.apy30d, null, 'a week of history does not make a 30-day APY');

      const position = (await acme.client.get(`/v1/query/get-vault-position?accountId=${alice.accountId}&vaultId=${vaultId}`)).body;
      assert.ok(Number(position.assets) > 109.99 && Number(position.assets) <= 110, position.assets);
      assert.equal(position.netDeposited, '100');
      assert.ok(Number(position.earnings) > 9.99, position.earnings);
      const all = await acme.client.get(`/v1/query/list-vault-positions?accountId=${alice.accountId}`);
      assert.deepEqual(all.body.data, [position]);
    });

    it('approve is skipped when the allowance suffices; a prepared transaction approved too late fails as quote_expired', async () => {
      const first = (await prepare('prepare-vault-deposit', { accountId: alice.accountId, vaultId, amount: '50' })).body as Prepared;
      assert.equal(first.transactions.length, 2);
      assert.equal((await approveAndSettle(alice, first.transactions[0]!)).status, 'completed');
      // The deposit waits past its expiry: the watcher fails it, and a late approval is refused.
      server.clock.advance(server.config.vaults.preparationTtlMs + 1000);
      await server.watcher!.nextRound();
      const late = await approve(alice, first.transactions[1]!);
      assert.equal(late.status, 409, late.text);
      const expired = (await acme.client.get(`/v1/query/get-transaction?transactionId=${first.transactions[1]!.transactionId}`)).body;
      assert.deepEqual([expired.status, expired.failureReason], ['failed', 'quote_expired']);

      // The allowance of 50 is still there: the deposit is prepared alone.
      const again = (await prepare('prepare-vault-deposit', { accountId: alice.accountId, vaultId, amount: '50' })).body as Prepared;
      assert.deepEqual(
        again.transactions.map((t) => [t.vault.call, t.vault.step, t.vault.steps]),
        [['deposit', 1, 1]],
      );
      assert.equal((await approveAndSettle(alice, again.transactions[0]!)).status, 'completed');
    });

    it('withdraw an amount, then redeem every share: principal plus yield come back to the wallet', async () => {
      const withdraw = await prepare('prepare-vault-withdrawal', { accountId: alice.accountId, vaultId, amount: '20' });
      assert.equal(withdraw.status, 200, withdraw.text);
      const w = (withdraw.body as Prepared).transactions[0]!;
      assert.deepEqual([w.kind, w.vault.call, w.vault.assets], ['vault_withdrawal', 'withdraw', '20']);
      const withdrawn = await approveAndSettle(alice, w);
      assert.equal(withdrawn.status, 'completed');
      assert.equal(withdrawn.vault.settled.assets, '20');

      const position = (await acme.client.get(`/v1/query/get-vault-position?accountId=${alice.accountId}&vaultId=${vaultId}`)).body;
      const redeem = await prepare('prepare-vault-withdrawal', { accountId: alice.accountId, vaultId, shares: position.shares });
      assert.equal(redeem.status, 200, redeem.text);
      const r = (redeem.body as Prepared).transactions[0]!;
      assert.equal(r.vault.call, 'redeem');
      assert.equal((await approveAndSettle(alice, r)).status, 'completed');

      // Deposited 150, the vault earned 10 on the first 100: the wallet ends with about 1010.
      const balance = await tokenBalance(demo.token, alice.walletAddress);
      assert.ok(balance > 1009n * USD && balance <= 1010n * USD, String(balance));
      const after_ = (await acme.client.get(`/v1/query/get-vault-position?accountId=${alice.accountId}&vaultId=${vaultId}`)).body;
      assert.equal(after_.shares, '0');
      assert.equal(after_.assets, '0');
      assert.ok(Number(after_.earnings) > 9.99 && Number(after_.earnings) <= 10, after_.earnings);
    });

    it('hostile and impossible requests are 4xx naming the field; nothing is prepared', async () => {
      const cases: [Record<string, unknown>, number, string, string?][] = [
        [{ accountId: alice.accountId, vaultId, amount: '0' }, 400, 'validation_failed', '/amount'],
        [{ accountId: alice.accountId, vaultId, amount: '1.0000001' }, 400, 'validation_failed', '/amount'],
        [{ accountId: alice.accountId, vaultId, amount: '-1' }, 400, 'validation_failed', '/amount'],
        [{ accountId: alice.accountId, vaultId, amount: 1 }, 400, 'validation_failed', '/amount'],
        [{ accountId: alice.accountId, vaultId, amount: '9'.repeat(80) }, 400, 'validation_failed', '/amount'],
        [{ accountId: alice.accountId, vaultId, amount: '100000' }, 422, 'insufficient_funds'],
        [{ accountId: alice.accountId, vaultId: vaultIdOf(8453, demo.token), amount: '1' }, 404, 'not_found'],
      ];
      for (const [body, status, code, pointer] of cases) {
        const res = await prepare('prepare-vault-deposit', body);
        assert.equal(res.status, status, `${JSON.stringify(body).slice(0, 120)}: ${res.text}`);
        assert.equal(res.body.code, code);
        if (pointer) assert.ok(res.body.errors.some((e: { pointer: string }) => e.pointer === pointer), res.text);
      }
      // A token amount with more fraction digits than the token has (the demo asset has 6): named, with its own code.
      const seventh = await prepare('prepare-vault-deposit', { accountId: alice.accountId, vaultId, amount: '1.0000001' });
      assert.deepEqual(seventh.body.errors.map((e: { pointer: string; code: string }) => `${e.pointer} ${e.code}`), ['/amount too_many_decimals'], seventh.text);
      // Exactly one of amount and shares (a oneOf in the document): neither names the first, both name each.
      const exactlyOne: [Record<string, unknown>, string[]][] = [
        [{}, ['/amount required']],
        [{ amount: '1', shares: '1' }, ['/amount not_allowed', '/shares not_allowed']],
        [{ amount: '1', shares: 1 }, ['/amount not_allowed', '/shares invalid_type', '/shares not_allowed']],
      ];
      for (const [extra, expected] of exactlyOne) {
        const res = await prepare('prepare-vault-withdrawal', { accountId: alice.accountId, vaultId, ...extra });
        assert.equal(res.status, 400, res.text);
        assert.deepEqual(res.body.errors.map((e: { pointer: string; code: string }) => `${e.pointer} ${e.code}`).sort(), expected, res.text);
        assert.match(res.body.errors[0].detail, /exactly one of amount and shares/);
      }
      const tooMuch = await prepare('prepare-vault-withdrawal', { accountId: alice.accountId, vaultId, shares: '1' });
      assert.deepEqual([tooMuch.status, tooMuch.body.code], [422, 'insufficient_funds']);
    });

    it('another integrator’s account, position and prepared transactions are 404; a disabled product refuses', async () => {
      for (const path of [`/v1/query/get-vault-position?accountId=${alice.accountId}&vaultId=${vaultId}`, `/v1/query/list-vault-positions?accountId=${alice.accountId}`]) {
        assert.equal((await globex.client.get(path)).status, 404, path);
      }
      assert.equal((await prepare('prepare-vault-deposit', { accountId: alice.accountId, vaultId, amount: '1' }, globex)).status, 404);
      const pending = ((await prepare('prepare-vault-deposit', { accountId: alice.accountId, vaultId, amount: '1' })).body as Prepared).transactions[0]!;
      assert.equal((await globex.client.get(`/v1/query/get-transaction?transactionId=${pending.transactionId}`)).status, 404);

      // Not enabled: neither preparing nor approving what was prepared.
      assert.equal((await post(server, acme, '/v1/submit/disable-product', { accountId: alice.accountId, productId: 'yield_vaults' })).status, 200);
      const refused = await prepare('prepare-vault-deposit', { accountId: alice.accountId, vaultId, amount: '1' });
      assert.deepEqual([refused.status, refused.body.code], [409, 'product_not_enabled']);
      const approval = await approve(alice, pending);
      assert.deepEqual([approval.status, approval.body.code], [409, 'product_not_enabled']);
      const bob = await createCustomer(server, acme);
      const never = await prepare('prepare-vault-deposit', { accountId: bob.accountId, vaultId, amount: '1' });
      assert.deepEqual([never.status, never.body.code], [409, 'product_not_enabled'], 'yield vaults are opt-in');
    });
  });
}
