import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { ApiResponse } from '../harness/client.js';
import type { WindowCount } from '../../src/db/repositories/rate-limit-windows.js';
import { CAREFUL_WAIT_MS, PostgresRateCounter, SEND_SHARE } from '../../src/http/auth/postgres-rate-counter.js';
import { MemoryRateCounter } from '../../src/http/auth/rate-counter.js';
import { RedisRateCounter } from '../../src/http/auth/redis-rate-counter.js';
import { freePort } from '../harness/process.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';
import { redisAnswers, takeRedisKeys, testRedisUrl, uniqueRedisPrefix } from '../harness/redis.js';

/** The rate_limit_windows table as a map: what addToRateLimitWindows does, one statement at a time. */
function sharedTable() {
  const rows = new Map<string, number>();
  let statements = 0;
  let failing = false;
  return {
    rows,
    get statements() {
      return statements;
    },
    fail(on: boolean) {
      failing = on;
    },
    add: async (deltas: WindowCount[]): Promise<WindowCount[]> => {
      await new Promise((resolve) => setImmediate(resolve));
      statements++;
      if (failing) throw new Error('connection terminated');
      return deltas.map((d) => {
        const id = `${d.key}@${d.windowStart.getTime()}`;
        const total = (rows.get(id) ?? 0) + d.count;
        rows.set(id, total);
        return { ...d, count: total };
      });
    },
  };
}

const silent = { warn: () => {} };
/** A turn of the event loop, as between two HTTP requests: a flush under way gets its answer. */
const tick = () => new Promise((resolve) => setImmediate(resolve));
/** A flush interval longer than any test: only the counts a request waits for are sent. */
const NEVER = 3_600_000;
const WINDOW = 60_000;

