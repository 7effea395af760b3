import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { selectRows } from '../../src/db/database.js';
import { addToRateLimitWindows, purgeEndedRateLimitWindows } from '../../src/db/repositories/rate-limit-windows.js';
import { PostgresRateCounter } from '../../src/http/auth/postgres-rate-counter.js';
import { purgeExpired } from '../../src/workers/maintenance.js';
import { backends } from '../harness/backends.js';
import { openTestDatabase, type TestDatabase } from '../harness/db.js';

const T0 = Date.UTC(2026, 5, 1, 12);
const MINUTE = 60_000;
const delta = (key: string, start: number, count: number, length = MINUTE) => ({ key, windowStart: new Date(start), windowEnd: new Date(start + length), count });

for (const backend of backends()) {
  describe(`shared rate-limit windows [${backend}]`, () => {
    let test: TestDatabase;

    before(async () => {
      test = await openTestDatabase(backend);
    });
    after(() => test.close());

    it('is an unlogged table', async () => {
      const [row] = await selectRows<{ relpersistence: string }>(test.database.db, sql`select relpersistence from pg_class where relname = 'rate_limit_windows'`);
      assert.equal(row?.relpersistence, 'u');
    });

    it('adds deltas and answers each window’s total, duplicates of one window merged', async () => {
      const db = test.database.db;
      const first = await addToRateLimitWindows(db, [delta('a', T0, 3), delta('b', T0, 1)]);
      assert.deepEqual(first.map((r) => [r.key, r.count]).sort(), [
        ['a', 3],
        ['b', 1],
      ]);
      const second = await addToRateLimitWindows(db, [delta('a', T0, 2), delta('a', T0, 1), delta('a', T0 + MINUTE, 5), delta('a', T0, 4, 2 * MINUTE)]);
      const byWindow = (r: { windowStart: Date; windowEnd: Date }) => (r.windowStart.getTime() - T0) * 10 + (r.windowEnd.getTime() - T0) / MINUTE;
      assert.deepEqual(
        second.sort((x, y) => byWindow(x) - byWindow(y)).map((r) => [r.key, r.windowStart.getTime() - T0, r.windowEnd.getTime() - T0, r.count]),
        [
          ['a', 0, MINUTE, 6],
          ['a', 0, 2 * MINUTE, 4],
          ['a', MINUTE, 2 * MINUTE, 5],
        ],
      );
    });

    it('loses no addition when several processes add to the same rows at once', async () => {
      const db = test.database.db;
      const keys = ['x', 'y', 'z'];
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => addToRateLimitWindows(db, (i % 2 ? keys : [...keys].reverse()).map((key) => delta(key, T0, 1)))),
      );
      const rows = await selectRows<{ key: string; count: number }>(db, sql`select key, count from rate_limit_windows where key in ('x', 'y', 'z') order by key`);
      assert.deepEqual(
        rows.map((r) => [r.key, Number(r.count)]),
        keys.map((k) => [k, 20]),
      );
    });

    it('is shared by two counters over one database: one limit', async () => {
      const db = test.database.db;
      const make = () => new PostgresRateCounter({ add: (d) => addToRateLimitWindows(db, d), now: () => T0, log: { warn: () => {} }, flushIntervalMs: 5 });
      const [a, b] = [make(), make()];
      const max = 10;
      let allowed = 0;
      for (let i = 0; i < 40; i++) {
        const counter = i % 2 === 0 ? a : b;
        if ((await counter.incr('shared', MINUTE, max)).current <= max) allowed++;
      }
      await Promise.all([a.close(), b.close()]);
      assert.ok(allowed >= max && allowed <= max + Math.floor(0.75 * max), `${allowed} allowed`);
      const [row] = await selectRows<{ count: number }>(db, sql`select count from rate_limit_windows where key = 'shared'`);
      assert.equal(Number(row?.count), 40);
    });

    it('purges the windows that ended, from the maintenance round too', async () => {
      const db = test.database.db;
      await addToRateLimitWindows(db, [delta('old', T0 - 10 * MINUTE, 1), delta('live', T0 + 5 * MINUTE, 1, 3_600_000)]);
      const purged = await purgeEndedRateLimitWindows(db, new Date(T0 + 30_000));
      assert.ok(purged >= 1);
      const left = await selectRows<{ key: string }>(db, sql`select key from rate_limit_windows where key in ('old', 'live')`);
      assert.deepEqual(left.map((r) => r.key), ['live']);
      // Every row left ends before T0 + 10 h.
      const [{ n } = { n: 0 }] = await selectRows<{ n: number }>(db, sql`select count(*)::int as n from rate_limit_windows`);
      assert.ok(Number(n) > 0);
      assert.equal((await purgeExpired(db, () => new Date(T0 + 10 * 3_600_000))).rateLimitWindows, Number(n));
      assert.equal((await selectRows(db, sql`select 1 from rate_limit_windows`)).length, 0);
    });
  });
}
