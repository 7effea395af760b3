import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createIntegratorClient, IntegratorApiError, IntegratorConnectionError } from '../../packages/sdk/src/index.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';

/** What the failing proxy does with one request. */
type Fault = 'pass' | 'lose-answer' | '503' | '503-no-retry-after' | '429' | 'stall';

interface Seen {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  timestamp: string | undefined;
}

/**
 * A proxy in front of the real server that fails on purpose, one planned fault per request: answer 503 or 429
 * itself, forward and then lose the answer (the server did the work, the client never hears), or never answer.
 */
async function startFailingProxy(upstream: string) {
  const plan: Fault[] = [];
  const seen: Seen[] = [];
  const stalled: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, path: req.url!, idempotencyKey: req.headers['idempotency-key'] as string | undefined, timestamp: req.headers['x-timestamp'] as string | undefined });
      const fault = plan.shift() ?? 'pass';
      if (fault === 'stall') return void stalled.push(res);
      if (fault === '503' || fault === '503-no-retry-after' || fault === '429') {
        const status = fault === '429' ? 429 : 503;
        res.writeHead(status, { 'content-type': 'application/problem+json', ...(fault === '503-no-retry-after' ? {} : { 'retry-after': '0' }) });
        return void res.end(JSON.stringify({ type: '/problems/x', title: 'x', status, code: status === 429 ? 'rate_limited' : 'service_unavailable', requestId: 'req_proxy' }));
      }
      const forward = http.request(`${upstream}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(upstream).host } }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          if (fault === 'lose-answer') return void res.socket?.destroy();
          res.writeHead(answer.statusCode!, answer.headers);
          res.end(Buffer.concat(body));
        });
      });
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    plan,
    seen,
    close: async () => {
      stalled.forEach((r) => r.socket?.destroy());
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('SDK retries and idempotency against a server that fails on purpose', () => {
  let server: TestServer;
  let acme: SeededIntegrator;
  let proxy: Awaited<ReturnType<typeof startFailingProxy>>;
  const waits: number[] = [];

  before(async () => {
    ({ server, tenants: [acme] } = await startTenants('pglite', ['Acme']));
    proxy = await startFailingProxy(server.url);
  });
  after(async () => {
    await proxy?.close();
    await server?.close();
  });

  const client = (options: { maxRetries?: number; timeoutMs?: number } = {}) =>
    createIntegratorClient({
      baseUrl: proxy.url,
      privateKey: acme.privateKey,
      now: () => server.clock.seconds(),
      retryBaseMs: 100,
      // The waits are recorded, not slept: the test takes no time and asserts on them.
      sleep: async (ms) => {
        waits.push(ms);
        server.clock.advance(1000);
      },
      ...options,
    });
  const reset = () => {
    proxy.plan.length = 0;
    proxy.seen.length = 0;
    waits.length = 0;
  };

  it('a POST whose answer was lost is retried with the same Idempotency-Key and takes effect once (the server replays its answer)', async () => {
    reset();
    proxy.plan.push('lose-answer', 'pass');
    const label = `retry-${Date.now()}`;
    const api = client();
    const answer = await api.request('POST', '/v1/integrator/credentials', { label, scope: 'read_only' });
    assert.equal(answer.status, 201);
    assert.equal(answer.headers.get('idempotent-replayed'), 'true', 'the second attempt got the stored answer');
    assert.equal(proxy.seen.length, 2);
    assert.ok(proxy.seen[0]!.idempotencyKey, 'the SDK sent an Idempotency-Key');
    assert.equal(proxy.seen[1]!.idempotencyKey, proxy.seen[0]!.idempotencyKey, 'the same key on the retry');
    assert.notEqual(proxy.seen[1]!.timestamp, proxy.seen[0]!.timestamp, 'each attempt signed afresh');
    const credentials = (await api.listCredentials()) as unknown as { credentials: { label: string | null }[] };
    assert.equal(credentials.credentials.filter((c) => c.label === label).length, 1, 'one credential, not two');
    // A GET carries no key; two POSTs get two keys.
    reset();
    await api.whoami();
    await api.createCredential({ body: { label: `${label}-a`, scope: 'read_only' } });
    await api.createCredential({ body: { label: `${label}-b`, scope: 'read_only' } });
    assert.equal(proxy.seen[0]!.idempotencyKey, undefined);
    assert.notEqual(proxy.seen[1]!.idempotencyKey, proxy.seen[2]!.idempotencyKey);
  });

  it('503 and 429 are retried after Retry-After; without it, exponential backoff with jitter; an explicit key is used as given', async () => {
    reset();
    proxy.plan.push('503', '429', 'pass');
    const me = await client().whoami();
    assert.equal(me.integratorId, acme.integratorId);
    assert.equal(proxy.seen.length, 3);
    assert.deepEqual(waits, [0, 0], 'Retry-After: 0 twice');

    reset();
    proxy.plan.push('503-no-retry-after', '503-no-retry-after', '503-no-retry-after', 'pass');
    await client().createCredential({ body: { label: `jitter-${Date.now()}`, scope: 'read_only' } }, { idempotencyKey: 'explicit-key-1' });
    assert.deepEqual(
      proxy.seen.map((s) => s.idempotencyKey),
      ['explicit-key-1', 'explicit-key-1', 'explicit-key-1', 'explicit-key-1'],
    );
    waits.forEach((ms, attempt) => assert.ok(ms >= 0 && ms <= 100 * 2 ** attempt, `wait ${attempt}: ${ms}`));
  });

  it('gives up after maxRetries with the last problem, typed; a server that never answers is a connection error after the timeout', async () => {
    reset();
    proxy.plan.push('503', '503', '503');
    await assert.rejects(client({ maxRetries: 2 }).whoami(), (err: unknown) => err instanceof IntegratorApiError && err.status === 503 && err.code === 'service_unavailable' && err.requestId === 'req_proxy');
    assert.equal(proxy.seen.length, 3, 'the first attempt and two retries');

    reset();
    proxy.plan.push('stall', 'stall');
    await assert.rejects(client({ maxRetries: 1, timeoutMs: 300 }).whoami(), IntegratorConnectionError);
    assert.equal(proxy.seen.length, 2);

    reset();
    // A 4xx other than 429 is the caller's to fix: never retried.
    const missing = client().getAccountDetails({ query: { accountId: '00000000-0000-4000-8000-000000000000' } });
    await assert.rejects(missing, (err: unknown) => err instanceof IntegratorApiError && err.status === 404);
    assert.equal(proxy.seen.length, 1);
  });
});