describe('the PostgreSQL rate counter', () => {
  it('counts one process exactly, and answers the time left in the epoch-aligned window', async () => {
    const table = sharedTable();
    const now = 10 * WINDOW + 15_000;
    const counter = new PostgresRateCounter({ add: table.add, now: () => now, log: silent, flushIntervalMs: NEVER });
    const seen = [];
    for (let i = 0; i < 12; i++) seen.push(await counter.incr('k', WINDOW, 10));
    assert.deepEqual(
      seen.map((c) => c.current),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    );
    assert.ok(seen.every((c) => c.ttl === 45_000));
    // The first request, and those from 3/4 of the limit up to it, waited for the shared total; the rest did not.
    assert.deepEqual([...table.rows], [[`k@${10 * WINDOW}`, 10]]);
    await counter.close();
    assert.deepEqual([...table.rows], [[`k@${10 * WINDOW}`, 12]], 'close sends what is left');
  });

  it('gives requests that wait together their rank among every process’s requests', async () => {
    const table = sharedTable();
    const a = new PostgresRateCounter({ add: table.add, now: () => 0, log: silent, flushIntervalMs: NEVER });
    const b = new PostgresRateCounter({ add: table.add, now: () => 0, log: silent, flushIntervalMs: NEVER });
    const ranks = await Promise.all([a.incr('k', WINDOW, 5), b.incr('k', WINDOW, 5), a.incr('k', WINDOW, 5), b.incr('k', WINDOW, 5), a.incr('k', WINDOW, 5)]);
    assert.deepEqual(ranks.map((r) => r.current).sort((x, y) => x - y), [1, 2, 3, 4, 5]);
    await Promise.all([a.close(), b.close()]);
  });

  it('sends a busy key every twentieth of the limit, without waiting for the interval', async () => {
    const table = sharedTable();
    const counter = new PostgresRateCounter({ add: table.add, now: () => 0, log: silent, flushIntervalMs: NEVER });
    await counter.incr('k', WINDOW, 200); // the window's first request waits for its total: one statement
    for (let i = 0; i < 30; i++) {
      await counter.incr('k', WINDOW, 200);
      await tick();
    }
    assert.equal(table.statements, 1 + 3, 'one more statement every 200 / 20 = 10 requests');
    assert.equal(table.rows.get('k@0'), 31);
    await counter.close();
  });

  it('keeps two processes within a few twentieths of the limit, and exact when each reads the total before deciding', async () => {
    for (const max of [20, 200]) {
      for (const flushBetween of [false, true]) {
        const table = sharedTable();
        const a = new PostgresRateCounter({ add: table.add, now: () => 0, log: silent, flushIntervalMs: NEVER });
        const b = new PostgresRateCounter({ add: table.add, now: () => 0, log: silent, flushIntervalMs: NEVER });
        let allowed = 0;
        for (let i = 0; i < 3 * max; i++) {
          const counter = i % 2 === 0 ? a : b;
          if ((await counter.incr('k', WINDOW, max)).current <= max) allowed++;
          // As when the flush interval passes between two requests.
          if (flushBetween) await counter.flush();
          else await tick();
        }
        if (flushBetween) assert.equal(allowed, max);
        else assert.ok(allowed >= max && allowed <= max + 2 * 2 * Math.ceil(max * SEND_SHARE), `${allowed} allowed, limit ${max}`);
        await Promise.all([a.close(), b.close()]);
        assert.equal(table.rows.get('k@0'), 3 * max, 'every request is counted, refused ones too');
      }
    }
  });

  it('lets a process that was idle decide on its old total for at most about a twentieth of the limit', async () => {
    const table = sharedTable();
    const a = new PostgresRateCounter({ add: table.add, now: () => 0, log: silent, flushIntervalMs: NEVER });
    const b = new PostgresRateCounter({ add: table.add, now: () => 0, log: silent, flushIntervalMs: NEVER });
    const max = 200;
    assert.equal((await a.incr('k', WINDOW, max)).current, 1);
    // B takes the rest of the limit while A sees nothing of it.
    for (let i = 0; i < max - 1; i++) assert.ok((await b.incr('k', WINDOW, max)).current <= max);
    let excess = 0;
    for (let i = 0; i < 50; i++) {
      if ((await a.incr('k', WINDOW, max)).current <= max) excess++;
      await tick();
    }
    assert.ok(excess > 0 && excess <= 2 * Math.ceil(max * SEND_SHARE), `${excess} allowed over the limit`);
    await Promise.all([a.close(), b.close()]);
  });

  it('refuses over the limit from what it knows, without a round trip', async () => {
    const table = sharedTable();
    const counter = new PostgresRateCounter({ add: table.add, now: () => 0, log: silent, flushIntervalMs: NEVER });
    for (let i = 0; i < 3; i++) await counter.incr('k', WINDOW, 3);
    const before = table.statements;
    for (let i = 0; i < 50; i++) assert.equal((await counter.incr('k', WINDOW, 3)).current, 4 + i);
    assert.equal(table.statements, before);
    await counter.close();
  });

  it('starts a new window at the boundary, and sends the last one’s counts all the same', async () => {
    const table = sharedTable();
    let now = WINDOW - 1;
    const counter = new PostgresRateCounter({ add: table.add, now: () => now, log: silent, flushIntervalMs: NEVER });
    assert.deepEqual(await counter.incr('k', WINDOW, 100), { current: 1, ttl: 1 });
    await counter.incr('k', WINDOW, 100);
    now = WINDOW;
    assert.deepEqual(await counter.incr('k', WINDOW, 100), { current: 1, ttl: WINDOW });
    await counter.close();
    assert.deepEqual([...table.rows].sort(), [
      ['k@0', 2],
      [`k@${WINDOW}`, 1],
    ]);
  });

  it('decides on its own counts while PostgreSQL fails (one warning), and sends them once it works again', async () => {
    const table = sharedTable();
    const warnings: string[] = [];
    const infos: string[] = [];
    const counter = new PostgresRateCounter({
      add: table.add,
      now: () => 0,
      log: { warn: (_o, msg) => warnings.push(msg), info: (_o, msg) => infos.push(msg) },
      flushIntervalMs: NEVER,
    });
    table.fail(true);
    for (let i = 1; i <= 4; i++) assert.equal((await counter.incr('k', WINDOW, 3)).current, i);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /PostgreSQL failed/);
    table.fail(false);
    await counter.flush();
    assert.equal(table.rows.get('k@0'), 4);
    assert.equal(infos.length, 1);
    assert.equal((await counter.incr('k', WINDOW, 3)).current, 5);
    await counter.close();
  });

  it('holds a request at most CAREFUL_WAIT_MS when PostgreSQL stalls, and none while the stall is known', async () => {
    const warnings: string[] = [];
    let stalled = 0;
    // A statement that never answers: the driver's own timeout fails it later (here after 600 ms).
    const add = () => {
      stalled++;
      return new Promise<WindowCount[]>((_resolve, reject) => setTimeout(() => reject(new Error('Query read timeout')), 600));
    };
    const counter = new PostgresRateCounter({ add, now: () => 0, log: { warn: (_o, msg) => warnings.push(msg) }, flushIntervalMs: NEVER });
    let started = Date.now();
    assert.equal((await counter.incr('k', WINDOW, 10)).current, 1);
    const waited = Date.now() - started;
    assert.ok(waited >= CAREFUL_WAIT_MS - 20 && waited < CAREFUL_WAIT_MS + 200, `${waited} ms`);
    await new Promise((resolve) => setTimeout(resolve, 700));
    assert.equal(warnings.length, 1);
    started = Date.now();
    for (let i = 2; i <= 12; i++) assert.equal((await counter.incr('k', WINDOW, 10)).current, i);
    assert.ok(Date.now() - started < 50, 'no request waits while PostgreSQL is known to fail');
    assert.equal(stalled, 1, 'and none sends at once: the retry comes on its interval');
  });

  it('flushes on its interval without being asked', async () => {
    const table = sharedTable();
    const counter = new PostgresRateCounter({ add: table.add, now: () => Date.now(), log: silent, flushIntervalMs: 20 });
    await counter.incr('k', 3_600_000, 1000);
    await counter.incr('k', 3_600_000, 1000);
    await counter.incr('k', 3_600_000, 1000);
    const start = Date.now();
    while ([...table.rows.values()][0] !== 3 && Date.now() - start < 2_000) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal([...table.rows.values()][0], 3);
    await counter.close();
  });
});

