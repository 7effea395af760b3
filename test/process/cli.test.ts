import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createIntegratorClient } from '../../packages/sdk/src/index.js';
import { startReceiver, type Receiver } from '../harness/receiver.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';

const CLI = ['--import', 'tsx', 'packages/sdk/src/cli.ts'];

/** Runs the CLI to its end: exit code, stdout, stderr. */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts a long-running CLI command and resolves once its stdout has a line matching `ready`. */
function start(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<{ child: ChildProcess; line: string; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString();
      const line = stdout.split('\n').find((l) => ready.test(l));
      if (line) resolve({ child, line, output: () => stdout });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before ready: ${stdout} ${stderr}`)));
  });
}

describe('the integrator CLI, as a process (packages/sdk/src/cli.ts)', () => {
  let server: TestServer;
  let acme: SeededIntegrator;
  let receiver: Receiver;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    ({ server, tenants: [acme] } = await startTenants('pglite', ['Acme']));
    receiver = await startReceiver();
    dir = mkdtempSync(join(tmpdir(), 'integrator-cli-'));
    // No key in the environment: the profile written by login is what the other commands use.
    env = { INTEGRATOR_PROFILE: join(dir, 'profile.json'), INTEGRATOR_PRIVATE_KEY: '', INTEGRATOR_BASE_URL: '' };
    delete env.INTEGRATOR_PRIVATE_KEY;
    delete env.INTEGRATOR_BASE_URL;
  });
  after(async () => {
    await receiver?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('login saves a 0600 profile; request prints answers and exits non-zero on errors; a profile others can read is refused', async () => {
    const login = await run(['login', '--base-url', server.url, '--private-key', acme.privateKey], env);
    assert.equal(login.code, 0, login.stderr);
    assert.equal(JSON.parse(login.stdout).integratorId, acme.integratorId);
    assert.equal(statSync(env.INTEGRATOR_PROFILE!).mode & 0o777, 0o600);

    const whoami = await run(['request', 'GET', '/v1/integrator/whoami'], env);
    assert.equal(whoami.code, 0, whoami.stderr);
    assert.equal(JSON.parse(whoami.stdout).integratorId, acme.integratorId);
    const created = await run(['request', 'POST', '/v1/integrator/credentials', '--data', '{"label":"from the cli","scope":"read_only"}'], env);
    assert.equal(JSON.parse(created.stdout).credential.label, 'from the cli');
    const missing = await run(['request', 'GET', '/v1/query/get-account-details?accountId=00000000-0000-4000-8000-000000000000'], env);
    assert.equal(missing.code, 1);
    assert.equal(JSON.parse(missing.stderr).code, 'not_found');

    const leaky = join(dir, 'leaky.json');
    writeFileSync(leaky, readFileSync(env.INTEGRATOR_PROFILE!));
    chmodSync(leaky, 0o644);
    const refused = await run(['keys', 'list'], { ...env, INTEGRATOR_PROFILE: leaky });
    assert.equal(refused.code, 64);
    assert.match(refused.stderr, /chmod 600/);
  });

  it('listen forwards each new event to a local URL, signed with the secret it printed (verified with standardwebhooks)', async () => {
    const listening = await start(['listen', '--forward-to', `${receiver.url}/local`], env, /^Ready: /);
    try {
      const secret = /whsec_\S+/.exec(listening.line)![0];
      // Something happens: the trigger command makes a credential (and deletes it).
      const triggered = await run(['trigger', 'credential.created'], env);
      assert.equal(triggered.code, 0, triggered.stderr);
      const first = await receiver.next(20_000);
      const second = await receiver.next(20_000);
      const events = [first, second].map((r) =>
        new Webhook(secret).verify(r.text(), { 'webhook-id': r.header('webhook-id')!, 'webhook-timestamp': r.header('webhook-timestamp')!, 'webhook-signature': r.header('webhook-signature')! }),
      ) as { type: string; id: string }[];
      assert.deepEqual(
        events.map((e) => e.type),
        ['credential.created', 'credential.deleted'],
      );
      assert.equal(first.header('webhook-id'), events[0]!.id);
    } finally {
      listening.child.kill('SIGINT');
    }
  });

  it('keys rotate: a new key in the profile, the old one deactivated by it', async () => {
    const before_ = JSON.parse(readFileSync(env.INTEGRATOR_PROFILE!, 'utf8')) as { privateKey: string };
    const rotated = await run(['keys', 'rotate'], env);
    assert.equal(rotated.code, 0, rotated.stderr);
    const after_ = JSON.parse(readFileSync(env.INTEGRATOR_PROFILE!, 'utf8')) as { privateKey: string };
    assert.notEqual(after_.privateKey, before_.privateKey);
    const old = createIntegratorClient({ baseUrl: server.url, privateKey: before_.privateKey, now: () => server.clock.seconds(), maxRetries: 0 });
    await assert.rejects(old.whoami(), (err: unknown) => (err as { code?: string }).code === 'credential_inactive');
    const listed = await run(['keys', 'list'], env);
    assert.equal(listed.code, 0, listed.stderr);
  });
});
