import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { serializeTransaction, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ANVIL_DEV_KEY } from '../../src/chain/demo-vault.js';
import { encodeTransfer } from '../../src/chain/erc20.js';
import { transactions, withdrawalPayouts } from '../../src/db/schema/index.js';
import { postLedger } from '../../src/domain/ledger/post.js';
import { transactionPostings } from '../../src/domain/ledger/transaction-postings.js';
import { createOperator } from '../../src/domain/operators/operators.js';
import { adminRequest } from '../harness/admin.js';
import type { Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, recipient, settled, signedBody, type Customer } from '../harness/customers.js';
import { openApiChecker, type OpenApiDoc } from '../harness/openapi.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenantsWithToken, type TestToken } from '../harness/tokens.js';

// The ledger (docs/ledger.md) on a real chain: money in through incoming transfers and a deposit, out through transfers
// and withdrawals (one paid, one returned and refunded), and after every flow the customer's wallet in the ledger equals
// the chain in ETH (network fees included) and USDC; every ledger transaction sums to zero per asset; the fiat side
// reads as the bank and the fees say; reading it through the API conforms to the served document.

const DEV = privateKeyToAccount(ANVIL_DEV_KEY);
const USDC = 1_000_000n;

interface Balances {
  posted: string;
  pending: string;
  available: string;
  postedRaw: string;
  pendingRaw: string;
  availableRaw: string;
}
interface Entry {
  ledgerEntryId: string;
  ledgerAccountId: string;
  ledgerTransactionId: string;
  asset: { code: string; symbol: string; decimals: number };
  amount: string;
  amountRaw: string;
  status: string;
  balanceAfter: Balances;
  cause: { type: string; transactionId: string | null; payoutReference: string | null };
}
interface LedgerAccount {
  ledgerAccountId: string;
  code: string;
  kind: string;
  asset: { code: string };
  balances: Balances;
}

