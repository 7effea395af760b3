import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../harness/backends.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';

for (const backend of backends()) {
  describe(`health and readiness [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;

    before(async () => {
      ({ server, tenants: [acme] } = await startTenants(backend, ['Acme']));
    });
    after(() => server.close().catch(() => {}));

    it('reports version and database status', async () => {
      const res = await acme.client.get('/v1/health');
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'ok');
      assert.equal(res.body.version, '0.2.0');
      assert.equal(res.body.database.status, 'ok');
      const live = await fetch(`${server.url}/livez`);
      assert.deepEqual(await live.json(), { status: 'ok' });
      const ready = await fetch(`${server.url}/readyz`);
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), { status: 'ready' });
    });

    it('turns not-ready (503) when the database is gone, while the process stays live', async () => {
      await server.database.close();
      const ready = await fetch(`${server.url}/readyz`);
      assert.equal(ready.status, 503);
      assert.deepEqual(await ready.json(), { status: 'database_unavailable' });
      assert.equal((await fetch(`${server.url}/livez`)).status, 200);
      // The credential is still cached, so the signed health check can say what is wrong.
      const health = await acme.client.get('/v1/health');
      assert.equal(health.status, 503);
      assert.equal(health.body.status, 'degraded');
      assert.equal(health.body.database.status, 'unavailable');
      // A request that needs the database fails cleanly, with a problem body and no internals: 503, retry later.
      const list = await acme.client.get('/v1/integrator/credentials');
      assert.equal(list.status, 503);
      assert.equal(list.body.code, 'database_unavailable');
      assert.equal(list.headers.get('retry-after'), '2');
      assert.doesNotMatch(list.text, /pglite|postgres|pool|select|stack/i);
    });
  });
}
