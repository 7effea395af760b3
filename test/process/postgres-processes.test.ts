import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createClient } from '../../src/client/index.js';
import { postgresUrl, provisionDatabase } from '../harness/backends.js';
import { runAdmin, startServerProcess, type ServerProcess } from '../harness/process.js';

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
    env = { DATABASE_URL: provisioned.target.url, DATA_DIR: dataDir };
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
});
