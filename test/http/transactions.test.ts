import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { serializeTransaction } from 'viem';
import { authenticators, transactions, transactionTransitions, usedStampChallenges } from '../../src/db/schema/index.js';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { createCustomer, ETH, recipient, settled as settledVia, signedBody as makeSignedBody, unsignedTransfer, type Customer } from '../harness/customers.js';
import { backends } from '../harness/backends.js';
import { eventsFor } from '../harness/db.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';
import type { ChangeData, EventData, FieldError, TransactionView } from '../harness/types.js';

for (const backend of backends()) {
  describe(`transactions: send-transaction-passkey on real anvil nodes [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;
    let globex: SeededIntegrator;
    let mainnet: Anvil;
    let base: Anvil;
    let dead: Anvil;
    let alice: Customer;
    let bob: Customer;

    before(async () => {
      [mainnet, base, dead] = await Promise.all([startAnvil(1), startAnvil(8453), startAnvil(10)]);
      const deadUrl = dead.url;
      await dead.stop(); // chain 10 is configured, but its node is down
      server = await startServer(backend, { CHAIN_RPC_URLS: `1=${mainnet.url},8453=${base.url},10=${deadUrl}` });
      acme = await server.seedIntegrator('Acme');
      globex = await server.seedIntegrator('Globex');
      alice = await customer(acme);
      bob = await customer(acme);
      await base.setBalance(alice.walletAddress, ETH);
      await mainnet.setBalance(alice.walletAddress, ETH);
    });
    after(async () => {
      await server?.close();
      await Promise.all([mainnet?.stop(), base?.stop(), dead?.stop()]);
    });

    const customer = (who: SeededIntegrator, options: { approve?: boolean } = {}) => createCustomer(server, who, options);
    const signedBody = (who: Customer, unsignedTransaction: string, overrides: { timestampMs?: string; organizationId?: string; signWith?: string } = {}) =>
      makeSignedBody(server, who, unsignedTransaction, overrides);

    const submit = (chainId: number | string, body: unknown, who: SeededIntegrator = acme) => {
      server.clock.advance(1000);
      return who.client.post(`/v1/submit/send-transaction-passkey?chain_id=${chainId}`, body);
    };

    const settled = (transactionId: string, who: SeededIntegrator = acme) => settledVia(who, transactionId);

    const rowsOf = (transactionId: string) => server.database.db.select().from(transactions).where(eq(transactions.transactionId, transactionId));
    const usedChallenges = async () => (await server.database.db.select().from(usedStampChallenges)).length;

    let nonce8453 = 0;

    it('signs with the custody key, broadcasts, answers 201 processing, then completes with the receipt and events; a replay answers 200', async () => {
      const to = recipient();
      const body = signedBody(alice, unsignedTransfer(8453, nonce8453++, to, 12_345n));
      const request = { transactionId: randomUUID(), signedBody: body, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body)) };
      const res = await submit(8453, request);
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.transactionId, request.transactionId);
      assert.equal(res.body.status, 'processing');
      assert.equal(res.body.broadcastedAt, null);
      assert.equal(res.body.transactionReceipt, undefined);
      assert.equal(res.body.chainId, 8453);
      assert.equal(res.body.accountId, alice.accountId);
      assert.match(res.body.transactionHash, /^0x[0-9a-f]{64}$/);

      const done = await settled(request.transactionId);
      assert.equal(done.status, 'completed');
      assert.ok(done.broadcastedAt);
      assert.equal(done.transactionReceipt.transactionHash, res.body.transactionHash);
      assert.equal(done.transactionReceipt.from.toLowerCase(), alice.walletAddress.toLowerCase());
      assert.equal(done.transactionReceipt.to.toLowerCase(), to.toLowerCase());
      assert.equal(done.transactionReceipt.gasUsed, '21000');
      assert.equal(done.transactionReceipt.status, 'success');

      const onChain = await base.rpc<{ status: string; from: string }>('eth_getTransactionReceipt', [res.body.transactionHash]);
      assert.equal(onChain.status, '0x1');
      assert.equal(BigInt(await base.rpc<string>('eth_getBalance', [to, 'latest'])), 12_345n);

      const [row] = await rowsOf(request.transactionId);
      const events = (await eventsFor(server.database, row!.id)).map((e) => [e.type, (e.data as EventData<TransactionView>).object.status, (e.data as Partial<ChangeData<TransactionView, 'status'>>).previousAttributes?.status]);
      assert.deepEqual(events, [
        ['transaction.created', 'processing', undefined],
        ['transaction.status.changed', 'completed', 'processing'],
        ['transaction.completed', 'completed', undefined],
      ]);
      const audit = await server.database.db.select().from(transactionTransitions).where(eq(transactionTransitions.transactionRowId, row!.id)).orderBy(transactionTransitions.id);
      assert.deepEqual(
        audit.map((t) => [t.fromStatus, t.toStatus, t.actorType, t.actorId, t.detail]),
        [
          [null, 'processing', 'integrator', acme.publicKey, 'approved by passkey'],
          ['processing', 'completed', 'system', 'transaction-watcher', `mined in block ${done.transactionReceipt.blockNumber}`],
        ],
      );
      const [passkeyRow] = await server.database.db.select().from(authenticators).where(eq(authenticators.userId, alice.userId));
      assert.equal(passkeyRow!.signCount, alice.passkey.signCount, 'the counter advanced');

      // The same request again (a retry): the same transaction, as it is now.
      const replay = await submit(8453, request);
      assert.equal(replay.status, 200, replay.text);
      assert.deepEqual(replay.body, done);
      // The id is per integrator: another integrator's transactionId is its own (here: unknown to it).
      assert.equal((await globex.client.get(`/v1/query/get-transaction?transactionId=${request.transactionId}`)).status, 404);

      const list = await acme.client.get(`/v1/query/list-transactions?accountId=${alice.accountId}`);
      assert.equal(list.status, 200, list.text);
      assert.equal(list.body.data[0].transactionId, request.transactionId);
      assert.equal((await globex.client.get(`/v1/query/list-transactions?accountId=${alice.accountId}`)).status, 404);
    });

    it('lists an account’s transactions newest first with a cursor', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const body = signedBody(alice, unsignedTransfer(1, i));
        const res = await submit(1, { transactionId: randomUUID(), signedBody: body, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body)) });
        assert.equal(res.status, 201, res.text);
        ids.push(res.body.transactionId);
      }
      const first = await acme.client.get(`/v1/query/list-transactions?accountId=${alice.accountId}&limit=1`);
      assert.deepEqual([first.body.data.map((t: TransactionView) => t.transactionId), first.body.hasMore], [[ids[1]], true]);
      const second = await acme.client.get(`/v1/query/list-transactions?accountId=${alice.accountId}&limit=1&startingAfter=${ids[1]}`);
      assert.deepEqual(second.body.data.map((t: TransactionView) => t.transactionId), [ids[0]]);
      for (const id of ids) assert.equal((await settled(id)).status, 'completed');
    });

    it('a stamp is single-use: a new transactionId with the same stamp is 409 stamp_reused, before anything is signed', async () => {
      const body = signedBody(alice, unsignedTransfer(8453, nonce8453++));
      const stamp = alice.passkey.stamp(JSON.stringify(body));
      const first = await submit(8453, { transactionId: randomUUID(), signedBody: body, webAuthnStamp: stamp });
      assert.equal(first.status, 201, first.text);
      const again = { transactionId: randomUUID(), signedBody: body, webAuthnStamp: stamp };
      const res = await submit(8453, again);
      assert.equal(res.status, 409, res.text);
      assert.equal(res.body.code, 'stamp_reused');
      assert.equal((await rowsOf(again.transactionId)).length, 0);
      await settled(first.body.transactionId);
    });

    it('the same transactionId with another body is 409 transaction_id_reused', async () => {
      const body = signedBody(alice, unsignedTransfer(8453, nonce8453++));
      const transactionId = randomUUID();
      const first = await submit(8453, { transactionId, signedBody: body, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body)) });
      assert.equal(first.status, 201, first.text);
      const other = signedBody(alice, unsignedTransfer(8453, nonce8453));
      const res = await submit(8453, { transactionId, signedBody: other, webAuthnStamp: alice.passkey.stamp(JSON.stringify(other)) });
      assert.equal(res.status, 409, res.text);
      assert.equal(res.body.code, 'transaction_id_reused');
      await settled(transactionId);
    });

    it('refuses stamps that do not authorise the body: another user’s passkey, a tampered body, garbage', async () => {
      const body = signedBody(alice, unsignedTransfer(8453, nonce8453));
      const byBob = await submit(8453, { transactionId: randomUUID(), signedBody: body, webAuthnStamp: bob.passkey.stamp(JSON.stringify(body)) });
      assert.deepEqual([byBob.status, byBob.body.code, byBob.body.reason], [422, 'invalid_stamp', 'credential_mismatch'], byBob.text);

      const tampered = signedBody(alice, unsignedTransfer(8453, nonce8453, recipient(), ETH / 2n));
      const forOther = await submit(8453, { transactionId: randomUUID(), signedBody: tampered, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body)) });
      assert.deepEqual([forOther.status, forOther.body.code, forOther.body.reason], [422, 'invalid_stamp', 'challenge_mismatch'], forOther.text);

      const garbage = await submit(8453, { transactionId: randomUUID(), signedBody: body, webAuthnStamp: 'not a stamp' });
      assert.deepEqual([garbage.status, garbage.body.code, garbage.body.reason], [422, 'invalid_stamp', 'malformed_stamp'], garbage.text);
    });

    it('checks the chain, the body’s types and timestamp, and that signWith is the organization’s wallet', async () => {
      const unsigned = unsignedTransfer(8453, nonce8453);
      const body = signedBody(alice, unsigned);
      const used = await usedChallenges();
      const send = (chainId: number | string, b: ReturnType<typeof signedBody>) => submit(chainId, { transactionId: randomUUID(), signedBody: b, webAuthnStamp: alice.passkey.stamp(JSON.stringify(b)) });

      const unsupported = await send(137, body);
      assert.deepEqual([unsupported.status, unsupported.body.code], [422, 'unsupported_chain'], unsupported.text);
      const negative = await send(-1, body);
      assert.equal(negative.status, 400, negative.text);

      const mismatch = await send(1, body);
      assert.deepEqual([mismatch.status, mismatch.body.code], [422, 'chain_mismatch'], mismatch.text);

      const wrongType = await send(8453, { ...body, type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' });
      assert.equal(wrongType.status, 400, wrongType.text);
      assert.deepEqual(wrongType.body.errors.map((e: FieldError) => e.pointer), ['/signedBody/type']);
      const badTx = await send(8453, signedBody(alice, '0xdeadbeef'));
      assert.equal(badTx.status, 400, badTx.text);
      assert.deepEqual(badTx.body.errors.map((e: FieldError) => e.pointer), ['/signedBody/parameters/unsignedTransaction']);

      const stale = await send(8453, signedBody(alice, unsigned, { timestampMs: String(server.clock.now().getTime() - 6 * 60_000) }));
      assert.deepEqual([stale.status, stale.body.code], [422, 'stale_signed_body'], stale.text);

      const bobsWallet = await send(8453, signedBody(alice, unsigned, { signWith: bob.walletAddress }));
      assert.deepEqual([bobsWallet.status, bobsWallet.body.code], [422, 'sign_with_mismatch'], bobsWallet.text);
      const unknownOrg = await send(8453, signedBody(alice, unsigned, { organizationId: randomUUID() }));
      assert.deepEqual([unknownOrg.status, unknownOrg.body.code], [404, 'not_found'], unknownOrg.text);
      // Another integrator's organization is as unknown as a missing one.
      const foreign = await submit(8453, { transactionId: randomUUID(), signedBody: body, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body)) }, globex);
      assert.deepEqual([foreign.status, foreign.body.code], [404, 'not_found'], foreign.text);
      assert.equal(await usedChallenges(), used, 'refused attempts used no stamp');
    });

    it('refuses accounts that cannot transact: not active (409 account_not_active), self-custodial (409 self_custodial_account)', async () => {
      const pending = await customer(acme, { approve: false });
      await base.setBalance(pending.walletAddress, ETH);
      const body = signedBody(pending, unsignedTransfer(8453, 0));
      const res = await submit(8453, { transactionId: randomUUID(), signedBody: body, webAuthnStamp: pending.passkey.stamp(JSON.stringify(body)) });
      assert.deepEqual([res.status, res.body.code], [409, 'account_not_active'], res.text);

      const passkey = new SoftwareAuthenticator();
      const wallet = recipient();
      server.clock.advance(1000);
      const self = await acme.client.post('/v1/submit/create-individual-account', {
        userInfo: californian({ email: `self.${randomUUID()}@example.com` }),
        serviceTermsSignedAt: signedAt(),
        verificationDocuments: personDocs(),
        walletAddress: wallet,
        authenticators: [passkey.authenticator()],
      });
      assert.equal(self.status, 201, self.text);
      const selfBody = { ...signedBody(alice, unsignedTransfer(8453, 0), { organizationId: self.body.accountId, signWith: wallet }) };
      const refused = await submit(8453, { transactionId: randomUUID(), signedBody: selfBody, webAuthnStamp: passkey.stamp(JSON.stringify(selfBody)) });
      assert.deepEqual([refused.status, refused.body.code], [409, 'self_custodial_account'], refused.text);
    });

    it('maps node refusals: insufficient funds is 422 and uses nothing up (the same stamp works once funded); an unreachable node is 502 with nothing stored', async () => {
      const poor = await customer(acme);
      const body = signedBody(poor, unsignedTransfer(8453, 0));
      const stamp = poor.passkey.stamp(JSON.stringify(body));
      const request = { transactionId: randomUUID(), signedBody: body, webAuthnStamp: stamp };
      const before = await usedChallenges();
      const res = await submit(8453, request);
      assert.deepEqual([res.status, res.body.code], [422, 'insufficient_funds'], res.text);
      assert.equal((await rowsOf(request.transactionId)).length, 0);
      assert.equal(await usedChallenges(), before, 'the stamp was not used up');
      const [row] = await server.database.db.select().from(authenticators).where(eq(authenticators.userId, poor.userId));
      assert.equal(row!.signCount, 0, 'the counter was not advanced');

      await base.setBalance(poor.walletAddress, ETH);
      const retried = await submit(8453, request);
      assert.equal(retried.status, 201, retried.text);
      assert.equal((await settled(request.transactionId)).status, 'completed');

      await mainnet.setBalance(poor.walletAddress, ETH);
      const down = signedBody(poor, unsignedTransfer(10, 0));
      const downRequest = { transactionId: randomUUID(), signedBody: down, webAuthnStamp: poor.passkey.stamp(JSON.stringify(down)) };
      const unreachable = await submit(10, downRequest);
      assert.deepEqual([unreachable.status, unreachable.body.code], [502, 'chain_unavailable'], unreachable.text);
      assert.equal((await rowsOf(downRequest.transactionId)).length, 0);

      // A nonce already used on chain.
      const reused = signedBody(poor, unsignedTransfer(8453, 0, recipient(), 7n));
      const nonceRes = await submit(8453, { transactionId: randomUUID(), signedBody: reused, webAuthnStamp: poor.passkey.stamp(JSON.stringify(reused)) });
      assert.deepEqual([nonceRes.status, nonceRes.body.code], [409, 'nonce_too_low'], nonceRes.text);
    });

    it('a reverted transaction ends failed with its events', async () => {
      // A call into a contract whose code always reverts (PUSH0 PUSH0 REVERT).
      const reverter = recipient();
      await base.rpc('anvil_setCode', [reverter, '0x5f5ffd']);
      const unsigned = serializeTransaction({ chainId: 8453, type: 'eip1559', nonce: nonce8453++, to: reverter, value: 0n, gas: 50_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n });
      const body = signedBody(alice, unsigned);
      const res = await submit(8453, { transactionId: randomUUID(), signedBody: body, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body)) });
      assert.equal(res.status, 201, res.text);
      const done = await settled(res.body.transactionId);
      assert.deepEqual([done.status, done.failureReason, done.broadcastedAt], ['failed', 'reverted', null]);
      const [row] = await rowsOf(res.body.transactionId);
      assert.deepEqual(
        (await eventsFor(server.database, row!.id)).map((e) => e.type),
        ['transaction.created', 'transaction.status.changed', 'transaction.failed'],
      );
    });
  });
}
