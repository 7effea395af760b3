import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { transactions } from '../../src/db/schema/index.js';
import { DROPPED_AFTER_MS } from '../../src/workers/transaction-watcher.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, signedBody, unsignedTransfer, type Customer } from '../harness/customers.js';
import { eventsFor } from '../harness/db.js';
import { eventually } from '../harness/eventually.js';
import { useTenantsOnChain } from '../harness/tenants.js';
import type { EventData, TransactionView } from '../harness/types.js';

for (const backend of backends()) {
  describe(`transactions the node drops, and pending ones it keeps [${backend}]`, () => {
    const { server, chain: base, tenants: [acme] } = useTenantsOnChain(backend, 8453, ['Acme']);
    let alice: Customer;
    let nonce = 0;

    before(async () => {
      alice = await createCustomer(server, acme);
      await base.setBalance(alice.walletAddress, ETH);
      // Nothing is mined until a test says so: broadcast transactions wait in the node's pool.
      await base.rpc('evm_setAutomine', [false]);
    });

    async function submit(): Promise<{ transactionId: string; hash: string; rowId: string }> {
      const body = signedBody(server, alice, unsignedTransfer(8453, nonce++));
      server.clock.advance(1000);
      const res = await acme.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: randomUUID(), signedBody: body, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body)) });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.status, 'processing');
      const [row] = await server.database.db.select().from(transactions).where(eq(transactions.transactionId, res.body.transactionId));
      return { transactionId: res.body.transactionId, hash: res.body.transactionHash, rowId: row!.id };
    }
    const read = (transactionId: string) => acme.client.get(`/v1/query/get-transaction?transactionId=${transactionId}`);

    it('a pending transaction the node still knows stays processing past the drop window, and completes once mined', async () => {
      const t = await submit();
      server.clock.advance(DROPPED_AFTER_MS + 1000);
      await server.watcher!.nextRound();
      assert.equal((await read(t.transactionId)).body.status, 'processing');
      assert.deepEqual((await eventsFor(server.database, t.rowId)).map((e) => e.type), ['transaction.created']);

      await base.rpc('evm_mine', []);
      const done = await eventually(() => read(t.transactionId), (r) => r.body.status !== 'processing', 'the watcher to see the receipt', 15_000);
      assert.equal(done.body.status, 'completed', done.text);
    });

    it('a transaction the node dropped fails as dropped after 60 s, with its events', async () => {
      const t = await submit();
      await base.rpc('anvil_dropTransaction', [t.hash]);
      nonce--; // the dropped nonce is free again
      await server.watcher!.nextRound();
      assert.equal((await read(t.transactionId)).body.status, 'processing', 'not before the window has passed');

      server.clock.advance(DROPPED_AFTER_MS + 1000);
      await server.watcher!.nextRound();
      const failed = await read(t.transactionId);
      assert.deepEqual([failed.body.status, failed.body.failureReason, failed.body.broadcastedAt], ['failed', 'dropped', null], failed.text);
      assert.deepEqual(
        (await eventsFor(server.database, t.rowId)).map((e) => [e.type, (e.data as EventData<TransactionView>).object.status]),
        [
          ['transaction.created', 'processing'],
          ['transaction.status.changed', 'failed'],
          ['transaction.failed', 'failed'],
        ],
      );
    });

    it('a deposit payout the node dropped is sent again (the same signed transaction) and completes once mined', async () => {
      await base.setBalance(server.treasury!.address, ETH);
      server.clock.advance(1000);
      const created = await acme.client.post('/v1/submit/create-deposit', { accountId: alice.accountId, amount: '3.00', currency: 'USD', chainId: 8453 });
      assert.equal(created.status, 201, created.text);
      const transactionId = created.body.transactionId as string;
      server.clock.advance(1000);
      assert.equal((await acme.client.post('/v1/sandbox/simulate-deposit', { transactionId, amount: '3.00' })).status, 200);
      const paying = await eventually(() => read(transactionId), (r) => r.body.status === 'processing', 'the payout to be broadcast', 15_000);
      const hash = paying.body.transactionHash as string;

      // The node forgets it. (Not checked here: a watcher round may already have sent it again, which is the point.)
      await base.rpc('anvil_dropTransaction', [hash]);
      server.clock.advance(DROPPED_AFTER_MS + 1000);
      await server.watcher!.nextRound();
      const again = await read(transactionId);
      assert.deepEqual([again.body.status, again.body.transactionHash], ['processing', hash], 'not failed: re-sent with the same hash');
      assert.ok(await base.rpc('eth_getTransactionByHash', [hash]), 'the node has it again');

      await base.rpc('evm_mine', []);
      const done = await eventually(() => read(transactionId), (r) => r.body.status !== 'processing', 'the receipt', 15_000);
      assert.equal(done.body.status, 'completed', done.text);
      assert.equal(done.body.transactionReceipt.transactionHash, hash);
    });

    it('a round settles its transactions together; one that cannot be settled holds up none of the others', async () => {
      const sent = [await submit(), await submit(), await submit()];
      const stuck = sent[1]!;
      // A fault in settling one row (its audit row refused), as a bug or a bad row would be.
      await server.database.db.execute(
        sql.raw(`create function refuse_transition() returns trigger language plpgsql as $$
          begin if new.transaction_row_id = '${stuck.rowId}' then raise exception 'this transaction cannot be settled'; end if; return new; end $$`),
      );
      await server.database.db.execute(sql.raw('create trigger refuse_transition before insert on transaction_transitions for each row execute function refuse_transition()'));
      try {
        await base.rpc('evm_mine', []);
        for (const t of [sent[0]!, sent[2]!]) await eventually(() => read(t.transactionId), (r) => r.body.status === 'completed', 'the others settled', 15_000);
        await server.watcher!.nextRound();
        assert.equal((await read(stuck.transactionId)).body.status, 'processing', 'the faulty one waits for a later round');
        for (const t of [sent[0]!, sent[2]!]) {
          assert.deepEqual(
            (await eventsFor(server.database, t.rowId)).map((e) => [e.sequence, e.type]),
            [
              [1, 'transaction.created'],
              [2, 'transaction.status.changed'],
              [3, 'transaction.completed'],
            ],
          );
        }
        assert.deepEqual((await eventsFor(server.database, stuck.rowId)).map((e) => e.type), ['transaction.created'], 'nothing of the failed batch was kept');
      } finally {
        await server.database.db.execute(sql.raw('drop trigger refuse_transition on transaction_transitions'));
        await server.database.db.execute(sql.raw('drop function refuse_transition()'));
      }
      const done = await eventually(() => read(stuck.transactionId), (r) => r.body.status !== 'processing', 'the faulty one settled once it can be', 15_000);
      assert.equal(done.body.status, 'completed', done.text);
      assert.deepEqual(
        (await eventsFor(server.database, stuck.rowId)).map((e) => e.type),
        ['transaction.created', 'transaction.status.changed', 'transaction.completed'],
      );
    });
  });
}
