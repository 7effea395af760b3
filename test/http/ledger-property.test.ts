import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { serializeTransaction, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ANVIL_DEV_KEY } from '../../src/chain/demo-vault.js';
import { encodeTransfer } from '../../src/chain/erc20.js';
import { selectRows } from '../../src/db/database.js';
import { registerVault } from '../../src/domain/vaults/vault-admin.js';
import { createOperator } from '../../src/domain/operators/operators.js';
import { adminRequest } from '../harness/admin.js';
import type { Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, recipient, settled, signedBody, type Customer } from '../harness/customers.js';
import { signedAt } from '../harness/fixtures.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenantsOnChain } from '../harness/tenants.js';
import { deployVault, type DeployedVault } from '../harness/vaults.js';

/*
 * The ledger's invariants under random money (docs/ledger.md), on anvil: sequences of deposits, coin and token
 * transfers, withdrawals paid or returned (and refunded), vault deposits and withdrawals, a reverted call and an
 * incoming transfer taken away by a reorg, each run on a fresh customer of one server. After every sequence, once
 * settled and final: every ledger transaction sums to zero per asset, no customer balance is negative, and the chain
 * reconciliation (which reads the coin, the listed token and the vault's shares of every wallet and the treasury)
 * reports no break. LEDGER_PROPERTY_RUNS sequences (3 by default).
 */

const RUNS = Number(process.env.LEDGER_PROPERTY_RUNS || 3);
const DEV = privateKeyToAccount(ANVIL_DEV_KEY);
const USD = 1_000_000n;

type Command =
  | { kind: 'deposit'; dollars: number }
  | { kind: 'transfer'; milli: number }
  | { kind: 'token'; units: number }
  | { kind: 'withdraw'; dollars: number; outcome: 'completed' | 'returned' }
  | { kind: 'vault_deposit'; units: number }
  | { kind: 'vault_withdraw' }
  | { kind: 'revert' }
  | { kind: 'reorg' };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('deposit' as const), dollars: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('transfer' as const), milli: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ kind: fc.constant('token' as const), units: fc.integer({ min: 1, max: 30 }) }),
  fc.record({ kind: fc.constant('withdraw' as const), dollars: fc.integer({ min: 1, max: 5 }), outcome: fc.constantFrom('completed' as const, 'returned' as const) }),
  fc.record({ kind: fc.constant('vault_deposit' as const), units: fc.integer({ min: 1, max: 50 }) }),
  fc.constant({ kind: 'vault_withdraw' as const }),
  fc.constant({ kind: 'revert' as const }),
  fc.constant({ kind: 'reorg' as const }),
);