for (const backend of backends()) {
  describe(`ledger: every movement in balanced entries, equal to the chain [${backend}]`, () => {
    let server: TestServer;
    let chain: Anvil;
    let acme: SeededIntegrator;
    let globex: SeededIntegrator;
    let token: TestToken;
    let alice: Customer;
    let operator: string;
    let checker: ReturnType<typeof openApiChecker>;
    let nonce = 0;

    before(async () => {
      ({ server, chain, tenants: [acme, globex], token } = await startTenantsWithToken(backend, 8453, ['Acme', 'Globex'], { CHAIN_CONFIRMATIONS: '8453=1', INCOMING_POLL_MS: '60000', WITHDRAWAL_RAILS: 'ach' }));
      await server.incoming!.runOnce();
      alice = await createCustomer(server, acme);
      operator = (await createOperator(server.database, 'ledger', server.clock.now())).token;
      checker = openApiChecker((await fetch(`${server.url}/openapi.json`).then((r) => r.json())) as OpenApiDoc);
      // Money reaches the wallet from outside: recorded as incoming transfers, posted once final.
      await send({ to: alice.walletAddress, value: ETH });
      await token.mint(alice.walletAddress, 500n * USDC);
      // The treasury's funding after the ledger opened reaches it from outside the service (a break until recorded).
      await send({ to: server.treasury!.address, value: 5n * ETH });
      await token.mint(server.treasury!.address, 1_000n * USDC);
      await server.incoming!.runOnce();
    });
    after(async () => {
      await server?.close();
    });

    async function send(tx: { to: string; value?: bigint; data?: Hex }): Promise<void> {
      const hash = await chain.rpc<Hex>('eth_sendTransaction', [{ from: DEV.address, to: tx.to, value: `0x${(tx.value ?? 0n).toString(16)}`, ...(tx.data ? { data: tx.data } : {}) }]);
      await chain.mined(hash);
    }
    const ethOf = async (address: string) => BigInt(await chain.rpc<string>('eth_getBalance', [address, 'latest']));

    function post(path: string, body: unknown) {
      server.clock.advance(1000);
      return acme.client.post(path, body);
    }
    async function conforming(path: string, who: SeededIntegrator = acme) {
      const res = await who.client.get(path);
      checker.assertConforms('GET', path, { status: res.status, headers: res.headers, text: res.text, body: res.body });
      return res;
    }
    async function approve(unsignedTransaction: string, transactionId: string = crypto.randomUUID()) {
      const body = signedBody(server, alice, unsignedTransaction);
      const res = await post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId, signedBody: body, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body)) });
      assert.ok(res.status === 201 || res.status === 200, res.text);
      return res.body as { transactionId: string; status: string };
    }
    const call = (to: string, value: bigint, data: Hex = '0x') =>
      serializeTransaction({ chainId: 8453, type: 'eip1559', nonce: nonce++, to: to as Address, value, data, gas: 100_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n });

    /** The customer's ledger accounts through get-account-balances: ETH and USDC, the chain's figure and the ledger's. */
    async function balances() {
      const res = await conforming(`/v1/query/get-account-balances?accountId=${alice.accountId}`);
      assert.equal(res.status, 200, res.text);
      const of = (symbol: string) => (res.body.balances as { symbol: string; amountRaw: string; ledger: Balances | null }[]).find((b) => b.symbol === symbol)!;
      return { eth: of('ETH'), usdc: of('USDC') };
    }
    /** After the watchers' rounds (final with one confirmation), the wallet's ledger equals the chain in ETH and USDC. */
    async function assertWalletMatchesChain(what: string) {
      await server.incoming!.runOnce();
      const { eth, usdc } = await balances();
      // Read from the node itself: get-account-balances' chain figures are cached for about a block.
      const chainEth = String(await ethOf(alice.walletAddress));
      assert.equal(eth.ledger?.postedRaw, chainEth, `${what}: ETH in the ledger (posted) is the chain's, network fees included`);
      assert.equal(eth.ledger?.pendingRaw, chainEth, `${what}: nothing is pending any more`);
      assert.equal(usdc.ledger?.postedRaw, String(await token.balanceOf(alice.walletAddress)), `${what}: USDC in the ledger is the chain's`);
    }
    async function trialBalance() {
      const res = await adminRequest(server, 'GET', '/admin/api/ledger/trial-balance', { token: operator });
      assert.equal(res.status, 200, res.text);
      return res.body as { balanced: boolean; assets: { asset: string; posted: string; pending: string; byKind: { kind: string; posted: string; pending: string }[] }[] };
    }
    async function serviceAccount(kind: string, asset: string): Promise<LedgerAccount | undefined> {
      const res = await adminRequest(server, 'GET', `/admin/api/ledger/accounts?kind=${kind}&asset=${encodeURIComponent(asset)}`, { token: operator });
      assert.equal(res.status, 200, res.text);
      return (res.body.data as LedgerAccount[])[0];
    }
    async function legsOf(rowId: string) {
      const res = await adminRequest(server, 'GET', `/admin/api/ledger/transactions?causeId=${rowId}`, { token: operator });
      assert.equal(res.status, 200, res.text);
      const list = res.body.data as { status: string; entries: { accountKind: string; asset: { code: string }; amountRaw: string }[] }[];
      for (const t of list) {
        const sums = new Map<string, bigint>();
        for (const e of t.entries) sums.set(e.asset.code, (sums.get(e.asset.code) ?? 0n) + BigInt(e.amountRaw));
        for (const [asset, sum] of sums) assert.equal(sum, 0n, `every ledger transaction sums to zero in ${asset}`);
      }
      return list;
    }
    const USD = 'iso4217:USD';

    it('money from outside posts as incoming transfers; the wallet equals the chain; the treasury opened with what it held', async () => {
      await assertWalletMatchesChain('after the incoming transfers');
      const { eth, usdc } = await balances();
      assert.equal(eth.ledger?.posted, '1');
      assert.equal(usdc.ledger?.posted, '500');
      const treasury = await serviceAccount('treasury', 'eip155:8453/slip44:60');
      const opening = BigInt(treasury?.balances.postedRaw ?? '0');
      assert.equal((await ethOf(server.treasury!.address)) - opening, 5n * ETH, 'only the funding after the opening is outside the ledger');
      assert.equal((await trialBalance()).balanced, true);
    });

    it('a transfer is pending from signing (available reduced at once), posted with its network fee once final', async () => {
      const before = await balances();
      const sent = await approve(call(recipient(), 10n ** 16n));
      const pending = await conforming(`/v1/accounts/${alice.accountId}/ledger-entries?status=pending&limit=5`);
      assert.equal(pending.status, 200, pending.text);
      // The network fee's entry may be there too (the watcher may have seen the receipt): the movement's is the -0.01.
      const entry = (pending.body.data as Entry[]).find((e) => e.amount === '-0.01');
      assert.equal(entry?.amount, '-0.01');
      assert.equal(entry?.status, 'pending');
      assert.equal(entry?.cause.transactionId, sent.transactionId);
      assert.equal(entry?.balanceAfter.posted, before.eth.ledger?.posted, 'posted does not move while pending');
      assert.equal(BigInt(entry!.balanceAfter.availableRaw), BigInt(before.eth.ledger!.postedRaw) - 10n ** 16n, 'available does');
      assert.equal((await settled(acme, sent.transactionId)).status, 'completed');
      await assertWalletMatchesChain('after the transfer');
      const legs = await legsOf((await rowOf(sent.transactionId)).id);
      assert.deepEqual(legs.map((t) => t.status), ['posted', 'posted'], 'the movement and its network fee, both final');
      const posted = (await conforming(`/v1/accounts/${alice.accountId}/ledger-entries?limit=3`)).body.data as Entry[];
      assert.equal(posted.find((e) => e.ledgerEntryId === entry!.ledgerEntryId)?.status, 'posted', 'the entry keeps its id from pending to posted');
    });

    it('a token transfer moves USDC, its fee ETH', async () => {
      const sent = await approve(call(token.address, 0n, encodeTransfer(recipient(), 25n * USDC)));
      assert.equal((await settled(acme, sent.transactionId)).status, 'completed');
      await assertWalletMatchesChain('after the token transfer');
      assert.equal((await balances()).usdc.ledger?.posted, '475');
    });

    /** A payout from the treasury (a deposit's, a refund's): paid, then mined. */
    async function completed(transactionId: string) {
      let status = (await settled(acme, transactionId, 'funds_in_transfer')).status;
      if (status === 'processing') status = (await settled(acme, transactionId)).status;
      assert.equal(status, 'completed');
    }

    async function rowOf(transactionId: string) {
      const [row] = await server.database.db.select().from(transactions).where(eq(transactions.transactionId, transactionId));
      assert.ok(row);
      return row;
    }

    let bankAccountId: string | undefined;
    async function withdraw(amount: string) {
      if (!bankAccountId) {
        const bank = await post('/v1/submit/create-bank-account', { accountId: alice.accountId, currency: 'USD', accountHolderName: 'Maria Garcia', us: { accountNumber: '000123456789', routingNumber: '021000021', accountType: 'checking' } });
        assert.equal(bank.body.status, 'verified', bank.text);
        bankAccountId = bank.body.bankAccountId as string;
      }
      const created = await post('/v1/submit/create-withdrawal', { accountId: alice.accountId, bankAccountId, chainId: 8453, amount, currency: 'USD' });
      assert.equal(created.status, 201, created.text);
      nonce++;
      await approve(created.body.unsignedTransaction, created.body.transactionId);
      assert.equal((await settled(acme, created.body.transactionId)).status, 'funds_in_transfer');
      const [payout] = await server.database.db.select().from(withdrawalPayouts).where(eq(withdrawalPayouts.transactionRowId, created.body.transactionId));
      const step = (path: string, body: unknown = {}) => adminRequest(server, 'POST', `/admin/api/withdrawals/${payout!.reference}/${path}`, { token: operator, body });
      return { transactionId: created.body.transactionId as string, step };
    }

    it('a withdrawal: the crypto to the treasury, the payout owed, the bank’s debit pending when sent and posted when settled', async () => {
      const w = await withdraw('100.00');
      await assertWalletMatchesChain('after the withdrawal’s transfer');
      assert.equal((await serviceAccount('payouts_in_transit', USD))?.balances.posted, '-100', 'the payout is owed');
      assert.equal((await serviceAccount('fees_earned', USD))?.balances.posted, '-0.5', 'the fee is earned (a credit)');
      assert.equal((await w.step('payout-sent')).status, 200);
      const clearing = await serviceAccount('fiat_clearing', USD);
      assert.deepEqual([clearing?.balances.posted, clearing?.balances.pending], ['0', '-100'], 'the bank’s debit is pending while the payout is on its way');
      assert.equal((await w.step('settled')).status, 200);
      assert.equal((await serviceAccount('fiat_clearing', USD))?.balances.posted, '-100');
      assert.equal((await serviceAccount('payouts_in_transit', USD))?.balances.posted, '0');
      const legs = await legsOf((await rowOf(w.transactionId)).id);
      assert.equal(legs.length, 3, 'the crypto, its network fee, the fiat owed');
    });

    it('a returned payout: the bank’s debit and its return both post, fee and payout reversed, the crypto refunded', async () => {
      const before = await serviceAccount('fees_earned', USD);
      const w = await withdraw('3.00');
      assert.equal((await w.step('payout-sent')).status, 200);
      assert.equal((await w.step('returned', { reason: 'account closed' })).status, 200);
      assert.equal((await serviceAccount('fees_earned', USD))?.balances.posted, before?.balances.posted, 'the fee is given back');
      assert.equal((await serviceAccount('payouts_in_transit', USD))?.balances.posted, '0');
      assert.equal((await serviceAccount('fiat_clearing', USD))?.balances.posted, '-100', 'debited and credited back: the settled payout only');
      const [refund] = await server.database.db.select().from(transactions).where(eq(transactions.refundOf, w.transactionId));
      assert.ok(refund);
      await completed(refund.transactionId);
      await assertWalletMatchesChain('after the refund');
    });

    it('a deposit: the bank holds the fiat, the treasury pays the crypto', async () => {
      const created = await post('/v1/submit/create-deposit', { accountId: alice.accountId, amount: '12.30', currency: 'USD', chainId: 8453 });
      assert.equal(created.status, 201, created.text);
      assert.equal((await post('/v1/sandbox/simulate-deposit', { transactionId: created.body.transactionId, amount: '12.30' })).status, 200);
      assert.equal((await serviceAccount('fiat_clearing', USD))?.balances.posted, '-87.7', 'the fiat arrived at the bank');
      await completed(created.body.transactionId);
      await assertWalletMatchesChain('after the deposit’s payout');
      const treasury = await serviceAccount('treasury', 'eip155:8453/slip44:60');
      assert.equal((await ethOf(server.treasury!.address)) - BigInt(treasury!.balances.postedRaw), 5n * ETH, 'the treasury’s ledger moved with the chain: payouts, refunds and their fees');
    });

    it('the trial balance sums to zero in every asset; posting a cause again changes nothing', async () => {
      const tb = await trialBalance();
      assert.equal(tb.balanced, true, JSON.stringify(tb));
      assert.deepEqual(tb.assets.map((a) => a.asset).sort(), [USD, 'eip155:8453/slip44:60', `eip155:8453/erc20:${token.address.toLowerCase()}`].sort());
      const rows = await server.database.db.select().from(transactions).where(eq(transactions.accountId, alice.accountId));
      // The ledger's figures: the chain's beside them are cached for about a block and move as blocks come.
      const ledgerOnly = async () => {
        const { eth, usdc } = await balances();
        return { eth: eth.ledger, usdc: usdc.ledger };
      };
      const before = await ledgerOnly();
      assert.ok(before.eth && before.usdc, 'the account has ledger balances in both assets');
      const count = async () => ((await conforming(`/v1/accounts/${alice.accountId}/ledger-entries?limit=100`)).body.data as Entry[]).length;
      const entries = await count();
      // A retry, a restart or a second process: the same causes posted again.
      await server.database.db.transaction((tx) => postLedger(tx, rows.flatMap(transactionPostings), server.clock.now()));
      assert.equal(await count(), entries);
      assert.deepEqual(await ledgerOnly(), before);
    });

    it('entries read a page at a time, newest first; another integrator’s account is not found; balances as of a past time', async () => {
      const all = (await conforming(`/v1/accounts/${alice.accountId}/ledger-entries?limit=100`)).body.data as Entry[];
      const first = (await conforming(`/v1/accounts/${alice.accountId}/ledger-entries?limit=2`)).body;
      assert.equal(first.hasMore, true);
      const second = (await conforming(`/v1/accounts/${alice.accountId}/ledger-entries?limit=2&startingAfter=${first.data[1].ledgerEntryId}`)).body;
      assert.deepEqual([...first.data, ...second.data].map((e: Entry) => e.ledgerEntryId), all.slice(0, 4).map((e) => e.ledgerEntryId));
      const usdcOnly = (await conforming(`/v1/accounts/${alice.accountId}/ledger-entries?limit=100&asset=${encodeURIComponent(`eip155:8453/erc20:${token.address.toLowerCase()}`)}`)).body.data as Entry[];
      assert.ok(usdcOnly.length > 0 && usdcOnly.every((e) => e.asset.symbol === 'USDC'));
      assert.equal((await conforming(`/v1/accounts/${alice.accountId}/ledger-entries`, globex)).status, 404, 'another integrator’s account is indistinguishable from a missing one');
      assert.equal((await conforming(`/v1/accounts/${crypto.randomUUID()}/ledger-entries`)).status, 404);
      assert.equal((await conforming(`/v1/accounts/${alice.accountId}/ledger-entries?asset=ETH`)).status, 400);
      const eth = all.find((e) => e.asset.symbol === 'ETH')!;
      const then = await adminRequest(server, 'GET', `/admin/api/ledger/accounts/${eth.ledgerAccountId}?asOf=2000-01-01T00:00:00.000Z`, { token: operator });
      assert.equal(then.status, 200, then.text);
      assert.equal(then.body.balances.posted, '0', 'nothing before the ledger began');
      const now = await adminRequest(server, 'GET', `/admin/api/ledger/accounts/${eth.ledgerAccountId}`, { token: operator });
      assert.equal(now.body.balances.posted, (await balances()).eth.ledger?.posted);
      const entries = await adminRequest(server, 'GET', `/admin/api/ledger/accounts/${eth.ledgerAccountId}/entries?limit=100`, { token: operator });
      assert.equal(entries.status, 200, entries.text);
      assert.deepEqual((entries.body.data as Entry[]).map((e) => e.ledgerEntryId), all.filter((e) => e.asset.symbol === 'ETH').map((e) => e.ledgerEntryId));
    });
  });
}
