import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createClient, type Client } from '../harness/client.js';
import { postgresUrl, provisionDatabase } from '../harness/backends.js';
import { eventually } from '../harness/eventually.js';
import { berliner, signedAt } from '../harness/fixtures.js';
import { runAdmin, startServerProcess, type ServerProcess } from '../harness/process.js';
import { startTcpProxy, type TcpProxy } from '../harness/tcp-proxy.js';

/*
 * The server process loses its database under a light load of signed writes and reads (issue 19, "Faults"): a
 * proxy between them (test/harness/tcp-proxy.ts) drops the connections, then stalls them, then PostgreSQL's backends
 * are terminated. Every request ends within a bound, as a success or a 503 database_unavailable, never a 500;
 * /readyz turns 503 and back; the same process serves again once the database is back; and every write answered
 * with a 2xx is in the database with its event. The shared PostgreSQL server is never restarted.
 */

const QUERY_TIMEOUT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 1_000;
/**
 * The longest a request may take while the database is gone: a statement's timeout (QUERY_TIMEOUT_MS + 1 s), then
 * the answer's bookkeeping (giving its Idempotency-Key back) waits for a connection (CONNECT_TIMEOUT_MS); margin for
 * a loaded machine.
 */
const REQUEST_BOUND_MS = QUERY_TIMEOUT_MS + 1_000 + CONNECT_TIMEOUT_MS + 3_000;
/** /readyz's own bound (PROBE_TIMEOUT_MS), with margin. */
const PROBE_BOUND_MS = 2_000 + 1_000;

interface Outcome {
  kind: 'write' | 'read';
  /** What the proxy did when the request was sent. */
  phase: string;
  startedAt: number;
  ms: number;
  status: number;
  code: string | undefined;
  retryAfter: string | null;
  /** Writes answered 2xx: the user made. */
  userId?: string;
  text: string;
}

