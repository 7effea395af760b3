import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createClient, type ApiResponse } from '../harness/client.js';
import { importPrivateKey } from '../../src/crypto/p256.js';
import { signRequest } from '../../src/crypto/request-signature.js';
import { SEND_SHARE } from '../../src/http/auth/postgres-rate-counter.js';
import { postgresUrl, provisionDatabase } from '../harness/backends.js';
import { eventually } from '../harness/eventually.js';
import { runAdmin, startServerProcess, type ServerProcess } from '../harness/process.js';
import { redisAnswers, takeRedisKeys, testRedisUrl, uniqueRedisPrefix } from '../harness/redis.js';

/**
 * What `total` signed requests by one credential, sent to each process in turn, were answered: one after the other,
 * or `concurrency` at a time.
 */
async function alternate(servers: ServerProcess[], privateKey: string, total: number, concurrency = 1) {
  const clients = servers.map((server) => createClient({ baseUrl: server.url, privateKey }));
  const statuses: number[] = [];
  let refused: ApiResponse | undefined;
  let next = 0;
  const loop = async () => {
    for (let i = next++; i < total; i = next++) {
      const res = await clients[i % clients.length]!.get(`/v1/integrator/whoami?i=${i}`);
      statuses.push(res.status);
      if (res.status === 429) refused ??= res;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { allowed: statuses.filter((s) => s === 200).length, refusedCount: statuses.filter((s) => s === 429).length, statuses, refused };
}

/** Two processes enforce ONE limit: at least `max` allowed, at most `max + overshoot`, every other request a 429. */
function assertOneLimit(result: Awaited<ReturnType<typeof alternate>>, max: number, overshoot: number, total: number): void {
  const { allowed, refusedCount, statuses, refused } = result;
  assert.equal(allowed + refusedCount, total, `only 200 or 429: ${statuses.join(',')}`);
  assert.ok(allowed >= max && allowed <= max + overshoot, `${allowed} allowed of ${total} with a limit of ${max} (overshoot at most ${overshoot}): ${statuses.join(',')}`);
  assert.equal(refused?.body.code, 'rate_limited');
  assert.equal(refused?.headers.get('ratelimit-limit'), String(max));
  assert.equal(refused?.headers.get('ratelimit-remaining'), '0');
  assert.ok(Number(refused?.headers.get('retry-after')) > 0);
  assert.ok(Number(refused?.headers.get('ratelimit-reset')) > 0);
}

/** An integrator made by the operator CLI: its root credential's private key. */
async function newIntegrator(env: Record<string, string>, name: string): Promise<string> {
  const res = await runAdmin(['integrators', 'create', '--name', name], env);
  assert.equal(res.code, 0, res.stderr);
  return JSON.parse(res.stdout).privateKey;
}

async function query<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

// One limit for the processes below, small enough to reach; every other test sends far fewer requests per credential.
const RATE_LIMIT_MAX = 40;

// Needs a PostgreSQL server (TEST_DATABASE_URL); several processes cannot share the embedded database.
describe('several server processes on one PostgreSQL database', { skip: postgresUrl() ? false : 'no TEST_DATABASE_URL' }, () => {
  let drop: () => Promise<void>;
  let env: Record<string, string>;
  let a: ServerProcess;
  let b: ServerProcess;
  const dataDir = mkdtempSync(join(tmpdir(), 'iapi-pg-'));

  before(async () => {
    const provisioned = await provisionDatabase('postgres');
    drop = provisioned.drop;
    if (provisioned.target.kind !== 'postgres') throw new Error('expected postgres');
    // No REDIS_URL: the rate limit is counted in PostgreSQL. A day's window, so that none ends during the test.
    env = { DATABASE_URL: provisioned.target.url, DATA_DIR: dataDir, RATE_LIMIT_MAX: String(RATE_LIMIT_MAX), RATE_LIMIT_WINDOW_SECONDS: '86400' };
    // Two processes migrating one fresh database at once: the advisory lock serializes them.
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lets the operator CLI work while servers run', async () => {
    const res = await runAdmin(['integrators', 'create', '--name', 'Shared'], env);
    assert.equal(res.code, 0, res.stderr);
  });

  it('stops a credential deactivated through one process from authenticating on the other', async () => {
    const root = JSON.parse((await runAdmin(['integrators', 'create', '--name', 'Multi'], env)).stdout);
    const viaA = createClient({ baseUrl: a.url, privateKey: root.privateKey });
    const issued = await viaA.post('/v1/integrator/credentials', { label: 'worker', scope: 'read_only' });
    assert.equal(issued.status, 201);
    const workerOnB = createClient({ baseUrl: b.url, privateKey: issued.body.privateKey });
    // Warm B's cache with the active credential.
    assert.equal((await workerOnB.get('/v1/integrator/whoami')).status, 200);
    assert.equal((await workerOnB.get('/v1/integrator/whoami')).status, 200);

    const off = await viaA.patch(`/v1/integrator/credentials/${issued.body.credential.publicKey}`, { active: false });
    assert.equal(off.status, 200);
    // The change reaches B by NOTIFY at commit; allow for delivery, bounded.
    let status = 0;
    for (let attempt = 0; attempt < 40 && status !== 401; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 50));
      status = (await workerOnB.get(`/v1/integrator/whoami?attempt=${attempt}`)).status;
    }
    assert.equal(status, 401);

    // And a deletion the same way.
    const second = await viaA.post('/v1/integrator/credentials', { label: 'temp', scope: 'read_only' });
    const tempOnB = createClient({ baseUrl: b.url, privateKey: second.body.privateKey });
    assert.equal((await tempOnB.get('/v1/integrator/whoami')).status, 200);
    assert.equal((await viaA.delete(`/v1/integrator/credentials/${second.body.credential.publicKey}`)).status, 204);
    let code = '';
    for (let attempt = 0; attempt < 40 && code !== 'unknown_credential'; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 50));
      code = (await tempOnB.get(`/v1/integrator/whoami?attempt=${attempt}`)).body.code;
    }
    assert.equal(code, 'unknown_credential');
  });

  it('enforces one rate limit per credential across both processes, counted in PostgreSQL', async () => {
    const privateKey = await newIntegrator(env, 'Limited');
    const total = 3 * RATE_LIMIT_MAX;
    const result = await alternate([a, b], privateKey, total);
    // The documented bound (docs/deployment.md#rate-limits-across-processes): per process, two sends' worth (a
    // twentieth of the limit each) that the other may not have read yet.
    assertOneLimit(result, RATE_LIMIT_MAX, 2 * 2 * Math.ceil(RATE_LIMIT_MAX * SEND_SHARE), total);
    // Eight at a time: up to eight more may be decided while a send is on its way.
    const burst = await alternate([a, b], await newIntegrator(env, 'Burst'), total, 8);
    assertOneLimit(burst, RATE_LIMIT_MAX, 2 * 2 * Math.ceil(RATE_LIMIT_MAX * SEND_SHARE) + 8, total);
    process.stdout.write(`# PostgreSQL counting: ${result.allowed} of ${total} allowed one at a time, ${burst.allowed} eight at a time, with a limit of ${RATE_LIMIT_MAX}\n`);
    // Every request is in the shared row once the processes flushed, refused ones too.
    const publicKey = importPrivateKey(privateKey).publicKey;
    await eventually(
      () => query<{ count: number }>(env.DATABASE_URL!, 'select count from rate_limit_windows where key = $1', [publicKey]),
      (rows) => rows.length === 1 && rows[0]!.count === total,
      `the credential's window to count ${total}`,
    );
  });

  it('refuses the identical signed mutation on the second process (replay guard)', async () => {
    const privateKey = await newIntegrator(env, 'Replayed');
    const key = importPrivateKey(privateKey);
    const body = JSON.stringify({ label: 'replayed-across', scope: 'read_only' });
    // One signature, one timestamp, the same bytes to both processes.
    const headers = { 'content-type': 'application/json', ...signRequest(key, String(Math.floor(Date.now() / 1000)), 'POST', '/v1/integrator/credentials', body) };
    const send = (server: ServerProcess) => fetch(`${server.url}/v1/integrator/credentials`, { method: 'POST', headers, body });
    const first = await send(a);
    assert.equal(first.status, 201, await first.clone().text());
    const replayed = await send(b);
    assert.equal(replayed.status, 409);
    assert.equal(((await replayed.json()) as { code: string }).code, 'duplicate_request');
    const list = await createClient({ baseUrl: b.url, privateKey }).get('/v1/integrator/credentials');
    assert.equal(list.body.credentials.filter((c: { label: string }) => c.label === 'replayed-across').length, 1);
  });

  it('answers an Idempotency-Key retried on the other process from the first answer, with one record', async () => {
    const privateKey = await newIntegrator(env, 'Idempotent');
    const viaA = createClient({ baseUrl: a.url, privateKey });
    const viaB = createClient({ baseUrl: b.url, privateKey });
    const options = { headers: { 'Idempotency-Key': 'cross-process-1' } };
    const request = { label: 'idempotent-across', scope: 'read_only' };
    const first = await viaA.post('/v1/integrator/credentials', request, options);
    assert.equal(first.status, 201, first.text);
    // Signed anew (a later timestamp), so the replay guard lets it through: the stored answer is what comes back.
    const retried = await viaB.post('/v1/integrator/credentials', request, options);
    assert.equal(retried.status, 201, retried.text);
    assert.equal(retried.headers.get('idempotent-replayed'), 'true');
    assert.equal(retried.text, first.text);
    const list = await viaA.get('/v1/integrator/credentials');
    assert.equal(list.body.credentials.filter((c: { label: string }) => c.label === 'idempotent-across').length, 1);
    // The same key with another body, on either process: refused, and nothing written.
    for (const client of [viaB, viaA]) {
      const other = await client.post('/v1/integrator/credentials', { ...request, label: 'idempotent-other' }, options);
      assert.equal(other.status, 422, other.text);
      assert.equal(other.body.code, 'idempotency_key_reused');
    }
    const after = await viaB.get('/v1/integrator/credentials');
    assert.equal(after.body.credentials.filter((c: { label: string }) => c.label === 'idempotent-other').length, 0);
  });
});

