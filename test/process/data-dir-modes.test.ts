import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { NARROWED_MESSAGE } from '../../src/db/private-data-dir.js';
import { backends } from '../harness/backends.js';
import { createClient } from '../harness/client.js';
import { californian, signedAt } from '../harness/fixtures.js';
import { entryPoint, runAdmin, startServerProcess } from '../harness/process.js';
import { processDatabase } from '../harness/process-database.js';
import { ROOT } from '../harness/root.js';

/*
 * Everything under DATA_DIR is the service's alone (docs/security.md#files-on-disk), whatever umask it is started
 * with: the server, the webhook worker and the admin CLI are started here under umask 022 (systemd's and most
 * shells' default) on the embedded database, a customer is written, and then every directory under DATA_DIR is 0700
 * and every file 0600, and another local user reads nothing, the write-ahead log holding the customer's email
 * included. A DATA_DIR left with wider modes (an older release, a copy) is narrowed at the next start, which says so.
 */

/** Every entry under `dir` (itself included) with its permission bits, as `0700 d pglite/base`. */
function modes(dir: string): string[] {
  const out: string[] = [];
  const visit = (path: string, rel: string) => {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (!stats) return;
    out.push(`${(stats.mode & 0o7777).toString(8).padStart(4, '0')} ${stats.isDirectory() ? 'd' : stats.isSocket() ? 's' : 'f'} ${rel || '.'}`);
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name), rel ? `${rel}/${name}` : name);
  };
  visit(dir, '');
  return out;
}

/** The entries whose modes are not the service's own: 0700 for a directory, 0600 for a file or socket. */
const loose = (dir: string) => modes(dir).filter((line) => !/^0700 d |^0600 [fs] /.test(line));