for (const backend of backends()) {
  describe(`ledger invariants under random sequences of money on anvil [${backend}]`, () => {
    let server: TestServer;
    let chain: Anvil;
    let acme: SeededIntegrator;
    let demo: DeployedVault;
    let vaultId: string;
    let operator: string;

    before(async () => {
      ({ server, chain, tenants: [acme] } = await startTenantsOnChain(backend, 8453, ['Acme'], { CHAIN_CONFIRMATIONS: '8453=3', INCOMING_POLL_MS: '60000', WITHDRAWAL_RAILS: 'ach' }, async (anvil) => {
        demo = await deployVault(anvil);
        // The vault's asset and its shares listed: the reconciliation reads both in every wallet.
        return { TOKENS: `8453:dUSD:${demo.token},8453:dvUSD:${demo.vault}` };
      }));
      await server.vaultSnapshots!.runOnce();
      vaultId = (await registerVault(server.database.db, server.chains, { chainId: 8453, address: demo.vault }, server.clock.now())).vaultId;
      operator = (await createOperator(server.database, 'ledger-property', server.clock.now())).token;
      // The treasury funded after the ledger opened: a break, recorded by an operator (an adjustment).
      await send({ to: server.treasury!.address, value: 10n * ETH });
      await final();
      const opening = await adminRequest(server, 'POST', '/admin/api/reconciliations', { token: operator, body: { kind: 'chain' } });
      assert.equal(opening.body.breaks.length, 1, opening.text);
      const resolved = await adminRequest(server, 'POST', `/admin/api/reconciliations/${opening.body.runId}/breaks/${opening.body.breaks[0].breakId}/resolve`, { token: operator, body: { note: 'funded', adjust: true } });
      assert.equal(resolved.status, 200, resolved.text);
    });
    after(() => server?.close());

    const post = (path: string, body: unknown) => {
      server.clock.advance(1000);
      return acme.client.post(path, body);
    };
    const send = async (tx: { to: string; value?: bigint; data?: Hex }) => {
      const hash = await chain.rpc<Hex>('eth_sendTransaction', [{ from: DEV.address, to: tx.to, value: `0x${(tx.value ?? 0n).toString(16)}`, ...(tx.data ? { data: tx.data } : {}) }]);
      await chain.mined(hash);
    };
    /** Blocks past the confirmations, and the incoming watcher's rounds: what was mined is final and posted. */
    async function final() {
      await chain.rpc('anvil_mine', ['0x3']);
      await server.incoming!.runOnce();
      await server.incoming!.runOnce();
    }
    async function approve(who: Customer, tx: { transactionId?: string; unsignedTransaction: string }) {
      const body = signedBody(server, who, tx.unsignedTransaction);
      const res = await post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: tx.transactionId ?? crypto.randomUUID(), signedBody: body, webAuthnStamp: who.passkey.stamp(JSON.stringify(body)) });
      assert.ok(res.status === 201 || res.status === 200, res.text);
      return res.body as { transactionId: string };
    }
    const nonceOf = async (address: string) => Number(BigInt(await chain.rpc<string>('eth_getTransactionCount', [address, 'pending'])));
    const call = async (who: Customer, to: string, value: bigint, data: Hex = '0x') =>
      serializeTransaction({ chainId: 8453, type: 'eip1559', nonce: await nonceOf(who.walletAddress), to: to as Address, value, data, gas: 150_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n });
    /** Until it leaves its transient states: paid out and mined, or failed. */
    async function ended(transactionId: string) {
      let view = await settled(acme, transactionId, 'created');
      for (const transient of ['waiting_for_funds', 'funds_in_transfer', 'processing']) if (view.status === transient) view = await settled(acme, transactionId, transient);
      return view;
    }

    async function perform(who: Customer, c: Command): Promise<void> {
      switch (c.kind) {
        case 'deposit': {
          const made = await post('/v1/submit/create-deposit', { accountId: who.accountId, amount: `${c.dollars}.00`, currency: 'USD', chainId: 8453 });
          assert.equal(made.status, 201, made.text);
          assert.equal((await post('/v1/sandbox/simulate-deposit', { transactionId: made.body.transactionId, amount: `${c.dollars}.00` })).status, 200);
          assert.equal((await ended(made.body.transactionId)).status, 'completed');
          return;
        }
        case 'transfer':
          await ended((await approve(who, { unsignedTransaction: await call(who, recipient(), BigInt(c.milli) * 10n ** 15n) })).transactionId);
          return;
        case 'token':
          await ended((await approve(who, { unsignedTransaction: await call(who, demo.token, 0n, encodeTransfer(recipient(), BigInt(c.units) * USD)) })).transactionId);
          return;
        case 'withdraw': {
          const bank = await post('/v1/submit/create-bank-account', { accountId: who.accountId, currency: 'USD', accountHolderName: 'Maria Garcia', us: { accountNumber: `0001${Math.floor(Math.random() * 1e8)}`, routingNumber: '021000021', accountType: 'checking' } });
          const made = await post('/v1/submit/create-withdrawal', { accountId: who.accountId, bankAccountId: bank.body.bankAccountId, chainId: 8453, amount: `${c.dollars}.00`, currency: 'USD' });
          assert.equal(made.status, 201, made.text);
          await approve(who, made.body);
          assert.equal((await settled(acme, made.body.transactionId)).status, 'funds_in_transfer');
          assert.equal((await post('/v1/sandbox/simulate-withdrawal', { transactionId: made.body.transactionId, outcome: c.outcome })).status, 200);
          if (c.outcome === 'returned') {
            const refund = (await selectRows<{ transactionId: string }>(server.database.db, sql`select transaction_id as "transactionId" from transactions where refund_of = ${made.body.transactionId}`))[0]!;
            assert.equal((await ended(refund.transactionId)).status, 'completed');
          }
          return;
        }
        case 'vault_deposit': {
          const prepared = await post('/v1/submit/prepare-vault-deposit', { accountId: who.accountId, vaultId, amount: String(c.units) });
          assert.equal(prepared.status, 200, prepared.text);
          for (const tx of prepared.body.transactions) assert.equal((await ended((await approve(who, tx)).transactionId)).status, 'completed');
          return;
        }
        case 'vault_withdraw': {
          const position = await acme.client.get(`/v1/query/get-vault-position?accountId=${who.accountId}&vaultId=${vaultId}`);
          if (position.status !== 200 || position.body.shares === '0') return;
          const prepared = await post('/v1/submit/prepare-vault-withdrawal', { accountId: who.accountId, vaultId, shares: position.body.shares });
          assert.equal(prepared.status, 200, prepared.text);
          for (const tx of prepared.body.transactions) assert.equal((await ended((await approve(who, tx)).transactionId)).status, 'completed');
          return;
        }
        case 'revert': {
          // A call the token refuses (no such function): mined, reverted, its network fee paid.
          const res = await ended((await approve(who, { unsignedTransaction: await call(who, demo.token, 0n, '0xdeadbeef') })).transactionId);
          assert.deepEqual([res.status, res.failureReason], ['failed', 'reverted']);
          return;
        }
        case 'reorg': {
          const snapshot = await chain.rpc<string>('evm_snapshot');
          await send({ to: who.walletAddress, value: 10n ** 15n });
          await server.incoming!.runOnce();
          assert.equal(await chain.rpc('evm_revert', [snapshot]), true);
          await chain.rpc('anvil_mine', ['0x2']);
          for (let i = 0; i < 3; i++) await server.incoming!.runOnce();
          return;
        }
      }
    }

    it(`${RUNS} random sequences: balanced, no customer below zero, no break against the chain`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(command, { minLength: 3, maxLength: 6 }), async (commands) => {
          const who = await createCustomer(server, acme);
          // Money from outside: the coin for gas and transfers, the token for transfers and the vault; enabled for vaults.
          await send({ to: who.walletAddress, value: ETH });
          await demo.mint(who.walletAddress as Address, 500n * USD);
          assert.equal((await post('/v1/submit/enable-product', { accountId: who.accountId, productId: 'yield_vaults', termsAcceptedAt: signedAt() })).status, 200);
          await final();
          for (const c of commands) await perform(who, c);
          await final();

          const unbalanced = await selectRows(server.database.db, sql`select ledger_transaction_id from ledger_entries group by ledger_transaction_id, asset having sum(amount) <> 0`);
          assert.deepEqual(unbalanced, [], 'every ledger transaction sums to zero per asset');
          const negative = await selectRows(server.database.db, sql`select code from ledger_accounts where kind = 'customer' and (posted_balance < 0 or available_balance < 0 or pending_balance < 0)`);
          assert.deepEqual(negative, [], 'no customer balance below zero');
          const run = await adminRequest(server, 'POST', '/admin/api/reconciliations', { token: operator, body: { kind: 'chain' } });
          assert.equal(run.status, 201, run.text);
          assert.deepEqual(run.body.breaks, [], `no break after ${JSON.stringify(commands)}`);
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
    });
  });
}
