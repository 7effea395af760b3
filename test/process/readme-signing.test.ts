import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';
import { documentedBlock } from '../harness/documented.js';

const run = promisify(execFile);

/** The README's openssl + curl block, exactly as documented. */
const readmeSigningExample = (): string => documentedBlock('README.md', 'signing-example');

describe('the README signing example (openssl + curl only)', () => {
  let server: TestServer;
  let acme: SeededIntegrator;
  const dir = mkdtempSync(join(tmpdir(), 'readme-'));

  before(async () => {
    ({ server, tenants: [acme] } = await startTenants('pglite', ['Acme']));
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a credential against the real server', async () => {
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', readmeSigningExample()], {
      cwd: dir,
      env: { ...process.env, PRIVATE_KEY: acme.privateKey, PUBLIC_KEY: acme.publicKey, BASE: server.url },
      timeout: 20_000,
    });
    const body = JSON.parse(stdout);
    assert.equal(body.credential.label, 'from-curl', stdout);
    assert.equal(body.credential.scope, 'read_only');
  });
});
