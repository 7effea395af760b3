import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { serializeTransaction } from 'viem';
import { transactions, usedStampChallenges } from '../../src/db/schema/index.js';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { createCustomer, ETH, recipient, settled as settledVia, signedBody as makeSignedBody, unsignedTransfer, type Customer } from '../harness/customers.js';
import { backends } from '../harness/backends.js';
import { eventsFor } from '../harness/db.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import { startRpcProxy, type RpcProxy } from '../harness/rpc-proxy.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';
import type { EventData, TransactionView } from '../harness/types.js';

/*
 * A transaction is committed signed but not sent, and sent after the commit (docs/transactions.md#sending): a node
 * that is slow, absent or refusing after the checks never holds a database transaction, and nothing committed is
 * lost. The node is a real anvil behind a proxy that can drop or hold eth_sendRawTransaction alone.
 */
for (const backend of backends()) {
  describe(`transactions: sent after their commit [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;
    let node: Anvil;
    let proxy: RpcProxy;
    let alice: Customer;
    let nonce = 0;

    before(async () => {
      node = await startAnvil(8453);
      proxy = await startRpcProxy(node.url);
      server = await startServer(backend, { CHAIN_RPC_URLS: `8453=${proxy.url}` });
      acme = await server.seedIntegrator('Acme');
      alice = await createCustomer(server, acme);
      await node.setBalance(alice.walletAddress, ETH);
    });
    after(async () => {
      await server?.close();
      await proxy?.close();
      await node?.stop();
    });

    const submit = (unsigned: string) => {
      server.clock.advance(1000);
      const body = makeSignedBody(server, alice, unsigned);
      const request = { transactionId: randomUUID(), signedBody: body, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body)) };
      return { request, response: acme.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', request) };
    };
    const rowOf = async (transactionId: string) => (await server.database.db.select().from(transactions).where(eq(transactions.transactionId, transactionId)))[0]!;
    const eventsOf = async (rowId: string) => (await eventsFor(server.database, rowId)).map((e) => [e.type, (e.data as EventData<TransactionView>).object.status]);

    it('a node out of reach after the checks: 201 processing, kept signed; the watcher sends it once the node is back', async () => {
      proxy.mode = 'drop';
      const { request, response } = submit(unsignedTransfer(8453, nonce++));
      const res = await response;
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.status, 'processing');
      const row = await rowOf(request.transactionId);
      assert.ok(row.signedRaw, 'the signed transaction is kept until the node takes it');
      assert.equal(row.broadcastedAt, null);

      // Still out of reach: a round changes nothing.
      await server.watcher!.nextRound();
      assert.ok((await rowOf(request.transactionId)).signedRaw);

      proxy.mode = 'pass';
      const sendsBefore = proxy.sends;
      const done = await settledVia(acme, request.transactionId);
      assert.equal(done.status, 'completed');
      assert.equal(done.transactionHash, res.body.transactionHash);
      assert.ok(proxy.sends > sendsBefore, 'the watcher sent it');
      const after = await rowOf(request.transactionId);
      assert.equal(after.signedRaw, null);
      assert.ok(after.broadcastedAt);
      assert.deepEqual(await eventsOf(row.id), [
        ['transaction.created', 'processing'],
        ['transaction.status.changed', 'completed'],
        ['transaction.completed', 'completed'],
      ]);
    });

    it('a slow node holds no database transaction: other writes commit while the send waits, then it answers 201', async () => {
      proxy.mode = 'hold';
      const { request, response } = submit(unsignedTransfer(8453, nonce++));
      await proxy.held();
      // The transaction is committed before the node answers, and the database serves other writes meanwhile
      // (on the embedded database, a transaction held open would have blocked this one).
      assert.equal((await rowOf(request.transactionId)).status, 'processing');
      server.clock.advance(1000);
      const other = await acme.client.post('/v1/submit/create-individual-account', {
        userInfo: californian({ email: `slow.${randomUUID()}@example.com` }),
        serviceTermsSignedAt: signedAt(),
        verificationDocuments: personDocs(),
      });
      assert.equal(other.status, 201, other.text);
      proxy.mode = 'pass';
      proxy.release();
      const res = await response;
      assert.equal(res.status, 201, res.text);
      assert.equal((await settledVia(acme, request.transactionId)).status, 'completed');
    });

    it('a refusal after the commit (fee below the base fee): 502 chain_rejected naming the transaction, which failed as refused with its events', async () => {
      proxy.mode = 'pass';
      const unsigned = serializeTransaction({ chainId: 8453, type: 'eip1559', nonce: nonce, to: recipient(), value: 1n, gas: 21_000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n });
      const usedBefore = (await server.database.db.select().from(usedStampChallenges)).length;
      const { request, response } = submit(unsigned);
      const res = await response;
      assert.deepEqual([res.status, res.body.code, res.body.reason, res.body.transactionId], [502, 'chain_rejected', 'fee_too_low', request.transactionId], res.text);
      const row = await rowOf(request.transactionId);
      assert.deepEqual([row.status, row.failureReason, row.signedRaw], ['failed', 'refused', null]);
      assert.equal((await server.database.db.select().from(usedStampChallenges)).length, usedBefore + 1, 'the stamp approved what was recorded');
      assert.deepEqual(await eventsOf(row.id), [
        ['transaction.created', 'processing'],
        ['transaction.status.changed', 'failed'],
        ['transaction.failed', 'failed'],
      ]);
      // The same request again is answered with the transaction as it is.
      server.clock.advance(1000);
      const replay = await acme.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', request);
      assert.deepEqual([replay.status, replay.body.status, replay.body.failureReason], [200, 'failed', 'refused'], replay.text);
    });

    /** Sends the requests at once; both pass the approval check before either commits, and the node's nonce check of the second waits until the first was answered. */
    const raceAfterSend = async (requests: object[]) => {
      proxy.mode = 'pass';
      proxy.holdCalls = 'eth_getTransactionCount';
      try {
        // Signed a second apart: identical signed bytes would be the replay guard's, not this race.
        const answers = requests.map((r) => {
          server.clock.advance(1000);
          return acme.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', r);
        });
        await proxy.callsHeld(2);
        proxy.releaseCall();
        const first = await Promise.race(answers);
        assert.equal(first.status, 201, first.text);
        nonce++;
        proxy.releaseCall();
        const second = (await Promise.all(answers)).find((a) => a !== first)!;
        assert.equal((await settledVia(acme, first.body.transactionId)).status, 'completed');
        return { first, second };
      } finally {
        proxy.holdCalls = undefined;
      }
    };
    const stamped = () => {
      server.clock.advance(1000);
      const body = makeSignedBody(server, alice, unsignedTransfer(8453, nonce));
      return { signedBody: body, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body)) };
    };

    it('two requests racing with one stamp, the second checked by the node after the first was sent: 409 stamp_reused, not the spent nonce', async () => {
      const approved = stamped();
      const requests = [randomUUID(), randomUUID()].map((transactionId) => ({ transactionId, ...approved }));
      const { second } = await raceAfterSend(requests);
      assert.deepEqual([second.status, second.body.code], [409, 'stamp_reused'], second.text);
      const rows = await Promise.all(requests.map((r) => server.database.db.select().from(transactions).where(eq(transactions.transactionId, r.transactionId))));
      assert.deepEqual(rows.map((r) => r.length).sort(), [0, 1], 'the loser left nothing behind');
    });

    it('the same request twice at once, the second checked by the node after the first was sent: answered as a replay, one transaction', async () => {
      const request = { transactionId: randomUUID(), ...stamped() };
      const { first, second } = await raceAfterSend([request, request]);
      assert.deepEqual([second.status, second.body.transactionId, second.body.transactionHash], [200, request.transactionId, first.body.transactionHash], second.text);
      assert.equal((await server.database.db.select().from(transactions).where(eq(transactions.transactionId, request.transactionId))).length, 1);
    });

    it('what the node would refuse at once is refused before anything is written', async () => {
      proxy.mode = 'pass';
      const sendsBefore = proxy.sends;
      const { request, response } = submit(unsignedTransfer(8453, nonce, recipient(), 10n * ETH));
      const res = await response;
      assert.deepEqual([res.status, res.body.code], [422, 'insufficient_funds'], res.text);
      assert.equal((await server.database.db.select().from(transactions).where(eq(transactions.transactionId, request.transactionId))).length, 0);
      assert.equal(proxy.sends, sendsBefore, 'nothing was sent');
    });

    it('a watcher round leaves a transaction its request is sending to that request: sent once', async () => {
      proxy.mode = 'hold';
      const sendsBefore = proxy.sends;
      const { request, response } = submit(unsignedTransfer(8453, nonce++));
      await proxy.held();
      const round = server.watcher!.nextRound();
      const first = await Promise.race([round.then(() => 'the round ended'), proxy.sendsReached(sendsBefore + 2).then(() => 'a second send')]);
      proxy.mode = 'pass';
      proxy.release();
      assert.equal(first, 'the round ended');
      assert.equal(proxy.sends, sendsBefore + 1);
      const res = await response;
      assert.equal(res.status, 201, res.text);
      await round;
      assert.equal((await settledVia(acme, request.transactionId)).status, 'completed');
    });

    it('a pending transaction’s receipt is asked once per block, not on every watcher round', async () => {
      proxy.mode = 'pass';
      await node.rpc('evm_setAutomine', [false]);
      try {
        const { request, response } = submit(unsignedTransfer(8453, nonce++));
        const res = await response;
        assert.equal(res.status, 201, res.text);
        const asks = () => proxy.calls.filter((c) => c.method === 'eth_getTransactionReceipt' && c.first === res.body.transactionHash).length;
        await server.watcher!.nextRound();
        const first = asks();
        assert.ok(first >= 1, 'asked once it was sent');
        for (let i = 0; i < 3; i++) await server.watcher!.nextRound();
        assert.equal(asks(), first, 'no block since: not asked again');
        await node.rpc('evm_mine', []);
        assert.equal((await settledVia(acme, request.transactionId)).status, 'completed');
        assert.ok(asks() > first, 'asked again once the head moved');
      } finally {
        await node.rpc('evm_setAutomine', [true]);
      }
    });
  });
}
