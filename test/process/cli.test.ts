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
import { startTenantsOnChain } from '../harness/tenants.js';

const CLI = ['--import', 'tsx', 'packages/sdk/src/cli.ts'];

/** Runs the CLI to its end: exit code, stdout, stderr. */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // 'close', not 'exit': the process may exit before its output has all been read (more likely with runs in parallel).
    child.on('close', (code) => resolve({ code, stdout, stderr }));
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
    // A chain (31337, trigger's default) for the deposit triggers, its treasury funded; local receivers allowed.
    const started = await startTenantsOnChain('pglite', 31337, ['Acme'], { WEBHOOK_ALLOW_PRIVATE: '1' });
    ({ server, tenants: [acme] } = started);
    await started.chain.setBalance(server.treasury!.address, 10n ** 21n);
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

  it('trigger makes the events it names (account, verification, deposit, subscription); a refused deposit and an unknown type fail clearly', async () => {
    const { privateKey } = JSON.parse(readFileSync(env.INTEGRATOR_PROFILE!, 'utf8')) as { privateKey: string };
    const api = createIntegratorClient({ baseUrl: server.url, privateKey, now: () => server.clock.seconds(), maxRetries: 0 });
    // Independent runs, in parallel: each process starts in about a second.
    const [verified, deposited, noChain, subscribed, unknown] = await Promise.all([
      run(['trigger', 'user.verification_status.changed'], env),
      run(['trigger', 'transaction.status.changed'], env),
      run(['trigger', 'transaction.created', '--chain-id', '999'], env),
      run(['trigger', 'webhook_subscription.created', '--url', `${receiver.url}/never`], env),
      run(['trigger', 'no.such.event'], env),
    ]);
    const eventsOf = async (types: string[]) => (await api.listEvents({ query: { types: types.join(','), limit: 100 } })).data;

    assert.equal(verified.code, 0, verified.stderr);
    const user = JSON.parse(verified.stdout) as { triggered: string[]; userId: string; accountId: string; verificationStatus: string };
    assert.deepEqual(user.triggered, ['user.created', 'account.created', 'user.verification_status.changed']);
    assert.equal(user.verificationStatus, 'active');
    const userEvents = await eventsOf(user.triggered);
    assert.ok(userEvents.some((e) => e.type === 'user.created' && e.objectId === user.userId));
    assert.ok(userEvents.some((e) => e.type === 'account.created' && e.objectId === user.accountId));
    const changed = userEvents.find((e) => e.type === 'user.verification_status.changed' && e.objectId === user.userId);
    assert.equal((changed?.data.object as { verificationStatus?: string } | undefined)?.verificationStatus, 'active');

    assert.equal(deposited.code, 0, deposited.stderr);
    const deposit = JSON.parse(deposited.stdout) as { triggered: string[]; transactionId: string; status: string };
    assert.deepEqual(deposit.triggered, ['user.created', 'account.created', 'user.verification_status.changed', 'transaction.created', 'transaction.status.changed']);
    assert.equal(deposit.status, 'funds_in_transfer');
    const depositEvents = (await eventsOf(['transaction.created', 'transaction.status.changed'])).filter((e) => (e.data.object as { transactionId?: string }).transactionId === deposit.transactionId);
    assert.ok(depositEvents.some((e) => e.type === 'transaction.created'));
    assert.ok(depositEvents.some((e) => e.type === 'transaction.status.changed' && (e.data.object as { status?: string }).status === 'funds_in_transfer'));

    // No chain 999 on this server: a message saying what to do, exit 1 (not a crash).
    assert.equal(noChain.code, 1, `${noChain.stdout}${noChain.stderr}`);
    assert.match(noChain.stderr, /refused the deposit \(422 unsupported_chain\)/);
    assert.match(noChain.stderr, /--chain-id/);
    assert.doesNotMatch(noChain.stderr, /\n\s+at /);

    assert.equal(subscribed.code, 0, subscribed.stderr);
    const subscription = JSON.parse(subscribed.stdout) as { triggered: string[]; subscriptionId: string };
    assert.deepEqual(subscription.triggered, ['webhook_subscription.created', 'webhook_subscription.deleted']);
    const subscriptionEvents = (await eventsOf(subscription.triggered)).filter((e) => e.objectId === subscription.subscriptionId);
    assert.deepEqual(subscriptionEvents.map((e) => e.type).sort(), ['webhook_subscription.created', 'webhook_subscription.deleted']);

    assert.equal(unknown.code, 64, unknown.stderr);
    assert.match(unknown.stderr, /unknown type no\.such\.event/);
    for (const type of ['credential.created', 'webhook.test', 'user.created', 'account.created', 'user.verification_status.changed', 'transaction.created', 'webhook_subscription.created']) {
      assert.ok(unknown.stderr.includes(type), `the usage error lists ${type}: ${unknown.stderr}`);
    }
  });
});
