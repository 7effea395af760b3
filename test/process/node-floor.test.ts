import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createIntegratorClient } from '@integrator-api/sdk';
import { eventually } from '../harness/eventually.js';
import { runAdmin, startServerProcess } from '../harness/process.js';
import { ROOT } from '../harness/root.js';

/**
 * The suite runs on the recommended Node.js (.nvmrc); this file runs the service on the oldest one still supported
 * (package.json engines, docs/deployment.md#nodejs), which CI takes from the machine: NODE_FLOOR_BIN, set by
 * scripts/use-node.sh when it put a newer Node first on PATH. Without it (a developer on one Node) it skips.
 */
const FLOOR = process.env.NODE_FLOOR_BIN;
const run = promisify(execFile);

describe('the service on the oldest supported Node.js', { skip: FLOOR ? false : 'NODE_FLOOR_BIN is not set (scripts/use-node.sh sets it in CI)' }, () => {
  const node = FLOOR!;
  const dataDir = mkdtempSync(join(tmpdir(), 'iapi-floor-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { DATA_DIR: dataDir };

  it('is older than the suite\'s Node and inside package.json engines', async () => {
    const { stdout } = await run(node, ['-p', 'process.versions.node']);
    const [major, minor] = stdout.trim().split('.').map(Number) as [number, number];
    assert.ok(major < Number(process.versions.node.split('.')[0]), `${stdout.trim()} is the floor, ${process.versions.node} runs the suite`);
    assert.ok(major > 20 || (major === 20 && minor >= 19), `${stdout.trim()} is below engines >=20.19`);
  });

  it('creates an integrator, serves signed requests, the docs and the admin CLI beside it, and stops cleanly', { timeout: 120_000 }, async () => {
    const created = await runAdmin(['integrators', 'create', '--name', 'Floor Pay'], env, node);
    assert.equal(created.code, 0, created.stderr);
    const acme = JSON.parse(created.stdout) as { integratorId: string; privateKey: string };

    const version = (await run(node, ['--version'])).stdout.trim();
    const server = await startServerProcess(env, node);
    try {
      await eventually(async () => server.logs(), (logs) => logs.includes(`"node":"${version}"`), 'the ready line naming the runtime');
      const api = createIntegratorClient({ baseUrl: server.url, privateKey: acme.privateKey });
      assert.equal((await api.whoami()).integratorId, acme.integratorId);
      const { credential } = await api.createCredential({ body: { label: 'on the floor', scope: 'read_only' } });
      const { credentials } = await api.listCredentials();
      assert.equal(credentials.find((c) => c.publicKey === credential.publicKey)?.label, 'on the floor');

      const docs = await fetch(`${server.url}/docs`);
      assert.equal(docs.status, 200);
      assert.match(docs.headers.get('content-type') ?? '', /text\/html/);
      assert.equal((await fetch(`${server.url}/openapi.json`)).status, 200);

      const listed = await runAdmin(['integrators', 'list'], env, node);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, /Floor Pay/);

      const cli = await run(node, [join(ROOT, 'packages/sdk/dist/cli.js'), 'whoami'], {
        env: { PATH: process.env.PATH, INTEGRATOR_BASE_URL: server.url, INTEGRATOR_PRIVATE_KEY: acme.privateKey, INTEGRATOR_PROFILE: join(dataDir, 'no-profile.json') },
      });
      assert.equal((JSON.parse(cli.stdout) as { integratorId: string }).integratorId, acme.integratorId);
    } finally {
      assert.equal(await server.stop('SIGTERM'), 0, 'graceful shutdown exits 0');
    }
  });
});
