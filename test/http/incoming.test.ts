import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { getAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ANVIL_DEV_KEY } from '../../src/chain/demo-vault.js';
import { encodeTransfer } from '../../src/chain/erc20.js';
import { transactions } from '../../src/db/schema/index.js';
import type { Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, type Customer } from '../harness/customers.js';
import { eventsFor } from '../harness/db.js';
import { openApiChecker, type OpenApiDoc } from '../harness/openapi.js';
import { startReceiver, type Receiver } from '../harness/receiver.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenantsWithToken, type TestToken } from '../harness/tokens.js';
import type { TransactionView } from '../harness/types.js';

// Incoming transfers (docs/incoming.md): transfers to any account's wallet from outside, USDC and ETH, to custodial and
// self-custodial wallets, each recorded once as an `incoming` transaction, processing until CHAIN_CONFIRMATIONS blocks,
// then completed, delivered by webhook; a reorg fails a pending one (or moves it to the block it was mined again in).
// The rounds run when the test asks (runOnce; INCOMING_POLL_MS keeps the timer out of the way).

const DEV = privateKeyToAccount(ANVIL_DEV_KEY);
const USDC = 1_000_000n;

type Incoming = TransactionView & { incoming: { symbol: string; tokenAddress: string | null; from: string; amount: string; amountRaw: string }; blockNumber: number };

