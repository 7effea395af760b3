import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { parseTransaction, type Hex } from 'viem';
import { withdrawalPayouts } from '../../src/db/schema/index.js';
import { createOperator } from '../../src/domain/operators/operators.js';
import { adminRequest } from '../harness/admin.js';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, settled, signedBody, unsignedTransfer, type Customer } from '../harness/customers.js';
import { eventsFor, rowsContaining } from '../harness/db.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';

/** 10^12 wei per dollar (the sandbox rate), 0.5% fee rounded up to the cent. */
const WEI_PER_USD = 10n ** 12n;

interface Withdrawal {
  transactionId: string;
  status: string;
  kind: string;
  failureReason?: string;
  unsignedTransaction: string;
  withdrawal: { amount: string; currency: string; fee: string; cryptoAmountWei: string; asset: string; cryptoAmount: string; cryptoAmountRaw: string; bankAccountId: string; last4: string; quoteExpiresAt: string };
}

for (const backend of backends()) {
  describe(`withdrawals: bank account -> quote -> passkey approval -> on chain -> fiat payout [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;
    let globex: SeededIntegrator;
    let base: Anvil;
    let alice: Customer;
    let bankAccountId: string;
    let token: string;

    before(async () => {
      base = await startAnvil(8453);
      // SEPA is not a payout rail here: EUR withdrawals are unavailable, as on a deployment without that rail.
      server = await startServer(backend, { CHAIN_RPC_URLS: `8453=${base.url}`, WITHDRAWAL_RAILS: 'ach' });
      acme = await server.seedIntegrator('Acme');
      globex = await server.seedIntegrator('Globex');
      alice = await createCustomer(server, acme);
      await base.setBalance(alice.walletAddress, 10n * ETH);
      await base.setBalance(server.treasury!.address, 10n * ETH);
      const bank = await post('/v1/submit/create-bank-account', { accountId: alice.accountId, currency: 'USD', accountHolderName: 'Maria Garcia', us: { accountNumber: '000123456789', routingNumber: '021000021', accountType: 'checking' } });
      assert.equal(bank.body.status, 'verified', bank.text);
      bankAccountId = bank.body.bankAccountId;
      token = (await createOperator(server.database, 'payouts', server.clock.now())).token;
    });
    after(async () => {
      await server?.close();
      await base?.stop();
    });

    function post(path: string, body: unknown, who: SeededIntegrator = acme) {
      server.clock.advance(1000);
      return who.client.post(path, body);
    }
    const create = (body: Record<string, unknown> = {}, who: SeededIntegrator = acme) =>
      post('/v1/submit/create-withdrawal', { accountId: alice.accountId, bankAccountId, chainId: 8453, amount: '100.00', currency: 'USD', ...body }, who);
    const approve = (w: Withdrawal, unsignedTransaction = w.unsignedTransaction) => {
      const body = signedBody(server, alice, unsignedTransaction);
      return post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: w.transactionId, signedBody: body, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body)) });
    };
    const balance = async (address: string) => BigInt(await base.rpc<string>('eth_getBalance', [address, 'latest']));
    const nonceOf = async (address: string) => Number(BigInt(await base.rpc<string>('eth_getTransactionCount', [address, 'latest'])));

    it('quotes amount + fee in wei and issues the unsigned transfer to the treasury; nothing is signed yet', async () => {
      const nonce = await nonceOf(alice.walletAddress);
      const res = await create();
      assert.equal(res.status, 201, res.text);
      const w: Withdrawal = res.body;
      assert.equal(w.kind, 'withdrawal');
      assert.equal(w.status, 'created');
      const wei = String(10050n * WEI_PER_USD / 100n);
      assert.deepEqual({ ...w.withdrawal, quoteExpiresAt: undefined }, { amount: '100.00', currency: 'USD', fee: '0.50', cryptoAmountWei: wei, asset: 'ETH', cryptoAmount: '0.0001005', cryptoAmountRaw: wei, bankAccountId, last4: '6789', quoteExpiresAt: undefined });
      const validFor = Date.parse(w.withdrawal.quoteExpiresAt) - server.clock.now().getTime();
      assert.ok(validFor > 55_000 && validFor <= 60_000, `valid for 60 s (${validFor} ms left)`);
      const unsigned = parseTransaction(w.unsignedTransaction as Hex);
      assert.equal(unsigned.to?.toLowerCase(), server.treasury!.address.toLowerCase());
      assert.equal(unsigned.value, 10050n * WEI_PER_USD / 100n);
      assert.equal(unsigned.chainId, 8453);
      assert.equal(unsigned.nonce, nonce);
      assert.equal(await nonceOf(alice.walletAddress), nonce, 'nothing broadcast');
      const got = await acme.client.get(`/v1/query/get-transaction?transactionId=${w.transactionId}`);
      assert.deepEqual(got.body, w, 'get-transaction shows it as created');
    });

    it('completes: approval broadcasts, the receipt moves it to funds_in_transfer, the payout settles', async () => {
      const w: Withdrawal = (await create({ amount: '12.34' })).body;
      const treasuryBefore = await balance(server.treasury!.address);
      const approved = await approve(w);
      assert.equal(approved.status, 201, approved.text);
      assert.equal(approved.body.status, 'processing');
      const inTransfer = await settled(acme, w.transactionId);
      assert.equal(inTransfer.status, 'funds_in_transfer', JSON.stringify(inTransfer));
      assert.equal(await balance(server.treasury!.address) - treasuryBefore, BigInt(w.withdrawal.cryptoAmountWei), 'the crypto reached the treasury');

      const done = await post('/v1/sandbox/simulate-withdrawal', { transactionId: w.transactionId, outcome: 'completed' });
      assert.equal(done.status, 200, done.text);
      assert.equal(done.body.status, 'completed');
      assert.ok(done.body.transactionReceipt && done.body.broadcastedAt);
      const again = await post('/v1/sandbox/simulate-withdrawal', { transactionId: w.transactionId, outcome: 'returned' });
      assert.deepEqual([again.status, again.body.code], [409, 'invalid_transaction_state']);

      const types = (await eventsFor(server.database, w.transactionId)).map((e) => [e.type, (e.data as { object: { status: string } }).object.status]);
      assert.deepEqual(types, [
        ['transaction.created', 'created'],
        ['transaction.status.changed', 'processing'],
        ['transaction.status.changed', 'funds_in_transfer'],
        ['transaction.status.changed', 'completed'],
        ['transaction.completed', 'completed'],
      ]);
    });

    it('returned: the withdrawal fails as payout_returned and its crypto is refunded to the wallet exactly once', async () => {
      const w: Withdrawal = (await create({ amount: '7.00' })).body;
      assert.equal((await approve(w)).status, 201);
      assert.equal((await settled(acme, w.transactionId)).status, 'funds_in_transfer');
      const walletBefore = await balance(alice.walletAddress);
      const returned = await post('/v1/sandbox/simulate-withdrawal', { transactionId: w.transactionId, outcome: 'returned' });
      assert.equal(returned.status, 200, returned.text);
      assert.deepEqual([returned.body.status, returned.body.failureReason], ['failed', 'payout_returned']);

      const list = await acme.client.get(`/v1/query/list-transactions?accountId=${alice.accountId}&limit=100`);
      const refunds = list.body.data.filter((t: { kind: string; refund?: { withdrawalTransactionId: string } }) => t.kind === 'refund' && t.refund?.withdrawalTransactionId === w.transactionId);
      assert.equal(refunds.length, 1, 'one refund');
      const refund = await settled(acme, refunds[0].transactionId, 'funds_in_transfer').then((t) => (t.status === 'processing' ? settled(acme, t.transactionId) : t));
      assert.equal(refund.status, 'completed', JSON.stringify(refund));
      assert.equal(await balance(alice.walletAddress) - walletBefore, BigInt(w.withdrawal.cryptoAmountWei), 'refunded in full, once');
      const twice = await post('/v1/sandbox/simulate-withdrawal', { transactionId: w.transactionId, outcome: 'returned' });
      assert.equal(twice.status, 409);
    });

    it('the approval must be for exactly what was issued, before the quote expires', async () => {
      const w: Withdrawal = (await create()).body;
      const other = unsignedTransfer(8453, parseTransaction(w.unsignedTransaction as Hex).nonce!, server.treasury!.address, 1n);
      const mismatch = await approve(w, other);
      assert.deepEqual([mismatch.status, mismatch.body.code], [409, 'transaction_mismatch'], mismatch.text);

      server.clock.advance(60_000);
      const nonce = await nonceOf(alice.walletAddress);
      const late = await approve(w);
      assert.deepEqual([late.status, late.body.code], [409, 'quote_expired'], late.text);
      const got = await acme.client.get(`/v1/query/get-transaction?transactionId=${w.transactionId}`);
      assert.deepEqual([got.body.status, got.body.failureReason], ['failed', 'quote_expired']);
      assert.equal(await nonceOf(alice.walletAddress), nonce, 'nothing was signed or sent');
      assert.equal((await approve(w)).status, 409, 'a failed withdrawal cannot be approved');
    });

    it('two concurrent approvals of one withdrawal broadcast once', async () => {
      const w: Withdrawal = (await create({ amount: '1.00' })).body;
      const nonce = await nonceOf(alice.walletAddress);
      server.clock.advance(1000);
      const bodies = [signedBody(server, alice, w.unsignedTransaction), signedBody(server, alice, w.unsignedTransaction, { timestampMs: String(server.clock.now().getTime() - 1) })];
      // One counter for both stamps (as two browser tabs asserting at once would): both pass verification, so the
      // race is decided in the database, not by which stamp's counter the server happens to see first.
      const signCount = alice.passkey.signCount + 1;
      alice.passkey.signCount = signCount;
      const results = await Promise.all(
        bodies.map((body) => acme.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: w.transactionId, signedBody: body, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body), { signCount }) })),
      );
      const statuses = results.map((r) => r.status).sort();
      assert.equal(statuses.filter((s) => s === 201).length, 1, results.map((r) => r.text).join('\n'));
      // The loser: already approved (409), busy (503), or the counter moved by the winner (422 counter_regression).
      const lost = (r: { status: number; body: { reason?: string } }) => r.status === 409 || r.status === 503 || (r.status === 422 && r.body.reason === 'counter_regression');
      assert.ok(results.every((r) => r.status === 201 || lost(r)), results.map((r) => r.text).join('\n'));
      assert.equal((await settled(acme, w.transactionId)).status, 'funds_in_transfer');
      assert.equal(await nonceOf(alice.walletAddress), nonce + 1, 'one transaction from the wallet');
    });

    it('is approved with a one-time code as well (send-transaction-otp)', async () => {
      const w: Withdrawal = (await create({ amount: '2.50' })).body;
      server.clock.advance(31_000);
      assert.equal((await post('/v1/otp/init', { userId: alice.userId, channel: 'email' })).status, 201);
      const code: string = (await acme.client.get(`/v1/sandbox/otp-outbox?userId=${alice.userId}`)).body.data[0].code;
      const verified = await post('/v1/otp/verify', { userId: alice.userId, code });
      assert.equal(verified.status, 200, verified.text);
      const res = await post('/v1/submit/send-transaction-otp?chain_id=8453', { transactionId: w.transactionId, signedBody: signedBody(server, alice, w.unsignedTransaction), approvalToken: verified.body.approvalToken });
      assert.equal(res.status, 201, res.text);
      assert.equal((await settled(acme, w.transactionId)).status, 'funds_in_transfer');
    });

    it('a rail the deployment does not pay out on is 422 not_offered naming /bankAccountId and the rails it does', async () => {
      const sepa = await post('/v1/submit/create-bank-account', { accountId: alice.accountId, currency: 'EUR', accountHolderName: 'Maria Garcia', iban: { iban: 'DE89370400440532013000' } });
      assert.equal(sepa.body.status, 'verified', sepa.text);
      const res = await create({ bankAccountId: sepa.body.bankAccountId, currency: 'EUR' });
      assert.deepEqual([res.status, res.body.code], [422, 'not_offered'], res.text);
      assert.deepEqual(res.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code]), [['/bankAccountId', 'rail_not_offered']]);
      assert.match(res.body.detail, /over SEPA .*\(WITHDRAWAL_RAILS: ACH\)$/);
    });

    it('refuses what cannot be paid: unverified or foreign bank accounts, another currency, a zero amount', async () => {
      const pending = await post('/v1/submit/create-bank-account', { accountId: alice.accountId, currency: 'USD', accountHolderName: 'Somebody Else', us: { accountNumber: '55501', routingNumber: '021000021', accountType: 'savings' } });
      const notVerified = await create({ bankAccountId: pending.body.bankAccountId });
      assert.deepEqual([notVerified.status, notVerified.body.code], [409, 'bank_account_not_verified']);
      const eur = await create({ currency: 'EUR' });
      assert.equal(eur.status, 400);
      assert.equal(eur.body.errors[0].pointer, '/currency');
      const zero = await create({ amount: '0.00' });
      assert.equal(zero.status, 400);
      const foreign = await create({}, globex);
      assert.equal(foreign.status, 404);
      const bob = await createCustomer(server, acme);
      const othersBank = await create({ accountId: bob.accountId });
      assert.equal(othersBank.status, 404, 'a bank account of another account is not found');
      const chain = await create({ chainId: 1 });
      assert.deepEqual([chain.status, chain.body.code], [422, 'unsupported_chain']);
    });

    it('operators pay it by reference: the beneficiary’s full details, sent, then settled', async () => {
      const w: Withdrawal = (await create({ amount: '3.00' })).body;
      assert.equal((await approve(w)).status, 201);
      assert.equal((await settled(acme, w.transactionId)).status, 'funds_in_transfer');
      const [payout] = await server.database.db.select().from(withdrawalPayouts).where(eq(withdrawalPayouts.transactionRowId, w.transactionId));
      assert.ok(payout);
      const admin = (method: string, path: string, body?: unknown) => adminRequest(server, method, `/admin/api/withdrawals/${payout.reference}${path}`, { token, body });
      const open = await adminRequest(server, 'GET', '/admin/api/withdrawals?status=pending&limit=100', { token });
      assert.equal(open.status, 200, open.text);
      assert.ok((open.body.data as { reference: string }[]).some((p) => p.reference === payout.reference), 'in the operators’ list of payouts to make');
      const shown = await admin('GET', '');
      assert.equal(shown.status, 200, shown.text);
      assert.equal(shown.body.beneficiary.accountNumber, '000123456789');
      assert.equal(shown.body.beneficiary.routingNumber, '021000021');
      assert.equal(shown.body.status, 'pending');
      assert.equal((await admin('POST', '/payout-sent', {})).body.status, 'funds_in_transfer');
      assert.equal((await admin('POST', '/payout-sent', {})).status, 409);
      assert.equal((await admin('POST', '/returned', {})).status, 400, 'a return needs its reason');
      const done = await admin('POST', '/settled', {});
      assert.equal(done.body.status, 'completed', done.text);
      assert.equal((await admin('GET', '')).body.status, 'settled');
      assert.deepEqual(await rowsContaining(server.database, '000123456789'), [], 'paid out, and the number is still nowhere in clear');
      const stillOpen = await adminRequest(server, 'GET', '/admin/api/withdrawals?limit=100', { token });
      assert.ok(!(stillOpen.body.data as { reference: string }[]).some((p) => p.reference === payout.reference), 'settled payouts leave the list');
    });
  });
}
