import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createClient } from '../harness/client.js';
import { adminInProcess, runAdmin, runToExit, startServerProcess, type ServerExit } from '../harness/process.js';

describe('the server process on the embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'iapi-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { DATA_DIR: dataDir };

  it('bootstraps an integrator with the CLI, serves it, holds the data directory, and shuts down gracefully', async () => {
    const created = await runAdmin(['integrators', 'create', '--name', 'Acme Pay'], env);
    assert.equal(created.code, 0, created.stderr);
    const out = JSON.parse(created.stdout);
    assert.deepEqual(Object.keys(out).sort(), ['integratorId', 'name', 'privateKey', 'publicKey', 'scope']);
    assert.equal(out.name, 'Acme Pay');
    assert.equal(out.scope, 'read_write');
    assert.ok(existsSync(join(dataDir, 'encryption.key')), 'sandbox key generated into DATA_DIR');

    const server = await startServerProcess(env);
    try {
      const client = createClient({ baseUrl: server.url, privateKey: out.privateKey });
      const who = await client.get('/v1/integrator/whoami');
      assert.equal(who.status, 200);
      assert.equal(who.body.integratorId, out.integratorId);

      // A second process must not open the same PGlite folder.
      await assert.rejects(startServerProcess(env), (err: ServerExit) => {
        assert.equal(err.code, 75);
        assert.match(err.output, /DATA_DIR .* is in use by process \d+/);
        return true;
      });
      // The admin CLI runs beside it: the server takes the command through its socket under DATA_DIR. One command
      // from a process of its own, the others through the same code (runAdminCommand) in this one.
      const listed = await runAdmin(['integrators', 'list'], env);
      assert.equal(listed.code, 0, listed.stderr);
      assert.deepEqual((JSON.parse(listed.stdout) as { integrators: { name: string }[] }).integrators.map((i) => i.name), ['Acme Pay']);
      const second = await adminInProcess(['integrators', 'create', '--name', 'Beside'], env);
      assert.equal(second.code, 0, second.stderr);
      const beside = JSON.parse(second.stdout) as { integratorId: string; privateKey: string };
      const whoBeside = await createClient({ baseUrl: server.url, privateKey: beside.privateKey }).get('/v1/integrator/whoami');
      assert.equal(whoBeside.body.integratorId, beside.integratorId, 'created in the running server\'s database, usable at once');
      const usage = await adminInProcess(['integrators', 'create'], env);
      assert.equal(usage.code, 64, 'a usage error keeps its exit code');
      assert.match(usage.stderr, /--name is required/);
      const status = await adminInProcess(['keys', 'status'], env);
      assert.equal(status.code, 0, status.stderr);
      assert.equal(statSync(join(dataDir, 'run')).mode & 0o777, 0o700, 'only the owner enters the socket\'s directory');
      assert.equal(statSync(join(dataDir, 'run', 'admin.sock')).mode & 0o777, 0o600);
      assert.match(server.logs(), /"command":"integrators create","msg":"admin command over the admin socket"/);
      assert.doesNotMatch(server.logs(), /Beside/, 'arguments are not logged');

      assert.doesNotMatch(server.logs(), new RegExp(out.privateKey.slice(2)), 'private key never logged');
      assert.doesNotMatch(server.logs(), /x-signature/i, 'signature never logged');
      assert.match(server.logs(), /"requestId":"req_/);
    } finally {
      assert.equal(await server.stop('SIGTERM'), 0, 'graceful shutdown exits 0');
    }
    assert.ok(!existsSync(join(dataDir, 'LOCK')), 'lock released');
    assert.ok(!existsSync(join(dataDir, 'run', 'admin.sock')), 'socket removed');

    // Data survives the restart; the CLI opens the database itself while the server is stopped.
    const listed = await adminInProcess(['integrators', 'list'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(JSON.parse(listed.stdout).integrators.map((i: { name: string }) => i.name), ['Acme Pay', 'Beside']);
  });

  it('takes over a lock left by a dead process', async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dataDir, 'LOCK'), '999999\n');
    // In this process (adminInProcess): the command takes the stale lock with this process's pid, and lets it go.
    const res = await adminInProcess(['integrators', 'list'], env);
    assert.equal(res.code, 0, res.stderr);
    assert.ok(!existsSync(join(dataDir, 'LOCK')), 'released once the command has closed the database');
  });

  it('deactivates a credential from the CLI', async () => {
    const created = JSON.parse((await adminInProcess(['integrators', 'create', '--name', 'Second', '--scope', 'read_only'], env)).stdout);
    const res = await adminInProcess(['credentials', 'deactivate', '--public-key', created.publicKey], env);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(JSON.parse(res.stdout).credential.active, false);
    const bad = await adminInProcess(['credentials', 'deactivate', '--public-key', '0x1234'], env);
    assert.equal(bad.code, 65);
    assert.match(bad.stderr, /publicKey/);
  });

  it('refuses to start with an ENCRYPTION_KEY other than the one that sealed the data (exit 78, one line), and starts with the right one', async () => {
    const other = { ...env, ENCRYPTION_KEY: 'cd'.repeat(32) };
    await assert.rejects(startServerProcess(other), (err: ServerExit) => {
      assert.equal(err.code, 78);
      // Its last line: what the start did before it found the key wrong (opening the database) is logged before it.
      assert.match(err.output.trim().split('\n').at(-1)!, /^configuration error: ENCRYPTION_KEY is not the key this database's secrets were sealed with \(.*\)\. Start with the original key/);
      return true;
    });
    const cli = await runAdmin(['integrators', 'list'], other);
    assert.equal(cli.code, 78, cli.stderr);
    assert.match(cli.stderr, /^configuration error: ENCRYPTION_KEY is not the key/);
    const again = await adminInProcess(['integrators', 'list'], env);
    assert.equal(again.code, 0, again.stderr);
  });

  it('refuses bad usage, and bad configuration with one clear line per mistake', async () => {
    const usage = await runAdmin(['integrators', 'create'], env);
    assert.equal(usage.code, 64);
    assert.match(usage.stderr, /--name is required/);
    const unknown = await adminInProcess(['nope'], env);
    assert.equal(unknown.code, 64);
    await assert.rejects(startServerProcess({ ...env, PORT: 'abc' }), (err: ServerExit) => {
      assert.equal(err.code, 78);
      assert.equal(err.output.trim(), 'configuration error: PORT must be an integer from 0 to 65535 (got "abc")');
      return true;
    });
    // Every mistake in one start, one line each: production without any of its four required settings (the
    // embedded database is one of them) names all four, and nothing is written to DATA_DIR.
    const untouched = mkdtempSync(join(tmpdir(), 'iapi-production-'));
    after(() => rmSync(untouched, { recursive: true, force: true }));
    await assert.rejects(startServerProcess({ DATA_DIR: untouched, APP_ENV: 'production', DATABASE_URL: '', ENCRYPTION_KEY: '', WEBAUTHN_RP_IDS: '', WEBAUTHN_ORIGINS: '', LOG_LEVEL: 'loud' }), (err: ServerExit) => {
      assert.equal(err.code, 78);
      const lines = err.output.trim().split('\n');
      assert.deepEqual(
        lines.map((line) => /^configuration error: ([A-Z_]+)/.exec(line)?.[1]),
        ['DATABASE_URL', 'ENCRYPTION_KEYS', 'WEBAUTHN_RP_IDS', 'WEBAUTHN_ORIGINS', 'LOG_LEVEL'],
        err.output,
      );
      assert.match(lines[0]!, /ALLOW_EMBEDDED_DATABASE_IN_PRODUCTION=1/);
      return true;
    });
    assert.deepEqual(readdirSync(untouched), [], 'nothing written');
    const cli = await runAdmin(['integrators', 'list'], { ...env, APP_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32), WEBAUTHN_RP_IDS: 'x.example', WEBAUTHN_ORIGINS: 'https://x.example' });
    assert.equal(cli.code, 78, 'the CLI refuses the same configuration');
    assert.match(cli.stderr, /^configuration error: DATABASE_URL is required when APP_ENV=production/);
  });

  it('a PORT (or the worker\'s METRICS_PORT) already in use: one line naming it, exit 75, and nothing written to DATA_DIR', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    const fresh = mkdtempSync(join(tmpdir(), 'iapi-port-'));
    try {
      const inUse = (variable: string) => `startup error: ${variable} ${port} is already in use on 127.0.0.1 (EADDRINUSE): choose another ${variable} or stop the process listening there`;
      await assert.rejects(startServerProcess({ DATA_DIR: fresh, PORT: String(port) }), (err: ServerExit) => {
        assert.equal(err.code, 75);
        assert.equal(err.output.trim(), inUse('PORT'), 'exactly one line, no stack');
        return true;
      });
      assert.deepEqual(readdirSync(fresh), [], 'no encryption.key, no database');

      const worker = await runToExit('src/worker-main.ts', [], { DATA_DIR: fresh, HOST: '127.0.0.1', METRICS_PORT: String(port) });
      assert.equal(worker.code, 75);
      assert.equal(`${worker.stdout}${worker.stderr}`.trim(), inUse('METRICS_PORT'));
      assert.deepEqual(readdirSync(fresh), [], 'no encryption.key, no database');
    } finally {
      taken.close();
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