describe('the in-memory rate counter', () => {
  it('starts a key’s window at its first request', async () => {
    let now = 1_000;
    const counter = new MemoryRateCounter(() => now);
    assert.deepEqual(await counter.incr('k', 500), { current: 1, ttl: 500 });
    now = 1_400;
    assert.deepEqual(await counter.incr('k', 500), { current: 2, ttl: 100 });
    now = 1_500;
    assert.deepEqual(await counter.incr('k', 500), { current: 1, ttl: 500 });
  });

  it('keeps at most maxKeys keys', async () => {
    const counter = new MemoryRateCounter(() => 0, 3);
    for (const key of ['a', 'b', 'c', 'd']) await counter.incr(key, 1000);
    assert.equal((await counter.incr('d', 1000)).current, 2);
    assert.equal((await counter.incr('a', 1000)).current, 1, 'the oldest key made room');
  });
});

const REDIS_URL = testRedisUrl();
const redisUp = await redisAnswers();

describe('the Redis rate counter', () => {
  it('shares one exact count between two processes', { skip: redisUp ? false : `no Redis at ${REDIS_URL}` }, async () => {
    const keyPrefix = uniqueRedisPrefix();
    const [a, b] = await Promise.all([0, 1].map(() => RedisRateCounter.open({ url: REDIS_URL, keyPrefix, log: silent, now: Date.now })));
    try {
      const counts = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a! : b!).incr('k', 60_000, 10)));
      assert.deepEqual(
        counts.map((c) => c.current).sort((x, y) => x - y),
        Array.from({ length: 30 }, (_, i) => i + 1),
      );
      assert.ok(counts.every((c) => c.ttl > 0 && c.ttl <= 60_000));
      assert.deepEqual([...(await takeRedisKeys(keyPrefix))], [[`${keyPrefix}rate-limit:60000:k`, '30']]);
    } finally {
      await Promise.all([a!.close(), b!.close()]);
    }
  });

  it('counts in the process, with one warning and no long wait, when Redis does not answer', async () => {
    const warnings: { obj: unknown; msg: string }[] = [];
    const started = Date.now();
    // Nothing listens there: the connection is refused at once, and ioredis keeps trying in the background.
    const counter = await RedisRateCounter.open({
      url: `redis://127.0.0.1:${await freePort()}`,
      keyPrefix: 'unused:',
      log: { warn: (obj, msg) => warnings.push({ obj, msg }) },
      now: Date.now,
    });
    try {
      const counts = [];
      for (let i = 0; i < 5; i++) counts.push((await counter.incr('k', 60_000, 3)).current);
      assert.deepEqual(counts, [1, 2, 3, 4, 5]);
      assert.ok(Date.now() - started < 3_000, `${Date.now() - started} ms`);
      assert.equal(warnings.length, 1, JSON.stringify(warnings));
      assert.match(warnings[0]!.msg, /Redis failed: counting in this process alone/);
    } finally {
      await counter.close();
    }
  });

  it('does not hold a request longer than its command timeout when Redis hangs', async () => {
    // Answers the connection's handshake (CLIENT SETNAME, INFO), then never a count: a Redis that stalls.
    const sockets: Socket[] = [];
    const hung = createServer((socket) => {
      sockets.push(socket);
      socket.on('data', (chunk) => {
        const text = chunk.toString().toUpperCase();
        if (text.includes('CLIENT')) socket.write('+OK\r\n');
        if (text.includes('INFO')) socket.write('$12\r\nloading:0\r\n\r\n');
      });
    });
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const port = (hung.address() as AddressInfo).port;
    const warnings: string[] = [];
    const counter = await RedisRateCounter.open({
      url: `redis://127.0.0.1:${port}`,
      keyPrefix: 'unused:',
      log: { warn: (_obj, msg) => warnings.push(msg) },
      now: Date.now,
      commandTimeoutMs: 100,
    });
    try {
      let started = Date.now();
      assert.equal((await counter.incr('k', 60_000, 3)).current, 1);
      assert.ok(Date.now() - started < 1_000, `the first request waited ${Date.now() - started} ms`);
      assert.equal(warnings.length, 1, 'the timeout was reported');
      // Redis is then left alone for a while: the next requests do not wait at all.
      started = Date.now();
      for (let i = 2; i <= 5; i++) assert.equal((await counter.incr('k', 60_000, 3)).current, i);
      assert.ok(Date.now() - started < 50, `${Date.now() - started} ms`);
    } finally {
      await counter.close();
      for (const socket of sockets) socket.destroy();
      hung.close();
    }
  });
});

