import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { transactions } from '../../src/db/schema/index.js';
import { createOperator } from '../../src/domain/operators/operators.js';
import { adminRequest } from '../harness/admin.js';
import type { Anvil } from '../harness/anvil.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, type Customer } from '../harness/customers.js';
import { eventsFor } from '../harness/db.js';
import { eventually } from '../harness/eventually.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenantsOnChain } from '../harness/tenants.js';
import type { ChangeData, EventData, TransactionView } from '../harness/types.js';

const WEI_PER_USD = 10n ** 12n;
const WEI_PER_EUR = 11n * 10n ** 11n;

/** Reads a transaction through the API until `ok`. */
function until(who: SeededIntegrator, transactionId: string, ok: (body: TransactionView) => boolean, what: string) {
  return eventually(
    () => who.client.get(`/v1/query/get-transaction?transactionId=${transactionId}`),
    (r) => r.status === 200 && ok(r.body),
    what,
    15_000,
  ).then((r) => r.body);
}

const adminCall = (server: TestServer, token: string, method: string, path: string, body?: unknown) => adminRequest(server, method, `/admin/api${path}`, { token, body });

for (const backend of backends()) {
  describe(`deposits: create-deposit, simulate-deposit, payout on anvil [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;
    let globex: SeededIntegrator;
    let base: Anvil;
    let alice: Customer;

    before(async () => {
      ({ server, chain: base, tenants: [acme, globex] } = await startTenantsOnChain(backend, 8453, ['Acme', 'Globex']));
      alice = await createCustomer(server, acme);
      await base.setBalance(server.treasury!.address, 10n * ETH);
    });
    after(() => server?.close());

    const post = (path: string, body: unknown, who: SeededIntegrator = acme) => {
      server.clock.advance(1000);
      return who.client.post(path, body);
    };
    const deposit = (body: Record<string, unknown>, who: SeededIntegrator = acme) => post('/v1/submit/create-deposit', { accountId: alice.accountId, amount: '250.00', currency: 'USD', chainId: 8453, ...body }, who);
    const balance = async (address: string) => BigInt(await base.rpc<string>('eth_getBalance', [address, 'latest']));

    it('USD: waiting_for_funds with ACH/wire instructions and a unique reference', async () => {
      const res = await deposit({});
      assert.equal(res.status, 201, res.text);
      const t = res.body;
      assert.equal(t.status, 'waiting_for_funds');
      assert.equal(t.kind, 'deposit');
      assert.equal(t.broadcastedAt, null);
      assert.equal(t.transactionHash, null);
      assert.equal(t.accountId, alice.accountId);
      const i = t.fiatDepositInstructions;
      assert.deepEqual(Object.keys(i).sort(), [
        'bank_account_number',
        'bank_address',
        'bank_beneficiary_address',
        'bank_beneficiary_name',
        'bank_name',
        'bank_routing_number',
        'currency',
        'iban_bic',
        'iban_number',
        'payment_rails',
        'reference',
      ]);
      assert.equal(i.currency, 'USD');
      assert.deepEqual(i.payment_rails, ['ach', 'wire']);
      assert.match(i.bank_routing_number, /^\d{9}$/);
      assert.ok(i.bank_account_number);
      assert.deepEqual([i.iban_number, i.iban_bic], ['', '']);
      assert.match(i.reference, /^DEP-[0-9A-Z]{12}$/);
      // Expires DEPOSIT_EXPIRY_HOURS (7 days by default) after its creation.
      const expiresAt = new Date(new Date(t.createdAt).getTime() + 168 * 3_600_000).toISOString();
      // The native coin: wei at DEPOSIT_RATES, shown as ETH too (docs/tokens.md#deposits-and-withdrawals).
      const wei = String(250n * WEI_PER_USD);
      assert.deepEqual(t.deposit, { amount: '250.00', currency: 'USD', reference: i.reference, receivedAmount: null, expiresAt, asset: 'ETH', cryptoAmount: '0.00025', cryptoAmountRaw: wei, cryptoAmountWei: wei });

      const again = await deposit({});
      assert.notEqual(again.body.fiatDepositInstructions.reference, i.reference);

      const read = await acme.client.get(`/v1/query/get-transaction?transactionId=${t.transactionId}`);
      assert.deepEqual(read.body, t);
      const [row] = await server.database.db.select().from(transactions).where(eq(transactions.transactionId, t.transactionId));
      assert.deepEqual((await eventsFor(server.database, row!.id)).map((e) => [e.type, (e.data as EventData<TransactionView>).object.status]), [['transaction.created', 'waiting_for_funds']]);
    });

    it('EUR: SEPA instructions with IBAN and BIC', async () => {
      const res = await deposit({ currency: 'EUR', amount: '10' });
      assert.equal(res.status, 201, res.text);
      const i = res.body.fiatDepositInstructions;
      assert.equal(i.currency, 'EUR');
      assert.deepEqual(i.payment_rails, ['sepa']);
      assert.match(i.iban_number, /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/);
      assert.match(i.iban_bic, /^[A-Z0-9]{8,11}$/);
      assert.deepEqual([i.bank_account_number, i.bank_routing_number], ['', '']);
    });

    it('simulate-deposit: funds_in_transfer, then a payout from the treasury on chain, then completed with the receipt and events', async () => {
      const created = (await deposit({ amount: '12.34' })).body;
      const before = await balance(alice.walletAddress);
      const funded = await post('/v1/sandbox/simulate-deposit', { transactionId: created.transactionId, amount: '12.30' });
      assert.equal(funded.status, 200, funded.text);
      assert.equal(funded.body.status, 'funds_in_transfer');
      assert.equal(funded.body.deposit.receivedAmount, '12.30');

      const done = await until(acme, created.transactionId, (t) => t.status === 'completed' || t.status === 'failed', 'the deposit to complete');
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.ok(done.broadcastedAt);
      assert.match(done.transactionHash, /^0x[0-9a-f]{64}$/);
      assert.equal(done.transactionReceipt.from.toLowerCase(), server.treasury!.address.toLowerCase());
      assert.equal(done.transactionReceipt.to.toLowerCase(), alice.walletAddress.toLowerCase());
      assert.equal(done.transactionReceipt.status, 'success');
      // What arrived is paid out (1,230 cents at 10^12 wei per USD), not what was asked.
      assert.equal((await balance(alice.walletAddress)) - before, 1230n * WEI_PER_USD / 100n);

      const [row] = await server.database.db.select().from(transactions).where(eq(transactions.transactionId, created.transactionId));
      const events = (await eventsFor(server.database, row!.id)).map((e) => [e.type, (e.data as EventData<TransactionView>).object.status, (e.data as Partial<ChangeData<TransactionView, 'status'>>).previousAttributes?.status]);
      assert.deepEqual(events, [
        ['transaction.created', 'waiting_for_funds', undefined],
        ['transaction.status.changed', 'funds_in_transfer', 'waiting_for_funds'],
        ['transaction.status.changed', 'processing', 'funds_in_transfer'],
        ['transaction.status.changed', 'completed', 'processing'],
        ['transaction.completed', 'completed', undefined],
      ]);

      const twice = await post('/v1/sandbox/simulate-deposit', { transactionId: created.transactionId, amount: '1' });
      assert.deepEqual([twice.status, twice.body.code, twice.body.fromStatus], [409, 'invalid_transaction_state', 'completed'], twice.text);
    });

    it('payouts in a row use consecutive treasury nonces and all complete; EUR converts at its own rate', async () => {
      const bob = await createCustomer(server, acme);
      const created = [];
      for (let k = 0; k < 3; k++) created.push((await post('/v1/submit/create-deposit', { accountId: bob.accountId, amount: '1.00', currency: 'EUR', chainId: 8453 })).body);
      for (const c of created) assert.equal((await post('/v1/sandbox/simulate-deposit', { transactionId: c.transactionId, amount: '1.00' })).status, 200);
      const done = await Promise.all(created.map((c) => until(acme, c.transactionId, (t) => t.status === 'completed' || t.status === 'failed', 'the deposits to complete')));
      assert.deepEqual(done.map((d) => d.status), ['completed', 'completed', 'completed']);
      assert.equal(await balance(bob.walletAddress), 3n * WEI_PER_EUR);
      const rows = await Promise.all(created.map(async (c) => (await server.database.db.select().from(transactions).where(eq(transactions.transactionId, c.transactionId)))[0]!));
      const nonces = rows.map((r) => Number(r.nonce)).sort((a, b) => a - b);
      assert.deepEqual(nonces, [nonces[0], nonces[0]! + 1, nonces[0]! + 2]);
    });

    it('an unfunded treasury leaves the deposit in funds_in_transfer with payoutError, and it is paid once funded', async () => {
      const poorChainDeposit = (await deposit({ amount: '1.00' })).body;
      const treasury = server.treasury!.address;
      const saved = await balance(treasury);
      await base.setBalance(treasury, 0n);
      try {
        assert.equal((await post('/v1/sandbox/simulate-deposit', { transactionId: poorChainDeposit.transactionId, amount: '1.00' })).status, 200);
        const stuck = await until(acme, poorChainDeposit.transactionId, (t) => t.deposit!.payoutError !== undefined, 'a failed payout attempt');
        assert.equal(stuck.status, 'funds_in_transfer');
        assert.match(stuck.deposit.payoutError, /insufficient_funds/);
      } finally {
        await base.setBalance(treasury, saved);
      }
      // Past the backoff of the failed attempt.
      server.clock.advance(10_000);
      server.watcher?.kick();
      const done = await until(acme, poorChainDeposit.transactionId, (t) => t.status === 'completed', 'the payout after funding the treasury');
      assert.equal(done.deposit.payoutError, undefined);
    });

    it('validates input; refuses inactive accounts, accounts without a wallet and unknown chains; another integrator’s records are 404', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ amount: '0' }, '/amount'],
        [{ amount: '1.234' }, '/amount'],
        [{ amount: 5 }, '/amount'],
        [{ amount: '-1' }, '/amount'],
        [{ currency: 'GBP' }, '/currency'],
        [{ chainId: -1 }, '/chainId'],
        [{ accountId: 'x' }, '/accountId'],
      ];
      for (const [body, pointer] of cases) {
        const res = await deposit(body);
        assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
        assert.ok(res.body.errors.some((e: { pointer: string }) => e.pointer === pointer), `${JSON.stringify(body)} names ${pointer}: ${res.text}`);
      }
      const chain = await deposit({ chainId: 1 });
      assert.deepEqual([chain.status, chain.body.code], [422, 'unsupported_chain'], chain.text);

      const pending = await createCustomer(server, acme, { approve: false });
      const inactive = await deposit({ accountId: pending.accountId });
      assert.deepEqual([inactive.status, inactive.body.code], [409, 'account_not_active'], inactive.text);

      // An account without a wallet (an entity's from before entities had wallets) is in test/http/entity-wallets.test.ts.

      const foreign = await deposit({}, globex);
      assert.deepEqual([foreign.status, foreign.body.code], [404, 'not_found'], foreign.text);
      const mine = (await deposit({})).body;
      const simulated = await post('/v1/sandbox/simulate-deposit', { transactionId: mine.transactionId, amount: '1.00' }, globex);
      assert.deepEqual([simulated.status, simulated.body.code], [404, 'not_found'], simulated.text);
      assert.equal((await globex.client.get(`/v1/query/get-transaction?transactionId=${mine.transactionId}`)).status, 404);
    });

    it('simulate-deposit of a transfer is 404 (not a deposit); a zero amount is 400', async () => {
      const zero = await post('/v1/sandbox/simulate-deposit', { transactionId: randomUUID(), amount: '0.00' });
      assert.deepEqual([zero.status, zero.body.errors?.[0]?.pointer], [400, '/amount'], zero.text);
      const missing = await post('/v1/sandbox/simulate-deposit', { transactionId: randomUUID(), amount: '1.00' });
      assert.deepEqual([missing.status, missing.body.code], [404, 'not_found'], missing.text);
    });

    it('a deposit whose funds do not arrive by expiresAt fails as expired, with its events; funds after that are refused', async () => {
      const waiting = (await deposit({ amount: '3.00' })).body;
      const funded = (await deposit({ amount: '4.00' })).body;
      assert.equal((await post('/v1/sandbox/simulate-deposit', { transactionId: funded.transactionId, amount: '4.00' })).status, 200);
      // One second before its expiry the watcher leaves it; one second after, it fails.
      server.clock.advance(new Date(waiting.deposit.expiresAt).getTime() - server.clock.now().getTime() - 1000);
      await server.watcher!.nextRound();
      assert.equal((await acme.client.get(`/v1/query/get-transaction?transactionId=${waiting.transactionId}`)).body.status, 'waiting_for_funds');
      server.clock.advance(2000);
      await server.watcher!.nextRound();
      const expired = (await acme.client.get(`/v1/query/get-transaction?transactionId=${waiting.transactionId}`)).body;
      assert.deepEqual([expired.status, expired.failureReason], ['failed', 'expired'], JSON.stringify(expired));
      const [row] = await server.database.db.select().from(transactions).where(eq(transactions.transactionId, waiting.transactionId));
      assert.deepEqual(
        (await eventsFor(server.database, row!.id)).map((e) => e.type),
        ['transaction.created', 'transaction.status.changed', 'transaction.failed'],
      );
      // Funded before its expiry: paid out, never expired.
      assert.notEqual((await acme.client.get(`/v1/query/get-transaction?transactionId=${funded.transactionId}`)).body.failureReason, 'expired');
      const late = await post('/v1/sandbox/simulate-deposit', { transactionId: waiting.transactionId, amount: '3.00' });
      assert.deepEqual([late.status, late.body.code], [409, 'invalid_transaction_state'], late.text);
    });
  });

  describe(`deposits in production: no simulation, operators record funds and cancel [${backend}]`, () => {
    let server: TestServer;
    let base: Anvil;
    let token: string;
    let operatorId: string;
    let integrator: SeededIntegrator;
    const treasuryKey = `0x${'11'.repeat(32)}`;

    before(async () => {
      ({ server, chain: base, tenants: [integrator] } = await startTenantsOnChain(backend, 8453, ['Prod'], {
        APP_ENV: 'production',
        ENCRYPTION_KEY: 'cd'.repeat(32),
        TREASURY_PRIVATE_KEY: treasuryKey,
        DEPOSIT_BANK_USD: JSON.stringify({ bank_name: 'First Example Bank', bank_address: '2 Main St', bank_beneficiary_name: 'Example Custody LLC', bank_beneficiary_address: '3 Main St', bank_account_number: '987654321', bank_routing_number: '011000015' }),
      }));
      const operator = await createOperator(server.database, 'Bank feed', server.clock.now());
      token = operator.token;
      operatorId = operator.operatorId;
      await base.setBalance(server.treasury!.address, ETH);
    });
    after(() => server?.close());

    /** An active custodial customer in production: complete, so under review at once, then approved by an operator. */
    async function activeCustomer(): Promise<Customer> {
      const passkey = new SoftwareAuthenticator({ rpId: 'wallet.example', origin: 'https://wallet.example' });
      const customer = await createCustomer(server, integrator, { approve: false, passkey });
      const decided = await adminCall(server, token, 'POST', `/reviews/user/${customer.userId}/decisions`, { decision: 'approve', reasons: ['documents match'] });
      assert.equal(decided.status, 200, decided.text);
      return customer;
    }

    it('uses the configured bank; EUR without DEPOSIT_BANK_EUR is 422 not_offered naming /currency; there is no simulate-deposit', async () => {
      const carol = await activeCustomer();
      server.clock.advance(1000);
      const usd = await integrator.client.post('/v1/submit/create-deposit', { accountId: carol.accountId, amount: '5.00', currency: 'USD', chainId: 8453 });
      assert.equal(usd.status, 201, usd.text);
      assert.equal(usd.body.fiatDepositInstructions.bank_name, 'First Example Bank');
      assert.equal(usd.body.fiatDepositInstructions.bank_routing_number, '011000015');
      server.clock.advance(1000);
      const eur = await integrator.client.post('/v1/submit/create-deposit', { accountId: carol.accountId, amount: '5.00', currency: 'EUR', chainId: 8453 });
      assert.deepEqual([eur.status, eur.body.code], [422, 'not_offered'], eur.text);
      assert.deepEqual(eur.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code]), [['/currency', 'currency_not_offered']]);
      assert.match(eur.body.detail, /DEPOSIT_BANK_EUR/);
      server.clock.advance(1000);
      const simulate = await integrator.client.post('/v1/sandbox/simulate-deposit', { transactionId: usd.body.transactionId, amount: '5.00' });
      assert.equal(simulate.status, 404);
    });

    it('an operator records the funds by reference and the payout completes; another deposit is cancelled', async () => {
      const dave = await activeCustomer();
      const create = async () => {
        server.clock.advance(1000);
        const res = await integrator.client.post('/v1/submit/create-deposit', { accountId: dave.accountId, amount: '100', currency: 'USD', chainId: 8453 });
        assert.equal(res.status, 201, res.text);
        return res.body;
      };
      const paid = await create();
      const reference = paid.fiatDepositInstructions.reference;
      const unauthenticated = await fetch(`${server.url}/admin/api/deposits/${reference}/funds-received`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":"100"}' });
      assert.equal(unauthenticated.status, 401);

      const looked = await adminCall(server, token, 'GET', `/deposits/${reference}`);
      assert.deepEqual([looked.status, looked.body.transactionId, looked.body.integratorId], [200, paid.transactionId, integrator.integratorId], looked.text);
      const received = await adminCall(server, token, 'POST', `/deposits/${reference}/funds-received`, { amount: '100.00' });
      assert.deepEqual([received.status, received.body.status], [200, 'funds_in_transfer'], received.text);
      const done = await until(integrator, paid.transactionId, (t) => t.status === 'completed', 'the payout');
      assert.equal(done.transactionReceipt.to.toLowerCase(), dave.walletAddress.toLowerCase());
      assert.equal(BigInt(await base.rpc<string>('eth_getBalance', [dave.walletAddress, 'latest'])), 100n * WEI_PER_USD);

      const cancelled = await create();
      const ref2 = cancelled.fiatDepositInstructions.reference;
      const refused = await adminCall(server, token, 'POST', `/deposits/${reference}/cancel`, { reason: 'too late' });
      assert.deepEqual([refused.status, refused.body.code], [409, 'invalid_transaction_state'], refused.text);
      const cancel = await adminCall(server, token, 'POST', `/deposits/${ref2}/cancel`, { reason: 'no funds within 30 days' });
      assert.deepEqual([cancel.status, cancel.body.status, cancel.body.failureReason], [200, 'failed', 'cancelled'], cancel.text);
      const late = await adminCall(server, token, 'POST', `/deposits/${ref2}/funds-received`, { amount: '100' });
      assert.deepEqual([late.status, late.body.code], [409, 'invalid_transaction_state'], late.text);
      const [paidRow] = await server.database.db.select().from(transactions).where(eq(transactions.transactionId, paid.transactionId));
      const audited = await adminCall(server, token, 'GET', `/deposits/${reference}`);
      assert.deepEqual(
        audited.body.history.map((h: { fromStatus: string | null; toStatus: string; actorType: string; actorId: string | null; detail: string | null }) => [h.fromStatus, h.toStatus, h.actorType, h.actorId, h.detail]),
        [
          [null, 'waiting_for_funds', 'integrator', integrator.publicKey, 'deposit of 100 USD'],
          ['waiting_for_funds', 'funds_in_transfer', 'operator', operatorId, 'received 100.00 USD'],
          ['funds_in_transfer', 'processing', 'system', 'transaction-watcher', `payout from the treasury, nonce ${paidRow!.nonce}`],
          ['processing', 'completed', 'system', 'transaction-watcher', `mined in block ${done.transactionReceipt.blockNumber}`],
        ],
      );
      const cancelledAudit = await adminCall(server, token, 'GET', `/deposits/${ref2}`);
      assert.deepEqual(cancelledAudit.body.history.at(-1).detail, 'no funds within 30 days');
      const unknown = await adminCall(server, token, 'GET', '/deposits/DEP-000000000000');
      assert.equal(unknown.status, 404);

      const [row] = await server.database.db.select().from(transactions).where(eq(transactions.transactionId, cancelled.transactionId));
      assert.deepEqual(
        (await eventsFor(server.database, row!.id)).map((e) => e.type),
        ['transaction.created', 'transaction.status.changed', 'transaction.failed'],
      );
    });
  });
}
