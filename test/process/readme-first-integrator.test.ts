import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createClient } from '../harness/client.js';
import { seededDataDir } from '../harness/pglite-template.js';
import { startServerProcess, type ServerProcess } from '../harness/process.js';
import { ROOT } from '../harness/root.js';
import { documentedBlock } from '../harness/documented.js';

const run = promisify(execFile);

/** The README's "Your first integrator" block, exactly as documented. */
const firstIntegratorBlock = (): string => documentedBlock('README.md', 'first-integrator');

// The README says the first integrator is created with the server running: on the embedded database the server holds
// DATA_DIR, and the admin CLI hands the command to it through DATA_DIR/run/admin.sock (docs/deployment.md).
describe('the README’s first integrator, beside a running server on the embedded database', () => {
  let dataDir: string;
  let server: ServerProcess;

  before(async () => {
    dataDir = await seededDataDir('readme-first-');
    server = await startServerProcess({ DATA_DIR: dataDir });
  });
  after(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates the integrator as documented, with no restart, and its key signs requests to that server', async () => {
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', firstIntegratorBlock()], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, timeout: 60_000 });
    const created = JSON.parse(stdout) as { integratorId: string; name: string; privateKey: string };
    assert.equal(created.name, 'Acme Pay');
    assert.match(server.logs(), /"msg":"admin command over the admin socket"/, 'the running server ran it');
    const whoami = await createClient({ baseUrl: server.url, privateKey: created.privateKey }).get('/v1/integrator/whoami');
    assert.equal(whoami.status, 200, whoami.text);
    assert.equal(whoami.body.integratorId, created.integratorId);
  });
});