describe('losing the database under load', { skip: postgresUrl() ? false : 'no TEST_DATABASE_URL' }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'iapi-faults-'));
  let drop: () => Promise<void>;
  let direct: string;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let client: Client;
  let phase = 'pass';
  const outcomes: Outcome[] = [];
  let running = true;
  let workers: Promise<void>[] = [];
  const numbers: string[] = [];

  before(async () => {
    const provisioned = await provisionDatabase('postgres');
    drop = provisioned.drop;
    if (provisioned.target.kind !== 'postgres') throw new Error('expected postgres');
    direct = provisioned.target.url;
    const target = new URL(direct);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    server = await startServerProcess({
      DATABASE_URL: proxy.urlFor(direct),
      DATA_DIR: dataDir,
      DATABASE_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
      DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
      RATE_LIMIT_MAX: '1000000',
      // Few connections: a pool that lost its clients in a fault would be full at the next one.
      DATABASE_POOL_MAX: '5',
    });
    // The operator CLI talks to the database directly: the proxy is for the server under test.
    const created = await runAdmin(['integrators', 'create', '--name', 'Faults'], { DATABASE_URL: direct, DATA_DIR: dataDir });
    assert.equal(created.code, 0, created.stderr);
    client = createClient({ baseUrl: server.url, privateKey: JSON.parse(created.stdout).privateKey });
    workers = [...[1, 2, 3].map(() => loop('write')), ...[1, 2].map(() => loop('read'))];
  });
  after(async () => {
    running = false;
    proxy?.setMode('pass');
    await Promise.allSettled(workers);
    await server?.stop();
    await proxy?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
    if (numbers.length > 0) process.stdout.write(`# database faults: ${numbers.join('; ')}\n`);
  });

  let sequence = 0;
  async function once(kind: 'write' | 'read'): Promise<Outcome> {
    const n = ++sequence;
    const startedAt = performance.now();
    const requestPhase = phase;
    const res = await (
      kind === 'write'
        ? client.post(
            '/v1/submit/create-user',
            { userInfo: berliner({ email: `fault.${n}@example.de` }), partnerSignedAgreementId: `agr_${n}`, serviceTermsSignedAt: signedAt() },
            { headers: { 'idempotency-key': `fault-${n}` } },
          )
        : client.get('/v1/integrator/credentials')
    ).catch((err: unknown) => ({ status: 0, body: undefined, headers: new Headers(), text: `no answer: ${String(err)}` }));
    return {
      kind,
      phase: requestPhase,
      startedAt,
      ms: performance.now() - startedAt,
      status: res.status,
      code: typeof res.body === 'object' && res.body !== null ? (res.body as { code?: string }).code : undefined,
      retryAfter: res.headers.get('retry-after'),
      ...(kind === 'write' && res.status >= 200 && res.status < 300 ? { userId: (res.body as { userId: string }).userId } : {}),
      text: res.text.slice(0, 500),
    };
  }

  async function loop(kind: 'write' | 'read'): Promise<void> {
    while (running) outcomes.push(await once(kind));
  }

  /** Waits until every worker has finished `count` more requests sent after `since`. */
  function completedSince(since: number, count: number, what: string, timeoutMs = 30_000): Promise<unknown> {
    return eventually(
      async () => outcomes.filter((o) => o.startedAt >= since).length,
      (n) => n >= count * workers.length,
      what,
      timeoutMs,
    );
  }

  async function readyz(): Promise<{ status: number; ms: number }> {
    const started = performance.now();
    const res = await fetch(`${server.url}/readyz`).catch((err: unknown) => assert.fail(`/readyz: no answer (${String(err)}); the server ${server.child.exitCode === null ? 'runs' : `exited: ${server.logs().slice(-2000)}`}`));
    await res.arrayBuffer();
    const ms = performance.now() - started;
    assert.ok(ms < PROBE_BOUND_MS, `/readyz answered in ${Math.round(ms)} ms`);
    return { status: res.status, ms };
  }

  /** Every request sent since `since`: a success or a clean 503, within the bound. */
  function assertFailedCleanly(since: number, label: string): Outcome[] {
    const seen = outcomes.filter((o) => o.startedAt >= since);
    for (const o of seen) {
      assert.ok(o.ms < REQUEST_BOUND_MS, `${label}: a ${o.kind} took ${Math.round(o.ms)} ms`);
      if (o.status >= 200 && o.status < 300) continue;
      assert.equal(o.status, 503, `${label}: ${o.kind} answered ${o.status}: ${o.text}`);
      assert.equal(o.code, 'database_unavailable', o.text);
      assert.equal(o.retryAfter, '2');
      assert.doesNotMatch(o.text, /select|insert|pool|stack|postgres|ECONN/i, 'no internals in the problem');
    }
    const failed = seen.filter((o) => o.status === 503);
    assert.ok(failed.length > 0, `${label}: some requests met the fault`);
    const slowest = Math.max(...failed.map((o) => o.ms));
    const typical = failed.map((o) => o.ms).sort((a, b) => a - b)[Math.floor(failed.length / 2)]!;
    numbers.push(`${label}: ${failed.length} requests failed, median ${Math.round(typical)} ms, slowest ${Math.round(slowest)} ms`);
    return seen;
  }

  /** The proxy passes again: /readyz and then a write succeed, in the same process. */
  async function recover(label: string): Promise<void> {
    proxy.setMode('pass');
    phase = 'pass';
    const since = performance.now();
    await eventually(readyz, (r) => r.status === 200, `/readyz 200 after the ${label}`, 15_000);
    const ready = performance.now() - since;
    await eventually(
      async () => outcomes.some((o) => o.kind === 'write' && o.startedAt >= since && o.status === 201),
      (ok) => ok,
      `a write to succeed after the ${label}`,
      15_000,
    );
    numbers.push(`after the ${label}: /readyz 200 in ${Math.round(ready)} ms, a write succeeded in ${Math.round(performance.now() - since)} ms`);
    // From now on, everything succeeds.
    const settled = performance.now();
    await completedSince(settled, 2, `requests after the ${label}`);
    const after = outcomes.filter((o) => o.startedAt >= settled);
    assert.deepEqual(
      after.filter((o) => o.status < 200 || o.status >= 300).map((o) => `${o.kind} ${o.status} ${o.text}`),
      [],
      `every request after recovering from the ${label} succeeds`,
    );
  }

  async function fault(mode: 'drop' | 'stall'): Promise<void> {
    const since = performance.now();
    proxy.setMode(mode);
    phase = mode;
    await eventually(readyz, (r) => r.status === 503, `/readyz 503 on ${mode}`, 10_000);
    numbers.push(`${mode}: /readyz 503 after ${Math.round(performance.now() - since)} ms`);
    assert.equal((await fetch(`${server.url}/livez`)).status, 200, '/livez stays 200');
    // Every worker sends at least two requests into the fault.
    await completedSince(since, 2, `requests during the ${mode}`);
    assertFailedCleanly(since, mode);
  }

  it('serves under load before any fault', async () => {
    await completedSince(0, 3, 'the first requests');
    assert.deepEqual(
      outcomes.filter((o) => o.status < 200 || o.status >= 300).map((o) => `${o.kind} ${o.status} ${o.text}`),
      [],
    );
    assert.equal((await readyz()).status, 200);
  });

  it('dropped connections: requests fail fast with 503, /readyz 503; back to pass: served again without a restart', async () => {
    await fault('drop');
    await recover('drop');
  });

  it('stalled connections: requests fail within their timeout with 503, /readyz 503 within 2 s; then served again', async () => {
    await fault('stall');
    await recover('stall');
  });

  it('terminated backends: only the requests in flight fail, with 503; the next ones succeed', async () => {
    const admin = new pg.Client({ connectionString: postgresUrl() });
    await admin.connect();
    const name = new URL(direct).pathname.slice(1);
    try {
      const since = performance.now();
      phase = 'terminate';
      const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      assert.ok(rows.length > 0, 'the server has connections');
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      // pg_terminate_backend only signals: the backends are gone once pg_stat_activity no longer lists them.
      const old = rows.map((r) => r.pid);
      await eventually(
        async () => (await admin.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where pid = any($1)', [old])).rows[0]!.n,
        (n) => n === 0,
        'the terminated backends to exit',
      );
      const gone = performance.now();
      phase = 'pass';
      await completedSince(gone, 3, 'requests after the termination');
      const seen = outcomes.filter((o) => o.startedAt >= since);
      for (const o of seen) {
        assert.ok((o.status >= 200 && o.status < 300) || (o.status === 503 && o.code === 'database_unavailable'), `${o.kind} ${o.status} ${o.text}`);
        assert.ok(o.ms < REQUEST_BOUND_MS);
      }
      // Requests sent before the backends were gone could meet them (in flight, or a connection about to learn it
      // was terminated); none sent after.
      const failed = seen.filter((o) => o.status === 503);
      assert.ok(failed.every((o) => o.startedAt < gone + 50), failed.map((o) => `${o.kind} ${o.status} ${Math.round(o.startedAt - gone)} ms after`).join(', '));
      numbers.push(`terminate: ${failed.length} of ${seen.length} requests failed (in flight at the time)`);
      assert.equal((await readyz()).status, 200);
    } finally {
      await admin.end();
    }
  });

  it('lost nothing it acknowledged: every user answered 201 is stored, with its event; the process never restarted nor answered 500', async () => {
    running = false;
    await Promise.all(workers);
    assert.equal(server.child.exitCode, null, 'the server is still running');
    assert.deepEqual(outcomes.filter((o) => o.status !== 503 && (o.status < 200 || o.status >= 300)).map((o) => `${o.status} ${o.text}`), [], 'a success or a 503, nothing else');
    const acknowledged = outcomes.filter((o) => o.userId !== undefined).map((o) => o.userId!);
    assert.ok(acknowledged.length >= 10, `${acknowledged.length} writes acknowledged`);
    const db = new pg.Client({ connectionString: direct });
    await db.connect();
    try {
      const users = await db.query<{ id: string }>('select id::text from users where id = any($1::uuid[])', [acknowledged]);
      const events = await db.query<{ object_id: string }>(`select object_id from events where type = 'user.created' and object_id = any($1)`, [acknowledged]);
      const stored = new Set(users.rows.map((r) => r.id));
      const evented = new Set(events.rows.map((r) => r.object_id));
      assert.deepEqual(acknowledged.filter((id) => !stored.has(id)), [], 'acknowledged users missing');
      assert.deepEqual(acknowledged.filter((id) => !evented.has(id)), [], 'acknowledged users without their event');
      const writes = outcomes.filter((o) => o.kind === 'write');
      numbers.push(`${writes.length} writes (${acknowledged.length} acknowledged), ${outcomes.length - writes.length} reads`);
    } finally {
      await db.end();
    }
    // Logged as a warning, with the driver's words only: never the statement or its parameters.
    const lines = server.logs().split('\n').filter((l) => l.includes('"msg":"database unavailable"'));
    assert.ok(lines.length > 0);
    for (const line of lines) {
      assert.match(line, /"level":40/);
      assert.doesNotMatch(line, /Failed query|params|fault\.\d+@example|password/);
    }
    assert.doesNotMatch(server.logs(), /"msg":"unhandled error"/);
  });
});