describe('a server whose Redis does not answer', () => {
  let server: TestServer;
  let acme: SeededIntegrator;
  const lines: string[] = [];
  let startedInMs = 0;

  before(async () => {
    const started = Date.now();
    ({ server, tenants: [acme] } = await startTenants(
      'pglite',
      ['Acme'],
      { REDIS_URL: `redis://127.0.0.1:${await freePort()}`, RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '3600' },
      { logDestination: { write: (line: string) => void lines.push(line) } },
    ));
    startedInMs = Date.now() - started;
  });
  after(() => server.close());

  it('starts, and limits each credential in the process (fail open to per-process counts), saying so once', async () => {
    const statuses: number[] = [];
    let first: Headers | undefined;
    let limited: ApiResponse | undefined;
    for (let i = 0; i < 5; i++) {
      const res = await acme.client.get('/v1/integrator/whoami');
      statuses.push(res.status);
      first ??= res.headers;
      if (res.status === 429) limited ??= res;
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    assert.equal(first?.get('ratelimit-limit'), '3');
    assert.equal(first?.get('ratelimit-remaining'), '2');
    assert.equal(limited?.body.code, 'rate_limited');
    assert.ok(Number(limited?.headers.get('retry-after')) > 0);
    const warnings = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level === 40 && /Redis/.test(l.msg));
    assert.equal(warnings.length, 1, lines.join('\n'));
    assert.ok(startedInMs < 60_000);
  });
});