/** A script that runs Node under umask 022, whatever this test process's umask is. */
function nodeUnderUmask022(dir: string): string {
  const node = join(dir, 'node-umask-022');
  writeFileSync(node, `#!/bin/sh\numask 022\nexec ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o755 });
  return node;
}

/** The write-ahead log's segments (named by 24 hex digits), newest last. */
const walSegments = (dataDir: string) =>
  readdirSync(join(dataDir, 'pglite/pg_wal'))
    .filter((name) => /^[0-9A-F]{24}$/.test(name))
    .sort()
    .map((name) => join(dataDir, 'pglite/pg_wal', name));

const isRoot = process.getuid?.() === 0;

describe('DATA_DIR is the service’s alone, whatever the umask (embedded database)', () => {
  /** A directory every user may enter, as /var/lib is: only DATA_DIR's own modes keep another user out. */
  const parent = mkdtempSync(join(tmpdir(), 'iapi-modes-'));
  chmodSync(parent, 0o755);
  const dataDir = join(parent, 'data');
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'info' };
  const node = nodeUnderUmask022(parent);
  const email = `wal-canary-${randomUUID()}@example.com`;

  before(() => assert.equal(spawnSync('sh', ['-c', `${JSON.stringify(node)} -e 'process.stdout.write(process.umask().toString(8))'`]).stdout.toString(), '22'));
  after(() => rmSync(parent, { recursive: true, force: true }));

  it('the admin CLI creates DATA_DIR, the server writes a customer, the CLI runs beside it: all 0700 / 0600 under umask 022, and nothing said of narrowing', async () => {
    const created = await runAdmin(['integrators', 'create', '--name', 'Modes'], env, node);
    assert.equal(created.code, 0, created.stderr);
    const privateKey = JSON.parse(created.stdout).privateKey as string;
    assert.deepEqual(loose(dataDir), [], 'the admin CLI on its own');

    const server = await startServerProcess(env, node);
    try {
      const client = createClient({ baseUrl: server.url, privateKey });
      const user = await client.post('/v1/submit/create-user', { userInfo: californian({ email }), serviceTermsSignedAt: signedAt(), partnerSignedAgreementId: 'agreement-1' });
      assert.equal(user.status, 201, user.text);
      // The CLI beside the running server: it hands the command over through DATA_DIR/run/admin.sock.
      const listed = await runAdmin(['integrators', 'list'], env, node);
      assert.equal(listed.code, 0, listed.stderr);
      assert.deepEqual(loose(dataDir), [], 'while the server runs (its lock and admin socket there)');
      assert.ok(walSegments(dataDir).some((file) => readFileSync(file).includes(email)), 'the write-ahead log holds the customer’s email');
    } finally {
      assert.equal(await server.stop(), 0);
    }
    assert.doesNotMatch(server.logs(), new RegExp(NARROWED_MESSAGE.replace(/[()]/g, '\\$&')), 'a DATA_DIR this release made needs no narrowing');
    assert.deepEqual(loose(dataDir), []);
  });

  it('the webhook worker on the same DATA_DIR under umask 022 leaves it as it was', async () => {
    const child = spawn(node, entryPoint('src/worker-main.ts'), { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    // 'close', not 'exit': the output is all read by then.
    const exited = once(child, 'close');
    for (let i = 0; i < 600 && !out.includes('webhook worker ready') && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 50));
    assert.match(out, /webhook worker ready/);
    // Its exit code is not this test's subject: on the embedded database an idle standalone worker also stops by
    // itself right after it is ready, and a SIGTERM that arrives during that stop makes it exit 1.
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    assert.deepEqual(loose(dataDir), []);
  });

  it('another local user reads nothing under DATA_DIR, the write-ahead log included', { skip: !isRoot && 'needs root to act as another user' }, () => {
    const files = [join(dataDir, 'encryption.key'), join(dataDir, 'pglite/PG_VERSION'), join(dataDir, 'pglite/postgresql.conf'), ...walSegments(dataDir)];
    for (const file of files) {
      const read = spawnSync('runuser', ['-u', 'nobody', '--', 'cat', file]);
      assert.notEqual(read.status, 0, `nobody read ${file}`);
      assert.match(read.stderr.toString(), /Permission denied/, file);
    }
    const list = spawnSync('runuser', ['-u', 'nobody', '--', 'ls', dataDir]);
    assert.notEqual(list.status, 0, 'nobody listed DATA_DIR');
  });

  it('a DATA_DIR left with wider modes is narrowed at start, and the log says so at info naming the path', async () => {
    const entries = modes(dataDir).map((line) => line.split(' ')[1]);
    for (const line of modes(dataDir)) {
      const [, kind, rel] = line.split(' ');
      chmodSync(join(dataDir, rel === '.' ? '' : rel!), kind === 'd' ? 0o777 : 0o666);
    }
    assert.equal(loose(dataDir).length, entries.length);

    const server = await startServerProcess(env, node);
    assert.equal(await server.stop(), 0);
    const line = server.logs().split('\n').find((l) => l.includes(NARROWED_MESSAGE));
    assert.ok(line, server.logs());
    const logged = JSON.parse(line) as { level: number; path: string; directories: number; files: number };
    assert.deepEqual(
      { level: logged.level, path: logged.path, directories: logged.directories, files: logged.files },
      { level: 30, path: dataDir, directories: entries.filter((k) => k === 'd').length, files: entries.filter((k) => k !== 'd').length },
    );
    assert.deepEqual(loose(dataDir), []);
  });
});

// On PostgreSQL, DATA_DIR holds the sandbox's sealing key alone (the database server's files are its own business).
if (backends().includes('postgres')) {
  describe('DATA_DIR is the service’s alone on PostgreSQL too: the sandbox key', () => {
    it('under umask 022 the key is 0600 in a 0700 DATA_DIR, and a key left 0644 is narrowed at the next start, logged', async () => {
      const database = await processDatabase('postgres', 'iapi-modes-pg-');
      const node = nodeUnderUmask022(database.env.DATA_DIR!);
      const dataDir = join(database.env.DATA_DIR!, 'data');
      const env = { ...database.env, DATA_DIR: dataDir, LOG_LEVEL: 'info' };
      try {
        let server = await startServerProcess(env, node);
        assert.equal(await server.stop(), 0);
        assert.deepEqual(modes(dataDir), ['0700 d .', '0600 f encryption.key']);

        chmodSync(join(dataDir, 'encryption.key'), 0o644);
        server = await startServerProcess(env, node);
        assert.equal(await server.stop(), 0);
        const line = server.logs().split('\n').find((l) => l.includes(NARROWED_MESSAGE));
        assert.ok(line, server.logs());
        assert.deepEqual((({ path, directories, files }) => ({ path, directories, files }))(JSON.parse(line) as Record<string, unknown>), { path: dataDir, directories: 0, files: 1 });
        assert.deepEqual(loose(dataDir), []);
      } finally {
        await database.remove();
      }
    });
  });
}
