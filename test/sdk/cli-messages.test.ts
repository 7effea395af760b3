import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';
import { ROOT } from '../harness/root.js';

/*
 * The CLI's messages as a user meets them: `trigger webhook_subscription.created` succeeds with its default URL on a
 * server that allows public endpoints only and needs no DNS for it (offline); a usage error names the command as it
 * was run (the bin, or the repository's npm script); a server that cannot be reached is named with where its URL came from.
 */
const CLI = join(ROOT, 'packages/sdk/src/cli.ts');
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_|^INTEGRATOR_|^NODE_OPTIONS$/.test(k)));

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: ROOT, env }, (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
  });
}
const cli = (args: string[], env: NodeJS.ProcessEnv) => run(process.execPath, ['--import', 'tsx', CLI, ...args], env);

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('integrator CLI messages', () => {
  let server: TestServer;
  let acme: SeededIntegrator;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    server = await startServer('pglite');
    acme = await server.seedIntegrator('Acme');
    env = { ...cleanEnv, INTEGRATOR_BASE_URL: server.url, INTEGRATOR_PRIVATE_KEY: acme.privateKey, INTEGRATOR_PROFILE: join(ROOT, 'no-such-profile.json') };
  });
  after(() => server?.close());

  it('trigger webhook_subscription.created works with its default URL, with no DNS to ask', async () => {
    const { code, stdout, stderr } = await cli(['trigger', 'webhook_subscription.created'], env);
    assert.equal(code, 0, stderr);
    assert.deepEqual((JSON.parse(stdout) as { triggered: string[] }).triggered, ['webhook_subscription.created', 'webhook_subscription.deleted']);
  });

  it('usage errors name the command as run: the bin, or npm run -s cli --', async () => {
    const bin = await cli(['trigger'], env);
    assert.equal(bin.code, 64);
    assert.match(bin.stderr, /^integrator trigger TYPE/);
    const script = await run('npm', ['run', '-s', 'cli', '--', 'trigger', 'webhook.test'], env);
    assert.equal(script.code, 64, script.stderr);
    assert.match(script.stderr, /^npm run -s cli -- trigger webhook\.test needs --subscription ID/);
  });

  it('a server that cannot be reached is named, with where its URL came from', { timeout: 60_000 }, async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const { code, stderr } = await cli(['whoami'], { ...env, INTEGRATOR_BASE_URL: url });
    assert.equal(code, 1);
    assert.ok(stderr.startsWith(`error: could not reach ${url} (from INTEGRATOR_BASE_URL): GET /v1/integrator/whoami: no answer`), stderr);
  });
});
