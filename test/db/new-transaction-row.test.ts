import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { runWrites } from '../../src/db/pending-writes.js';
import { findTransaction } from '../../src/db/repositories/transactions.js';
import { insertTransactionWrite, newTransactionRow } from '../../src/db/repositories/transaction-writes.js';
import { wallets } from '../../src/db/schema/index.js';
import { newId } from '../../src/domain/ids.js';
import { backends } from '../harness/backends.js';
import { createCustomer, recipient } from '../harness/customers.js';
import { startServer, type TestServer } from '../harness/server.js';

/*
 * A new transfer's row is written by the same statement as its events (send-transaction.ts), so its view is built
 * from newTransactionRow before the insert: the row foreseen must be the row stored, column for column.
 */
for (const backend of backends()) {
  describe(`a transaction row foreseen before its insert [${backend}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(backend);
    });
    after(() => server.close());

    it('is the row the insert stores; a column PostgreSQL computes cannot be left out', async () => {
      const acme = await server.seedIntegrator();
      const customer = await createCustomer(server, acme);
      const db = server.database.db;
      const [wallet] = await db.select().from(wallets).where(eq(wallets.accountId, customer.accountId));
      const now = server.clock.now();
      const values = {
        id: newId(),
        integratorId: acme.integratorId,
        transactionId: randomUUID(),
        accountId: customer.accountId,
        walletId: wallet!.id,
        chainId: 8453,
        approval: 'passkey' as const,
        status: 'processing' as const,
        requestHash: 'ab'.repeat(32),
        signedBody: { type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', parameters: { b: 1, a: [2, { z: null }] } },
        fromAddress: wallet!.address,
        toAddress: recipient(),
        value: '1000000000000000',
        nonce: 7,
        transactionHash: `0x${'cd'.repeat(32)}`,
        signedRaw: '0x02f8',
        createdAt: now,
        updatedAt: now,
      };
      const row = newTransactionRow(values);
      assert.deepEqual(await runWrites(db, [insertTransactionWrite(row)]), [1]);
      assert.deepEqual(await findTransaction(db, acme.integratorId, values.transactionId), row);
      assert.deepEqual(await runWrites(db, [insertTransactionWrite({ ...row, id: newId() })]), [0], 'a taken transactionId inserts nothing');

      const { createdAt: _createdAt, ...withoutCreatedAt } = values;
      assert.throws(() => newTransactionRow(withoutCreatedAt), /createdAt is computed on insert/);
    });
  });
}
