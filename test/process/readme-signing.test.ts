import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';
import { ROOT_URL } from '../harness/root.js';

const run = promisify(execFile);

/** The README's openssl + curl block, exactly as documented. */
function readmeSigningExample(): string {
  const readme = readFileSync(new URL('README.md', ROOT_URL), 'utf8');
  const block = /<!-- signing-example:start -->\s*```sh\n([\s\S]*?)```\s*<!-- signing-example:end -->/.exec(readme);
  assert.ok(block, 'README has the signing example block');
  return block[1]!;
}

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
