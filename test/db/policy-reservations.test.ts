import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { selectRows } from '../../src/db/database.js';
import { releaseReservations, reserve, reservedSince, reservedSinceQuery } from '../../src/db/repositories/policy-reservations.js';
import { backends } from '../harness/backends.js';
import { createCustomer } from '../harness/customers.js';
import { useTenants } from '../harness/tenants.js';

// The data the enforcement of max_amount windows stands on (docs/policies.md#data-model-for-the-enforcement): a
// transaction reserves once per asset, released reservations and those before the window do not count, and the sum is
// one range scan of policy_reservations_window_idx.

const HOUR = 3_600_000;

for (const backend of backends()) {
  describe(`policy reservations [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme']);
    let accountId: string;

    before(async () => {
      accountId = (await createCustomer(server, acme)).accountId;
    });

    it('sums the unreleased amounts of one account, chain and asset inside the window; a transaction reserves an asset once', async () => {
      const db = server.database.db;
      const now = new Date('2030-01-10T12:00:00Z');
      const key = { accountId, chainId: 8453, asset: 'native' };
      const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR);
      const put = (transactionId: string, amount: bigint, hoursAgo: number, asset = 'native') =>
        reserve(db, { ...key, asset, id: randomUUID(), integratorId: acme.integratorId, transactionId, amount, at: at(hoursAgo) });

      const [t1, t2, t3, t4] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      assert.equal(await put(t1, 10n ** 30n, 1), true);
      assert.equal(await put(t1, 5n, 1), false, 'the same transaction and asset again: nothing added');
      assert.equal(await put(t2, 7n, 30), true);
      assert.equal(await put(t3, 11n, 2), true);
      assert.equal(await put(t4, 13n, 1, '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'), true, 'another asset');

      assert.equal(await reservedSince(db, key, at(24)), 10n ** 30n + 11n);
      assert.equal(await reservedSince(db, key, at(7 * 24)), 10n ** 30n + 11n + 7n);
      assert.equal(await releaseReservations(db, t3, now), 1);
      assert.equal(await releaseReservations(db, t3, now), 0, 'released once');
      assert.equal(await reservedSince(db, key, at(24)), 10n ** 30n);
      assert.equal(await reservedSince(db, { ...key, chainId: 1 }, at(24)), 0n);
    });

    it('reads the window through policy_reservations_window_idx', async () => {
      const query = reservedSinceQuery(server.database.db, { accountId, chainId: 8453, asset: 'native' }, new Date('2030-01-09T12:00:00Z')).toSQL();
      const text = query.sql.replace(/\$(\d+)/g, (_m, n: string) => {
        const value = query.params[Number(n) - 1];
        return typeof value === 'number' ? String(value) : `'${String(value instanceof Date ? value.toISOString() : value)}'`;
      });
      // A few rows: only with sequential scans off does the plan say whether the index can serve the read.
      const plan = await server.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        return selectRows<{ 'QUERY PLAN': string }>(tx, sql.raw(`explain ${text}`));
      });
      const lines = plan.map((r) => r['QUERY PLAN']).join('\n');
      assert.match(lines, /policy_reservations_window_idx/, lines);
      assert.doesNotMatch(lines, /Seq Scan/, lines);
    });
  });
}