// Needs PostgreSQL (TEST_DATABASE_URL) for the two processes, and a Redis (TEST_REDIS_URL, else 127.0.0.1:6379).
const redisSkip = !postgresUrl() ? 'no TEST_DATABASE_URL' : !(await redisAnswers()) ? `no Redis answers at ${testRedisUrl()}` : false;

describe('several server processes with REDIS_URL', { skip: redisSkip }, () => {
  let drop: () => Promise<void>;
  let env: Record<string, string>;
  let a: ServerProcess;
  let b: ServerProcess;
  const dataDir = mkdtempSync(join(tmpdir(), 'iapi-redis-'));
  // This run's own keys: runs sharing the Redis never count each other's requests.
  const prefix = uniqueRedisPrefix();

  before(async () => {
    const provisioned = await provisionDatabase('postgres');
    drop = provisioned.drop;
    if (provisioned.target.kind !== 'postgres') throw new Error('expected postgres');
    env = {
      DATABASE_URL: provisioned.target.url,
      DATA_DIR: dataDir,
      REDIS_URL: testRedisUrl(),
      REDIS_KEY_PREFIX: prefix,
      RATE_LIMIT_MAX: String(RATE_LIMIT_MAX),
      RATE_LIMIT_WINDOW_SECONDS: '3600',
    };
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await drop?.();
    await takeRedisKeys(prefix).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('enforces one exact rate limit per credential across both processes, counted in Redis', async () => {
    const privateKey = await newIntegrator(env, 'Limited');
    const total = 3 * RATE_LIMIT_MAX;
    const result = await alternate([a, b], privateKey, total);
    // Each count is one atomic step in Redis: no overshoot.
    assertOneLimit(result, RATE_LIMIT_MAX, 0, total);
    const burst = await alternate([a, b], await newIntegrator(env, 'Burst'), total, 8);
    assertOneLimit(burst, RATE_LIMIT_MAX, 0, total);
    process.stdout.write(`# Redis counting: ${result.allowed} of ${total} allowed one at a time, ${burst.allowed} eight at a time, with a limit of ${RATE_LIMIT_MAX}\n`);
    const publicKey = importPrivateKey(privateKey).publicKey;
    const keys = await takeRedisKeys(prefix);
    assert.equal(keys.get(`${prefix}rate-limit:3600000:${publicKey}`), String(total));
    // Nothing counted in PostgreSQL, and neither process fell back to counting alone.
    assert.deepEqual(await query(env.DATABASE_URL!, 'select key from rate_limit_windows'), []);
    for (const server of [a, b]) assert.doesNotMatch(server.logs(), /counting rate limits in Redis failed/);
  });
});
