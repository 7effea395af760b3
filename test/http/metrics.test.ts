import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { backends } from '../harness/backends.js';
import { parsePrometheus, type Sample } from '../harness/prometheus.js';
import { eventually } from '../harness/eventually.js';
import { startReceiver, type Receiver } from '../harness/receiver.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

const TOKEN = 'metrics-token-0123456789abcdef0123456789';

for (const backend of backends()) {
  describe(`GET /metrics [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;
    let receiver: Receiver;
    const lines: string[] = [];

    before(async () => {
      receiver = await startReceiver();
      ({ server, tenants: [acme] } = await startTenants(backend, ['Acme'], { WEBHOOK_ALLOW_PRIVATE: '1' }, { logDestination: { write: (line: string) => void lines.push(line) } }));
    });
    after(async () => {
      await server?.close();
      await receiver?.close();
    });

    const scrape = async (headers: Record<string, string> = {}) => {
      const res = await fetch(`${server.url}/metrics`, { headers });
      assert.equal(res.status, 200, await res.clone().text());
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      return parsePrometheus(await res.text());
    };

    it('counts requests by method, route pattern and status, with latency, in the sandbox without a token', async () => {
      assert.equal((await acme.client.get('/v1/integrator/whoami')).status, 200);
      assert.equal((await acme.client.get(`/v1/events/${randomUUID()}`)).status, 404);
      assert.equal((await fetch(`${server.url}/no/such/${randomUUID()}`)).status, 404);
      const samples = await scrape();
      assert.ok(find(samples, 'http_requests_total', { method: 'GET', route: '/v1/integrator/whoami', status: '200' })[0]!.value >= 1);
      assert.ok(find(samples, 'http_requests_total', { method: 'GET', route: '/v1/events/:eventId', status: '404' })[0]!.value >= 1, 'the pattern, not the id');
      assert.ok(find(samples, 'http_requests_total', { route: 'unmatched', status: '404' })[0]!.value >= 1);
      assert.equal(find(samples, 'http_request_duration_seconds_count', { route: '/v1/integrator/whoami', status: '200' }).length, 1);
      assert.ok(find(samples, 'http_request_duration_seconds_bucket', { route: '/v1/integrator/whoami', le: '+Inf' })[0]!.value >= 1);
      // No label carries an id: one series per route, whatever the records.
      assert.deepEqual(samples.filter((s) => Object.values(s.labels).some((v) => /[0-9a-f]{8}-[0-9a-f]{4}-/.test(v))), []);
      // The runtime: event loop lag, heap, CPU.
      for (const name of ['nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'process_cpu_seconds_total']) assert.equal(find(samples, name).length, 1, name);
      // The pool: PostgreSQL's, absent on PGlite (one in-process connection).
      const pool = find(samples, 'db_pool_connections');
      if (backend === 'postgres') assert.deepEqual(pool.map((s) => s.labels.state).sort(), ['idle', 'max', 'total', 'waiting']);
      else assert.deepEqual(pool, []);
    });

    it('counts webhook delivery attempts by outcome, shows the outbox, and logs one line per attempt without the URL', async () => {
      receiver.respond({ status: 500 });
      const created = await acme.client.post('/v1/webhooks/subscriptions', { name: 'metrics', url: `${receiver.url}/hooks?token=secret-in-url`, eventTypes: ['credential.*'] });
      assert.equal(created.status, 201, created.text);
      assert.equal((await acme.client.post('/v1/integrator/credentials', { label: 'metrics probe', scope: 'read_only' })).status, 201);
      await receiver.waitFor(1);
      // The first attempt failed (500): the delivery waits for its retry.
      const pending = await eventually(
        () => scrape(),
        (s) => (find(s, 'webhook_delivery_attempts_total', { outcome: 'http_error' })[0]?.value ?? 0) >= 1 && find(s, 'webhook_outbox_pending')[0]!.value >= 1,
        'a failed attempt counted and its delivery pending',
      );
      assert.ok(find(pending, 'webhook_outbox_oldest_pending_age_seconds')[0]!.value >= 0);
      const attempt = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'webhook delivery attempt');
      assert.ok(attempt, 'one log line per attempt');
      assert.deepEqual([attempt.outcome, attempt.status, attempt.attempt, attempt.subscriptionId], ['http_error', 500, 1, created.body.subscription.id]);
      assert.ok(!lines.some((l) => l.includes('secret-in-url')), 'the URL (and a token in it) is never logged');
    });

    it('reports the transaction gauges at 0 when nothing is processing', async () => {
      const samples = await scrape();
      assert.equal(find(samples, 'transactions_processing_oldest_age_seconds')[0]!.value, 0);
      assert.equal(find(samples, 'metrics_scrape_errors_total')[0]!.value, 0);
    });
  });
}

// Access does not depend on the database: one backend is enough.
describe('GET /metrics in production', () => {
  it('is not served without METRICS_TOKEN, and takes the bearer token with it', async () => {
    const closed = await startServer('pglite', { APP_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32) });
    try {
      const res = await fetch(`${closed.url}/metrics`);
      assert.equal(res.status, 404);
      assert.equal(((await res.json()) as { code: string }).code, 'route_not_found');
    } finally {
      await closed.close();
    }
    const open = await startServer('pglite', { APP_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32), METRICS_TOKEN: TOKEN });
    try {
      for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
        const res = await fetch(`${open.url}/metrics`, { headers: authorization ? { authorization } : {} });
        assert.equal(res.status, 401, authorization);
        assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="metrics"');
      }
      const res = await fetch(`${open.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(res.status, 200);
      assert.ok(parsePrometheus(await res.text()).some((s) => s.name === 'http_requests_total' && s.labels.route === '/metrics' && s.labels.status === '401'));
    } finally {
      await open.close();
    }
  });
});