for (const backend of backends()) {
  describe(`incoming transfers on anvil [${backend}]`, () => {
    let server: TestServer;
    let chain: Anvil;
    let acme: SeededIntegrator;
    let token: TestToken;
    let receiver: Receiver;
    let alice: Customer;
    let bob: { accountId: string; walletAddress: Address };

    before(async () => {
      ({ server, chain, tenants: [acme], token } = await startTenantsWithToken(backend, 8453, ['Acme'], { CHAIN_CONFIRMATIONS: '8453=3', INCOMING_POLL_MS: '60000', WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_SCHEDULE: '0.1' }));
      receiver = await startReceiver();
      const sub = await acme.client.post('/v1/webhooks/subscriptions', { name: 'incoming', url: `${receiver.url}/hooks`, eventTypes: ['transaction.*'] });
      assert.equal(sub.status, 201, sub.text);
      await server.incoming!.runOnce();
      alice = await createCustomer(server, acme);
      const wallet = getAddress(`0x${'b0b'.padEnd(40, '1')}`);
      const self = await createCustomer(server, acme, { email: `bob.${randomUUID()}@example.com`, walletAddress: wallet, approve: false });
      bob = { accountId: self.accountId, walletAddress: wallet };
      await token.mint(DEV.address, 1_000n * USDC);
    });
    after(async () => {
      await receiver?.close();
      await server?.close();
    });

    /** Sends from an unlocked dev account (`from`: another than the default DEV) and waits for its block, unless `queue`. */
    async function send(tx: { to: string; value?: bigint; data?: Hex; from?: string }, queue = false): Promise<Hex> {
      const hash = await chain.rpc<Hex>('eth_sendTransaction', [{ from: tx.from ?? DEV.address, to: tx.to, value: `0x${(tx.value ?? 0n).toString(16)}`, ...(tx.data ? { data: tx.data } : {}) }]);
      if (!queue) await chain.mined(hash);
      return hash;
    }
    const sendEth = (to: string, wei: bigint, queue = false) => send({ to, value: wei }, queue);
    const sendUsdc = (to: string, raw: bigint, queue = false) => send({ to: token.address, data: encodeTransfer(to as Address, raw) }, queue);
    const mine = (blocks: number) => chain.rpc('anvil_mine', [`0x${blocks.toString(16)}`]);

    let checker: ReturnType<typeof openApiChecker> | undefined;
    /** Every answer read here conforms to the served API document (the incoming transfer's fields included). */
    async function conforming(url: string) {
      checker ??= openApiChecker((await fetch(`${server.url}/openapi.json`).then((r) => r.json())) as OpenApiDoc);
      const res = await acme.client.get(url);
      checker.assertConforms('GET', url, { status: res.status, headers: res.headers, text: res.text, body: res.body });
      return res;
    }

    async function incomingOf(accountId: string): Promise<Incoming[]> {
      const listed = await conforming(`/v1/query/list-transactions?accountId=${accountId}&limit=100`);
      assert.equal(listed.status, 200, listed.text);
      return (listed.body.data as Incoming[]).filter((t) => t.kind === 'incoming');
    }
    const rowsWithHash = (hash: string) => server.database.db.select().from(transactions).where(and(eq(transactions.kind, 'incoming'), eq(transactions.transactionHash, hash)));

    it('USDC and ETH to a custodial and a self-custodial wallet: each recorded once, processing, completed after 3 blocks, delivered by webhook', async () => {
      // All four in one block.
      await chain.rpc('evm_setAutomine', [false]);
      const hashes = [await sendEth(alice.walletAddress, ETH / 4n, true), await sendUsdc(alice.walletAddress, 12_500_000n, true), await sendEth(bob.walletAddress, 3n, true), await sendUsdc(bob.walletAddress, 7n, true)];
      await mine(1);
      await chain.rpc('evm_setAutomine', [true]);
      for (const hash of hashes) await chain.mined(hash);
      await server.incoming!.runOnce();
      await server.incoming!.runOnce();

      const forAlice = await incomingOf(alice.accountId);
      const forBob = await incomingOf(bob.accountId);
      assert.equal(forAlice.length, 2);
      assert.equal(forBob.length, 2);
      const eth = forAlice.find((t) => t.incoming.symbol === 'ETH')!;
      const usdc = forAlice.find((t) => t.incoming.symbol === 'USDC')!;
      assert.deepEqual(eth.incoming, { symbol: 'ETH', tokenAddress: null, from: DEV.address, amount: '0.25', amountRaw: (ETH / 4n).toString() });
      assert.deepEqual(usdc.incoming, { symbol: 'USDC', tokenAddress: getAddress(token.address), from: DEV.address, amount: '12.5', amountRaw: '12500000' });
      assert.deepEqual(forBob.map((t) => t.incoming.amountRaw).sort(), ['3', '7']);
      for (const t of [...forAlice, ...forBob]) {
        assert.equal(t.status, 'processing');
        assert.equal(t.chainId, 8453);
        assert.ok(hashes.includes(t.transactionHash as Hex));
        const receipt = await chain.rpc<{ blockNumber: string }>('eth_getTransactionReceipt', [t.transactionHash]);
        assert.equal(t.blockNumber, Number(receipt.blockNumber));
      }
      for (const hash of hashes) assert.equal((await rowsWithHash(hash)).length, 1, 'recorded once');

      // The last transfer's block has 1 confirmation: 2 more blocks complete all four.
      await mine(1);
      await server.incoming!.runOnce();
      assert.ok((await incomingOf(alice.accountId)).some((t) => t.status === 'processing'), 'not before 3 confirmations');
      await mine(1);
      await server.incoming!.runOnce();
      const done = [...(await incomingOf(alice.accountId)), ...(await incomingOf(bob.accountId))];
      assert.deepEqual(done.map((t) => t.status), ['completed', 'completed', 'completed', 'completed']);

      for (const t of done) {
        const [row] = await server.database.db.select().from(transactions).where(eq(transactions.transactionId, t.transactionId));
        const events = await eventsFor(server.database, row!.id);
        assert.deepEqual(events.map((e) => e.type), ['transaction.created', 'transaction.status.changed', 'transaction.completed']);
        const got = await conforming(`/v1/query/get-transaction?transactionId=${t.transactionId}`);
        assert.equal(got.status, 200, got.text);
        assert.deepEqual(got.body.incoming, t.incoming);
      }
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      assert.match(metrics, /^incoming_scan_age_seconds\{chain_id="8453"\} [0-9.]+$/m, 'the watcher’s age per chain');
      const deliveries = await receiver.waitFor(12);
      const delivered = deliveries.map((d) => d.json<{ type: string; data: { object: { kind: string } } }>());
      assert.equal(delivered.filter((d) => d.type === 'transaction.completed' && d.data.object.kind === 'incoming').length, 4);
      assert.equal(delivered.filter((d) => d.type === 'transaction.created' && d.data.object.kind === 'incoming').length, 4);
    });

    it('a reorg before the confirmations: the transfer fails as reorged and never completes; one mined again elsewhere moves there', async () => {
      const snapshot = await chain.rpc<string>('evm_snapshot');
      const [, other] = await chain.rpc<string[]>('eth_accounts');
      const lost = await send({ to: alice.walletAddress, value: 5n, from: other! });
      // A transfer signed here, so the same bytes can be mined again after the reorg.
      const nonce = Number(BigInt(await chain.rpc<string>('eth_getTransactionCount', [DEV.address, 'latest'])));
      const raw = await DEV.signTransaction(serializeable(nonce, alice.walletAddress as Address, 6n));
      const again = await chain.rpc<Hex>('eth_sendRawTransaction', [raw]);
      const first = await chain.mined(again);
      await server.incoming!.runOnce();
      const [seenLost] = await rowsWithHash(lost);
      const [seenAgain] = await rowsWithHash(again);
      assert.equal(seenLost?.status, 'processing');
      assert.equal(seenAgain?.blockNumber, Number(first.blockNumber));

      assert.equal(await chain.rpc('evm_revert', [snapshot]), true);
      // Other blocks at the same heights: two empty ones, then the signed transfer again (one block later than before).
      await mine(2);
      await chain.mined(await chain.rpc<Hex>('eth_sendRawTransaction', [raw]));
      await mine(1);
      assert.deepEqual(await server.incoming!.runOnce(), ['rewound']);
      for (let i = 0; i < 3; i++) await server.incoming!.runOnce();

      const [failed] = await rowsWithHash(lost);
      assert.equal(failed!.status, 'failed');
      assert.equal(failed!.failureReason, 'reorged');
      assert.deepEqual((await eventsFor(server.database, failed!.id)).map((e) => e.type), ['transaction.created', 'transaction.status.changed', 'transaction.failed']);
      const moved = await rowsWithHash(again);
      assert.equal(moved.length, 1, 'still one record');
      assert.equal(moved[0]!.blockNumber, Number(first.blockNumber) + 1, 'moved to the block it was mined in again');

      await mine(3);
      await server.incoming!.runOnce();
      assert.equal((await rowsWithHash(lost))[0]!.status, 'failed', 'never completes');
      assert.equal((await rowsWithHash(again))[0]!.status, 'completed');
    });

    it('a zero-value call and a token transfer of 0 bring nothing: no incoming transaction', async () => {
      const carol = await createCustomer(server, acme);
      await send({ to: carol.walletAddress, value: 0n });
      await sendUsdc(carol.walletAddress, 0n);
      await mine(3);
      await server.incoming!.runOnce();
      assert.deepEqual(await incomingOf(carol.accountId), []);
    });
  });
}

function serializeable(nonce: number, to: Address, value: bigint) {
  return { chainId: 8453, type: 'eip1559' as const, nonce, to, value, gas: 21_000n, maxFeePerGas: 20_000_000_000n, maxPriorityFeePerGas: 1_000_000n };
}
