import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { HEAP_GROWING_PERCENT_EMBEDDED, HEAP_GROWING_PERCENT_POSTGRES, SEMI_SPACE_MB, SERVICE_NODE_FLAGS, heapGrowingPercent, semiSpaceSetting } from '../../src/node-flags.js';
import { eventually } from '../harness/eventually.js';
import { entryPoint, freePort, npmScriptNodeArgs, startServerProcess } from '../harness/process.js';
import { ROOT } from '../harness/root.js';

/**
 * The node flags for memory are on every start command (src/node-flags.ts, docs/deployment.md#memory): the server
 * and the worker are started with package.json's own node flags, as `npm start` and `npm run worker` run them, and
 * the heap limit they report on /metrics (V8's, of the running process) is the one a node with
 * --max-semi-space-size=16 has on this machine, not V8's default; the other start commands carry the same flags.
 */
const run = promisify(execFile);
const FLAG = `--max-semi-space-size=${SEMI_SPACE_MB}`;
const dataDir = mkdtempSync(join(tmpdir(), 'iapi-node-flags-'));

/** The heap limit (bytes) of a bare node started with `flags`, on this machine: what V8 makes of them. */
async function heapLimitWith(flags: string[]): Promise<number> {
  const { stdout } = await run(process.execPath, [...flags, '-p', 'require("node:v8").getHeapStatistics().heap_size_limit'], { env: { ...process.env, NODE_OPTIONS: '' } });
  return Number(stdout.trim());
}

function heapLimitOf(metrics: string): number {
  const value = /^nodejs_heap_size_limit_bytes (\d+)$/m.exec(metrics)?.[1];
  assert.ok(value, `nodejs_heap_size_limit_bytes in /metrics:\n${metrics.slice(0, 2000)}`);
  return Number(value);
}

/** A script's node flags (all but its file) and the entry point as the suite runs it (compiled or under tsx). */
function asNpmRuns(script: string, source: string): string[] {
  const flags = npmScriptNodeArgs(script).slice(0, -1);
  for (const flag of SERVICE_NODE_FLAGS) assert.ok(flags.includes(flag), `package.json's ${script} script gives node ${flag}: ${flags.join(' ')}`);
  return [...flags, ...entryPoint(source)];
}

/** The flags a start command gives before its file (`tsx [watch]` passes node's flags on). */
function flagsOf(command: string): string[] {
  return command.trim().split(/\s+/).filter((word) => word.startsWith('--') && word !== '--enable-source-maps');
}

describe('the node flags the service starts with', () => {
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('npm start: the running server\'s heap is sized by --max-semi-space-size=16, and its ready line says so', { timeout: 90_000 }, async () => {
    const expected = await heapLimitWith([FLAG]);
    const server = await startServerProcess({ DATA_DIR: join(dataDir, 'server') }, process.execPath, asNpmRuns('start', 'src/main.ts'));
    try {
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      assert.equal(heapLimitOf(metrics), expected, 'the server\'s V8 heap limit is a 16 MiB semi-space one');
      const logs = await eventually(async () => server.logs(), (text) => text.includes('"msg":"integrator api ready"'), 'the ready line');
      const ready = logs.split('\n').find((line) => line.includes('"msg":"integrator api ready"'))!;
      assert.deepEqual((JSON.parse(ready) as { heap: object }).heap, { limitMb: Math.round(expected / 2 ** 20), semiSpaceMb: SEMI_SPACE_MB, liftoffOnly: true, externalMemoryInGlobalLimit: false, heapGrowingPercent: HEAP_GROWING_PERCENT_EMBEDDED });
      assert.doesNotMatch(server.logs(), /started without --max-semi-space-size/);
    } finally {
      await server.stop();
    }
  });

  it('npm run worker: the standalone worker\'s heap is sized the same', { timeout: 90_000 }, async () => {
    const expected = await heapLimitWith([FLAG]);
    const port = await freePort();
    const child = spawn(process.execPath, asNpmRuns('worker', 'src/worker-main.ts'), {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: join(dataDir, 'worker'), HOST: '127.0.0.1', METRICS_PORT: String(port), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    try {
      await new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('"msg":"webhook worker ready"')) resolve();
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${out}`)));
      });
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      assert.equal(heapLimitOf(metrics), expected, 'the worker\'s V8 heap limit is a 16 MiB semi-space one');
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    }
  });

  it('every start command gives the same flags: npm start, the worker, dev, the admin CLI and the systemd units', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const script of ['start', 'worker', 'dev', 'admin']) assert.deepEqual(flagsOf(scripts[script]!), [...SERVICE_NODE_FLAGS], `package.json's ${script}: ${scripts[script]}`);
    for (const unit of ['integrator-api@.service', 'integrator-worker@.service']) {
      const execStart = /^ExecStart=(.*)$/m.exec(readFileSync(join(ROOT, 'deploy/systemd', unit), 'utf8'))?.[1];
      assert.deepEqual(flagsOf(execStart ?? ''), [...SERVICE_NODE_FLAGS], `${unit}: ${execStart}`);
    }
  });

  it('on PostgreSQL, Buffers count in V8\'s heap limit (src/heap-growth.ts): megabytes that come and go set off no full collection there, several on the embedded database', async () => {
    const fullCollections = async (env: Record<string, string>, flags: string[] = []) => {
      const args = [...SERVICE_NODE_FLAGS, ...flags, '--import', 'tsx', 'test/process/fixtures/external-churn.ts'];
      const { stdout } = await run(process.execPath, args, { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '', ...env } });
      return Number(stdout.trim());
    };
    // Never connected to: the policy only looks at whether it is set.
    const postgres = 'postgres://nobody@127.0.0.1:9/none';
    const [embedded, onPostgres, refused] = await Promise.all([
      fullCollections({ DATABASE_URL: '' }),
      fullCollections({ DATABASE_URL: postgres }),
      fullCollections({ DATABASE_URL: postgres }, ['--no-external-memory-accounted-in-global-limit']),
    ]);
    // 1,280 MiB against V8's 64 MB allowance: 13 or 14 full collections without the setting here, 0 or 1 with it.
    assert.ok(embedded >= 6, `embedded database: ${embedded} full collections`);
    assert.ok(onPostgres <= 2, `PostgreSQL: ${onPostgres} full collections`);
    assert.ok(refused >= 6, `PostgreSQL with --no-external-memory-accounted-in-global-limit: ${refused} full collections`);
  });

  it('the old generation grows by 50 % past what a full collection kept on the embedded database, 100 % on PostgreSQL (src/heap-growth.ts): a growing heap is collected more often there', async () => {
    const fullCollections = async (env: Record<string, string>, flags: string[] = []) => {
      const args = [...SERVICE_NODE_FLAGS, ...flags, '--import', 'tsx', 'test/process/fixtures/old-growth.ts'];
      const { stdout } = await run(process.execPath, args, { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '', ...env } });
      return Number(stdout.trim().split(' ')[0]);
    };
    const postgres = 'postgres://nobody@127.0.0.1:9/none';
    const [embedded, onPostgres, given] = await Promise.all([
      fullCollections({ DATABASE_URL: '' }),
      fullCollections({ DATABASE_URL: postgres }),
      fullCollections({ DATABASE_URL: '' }, [`--heap-growing-percent=${HEAP_GROWING_PERCENT_POSTGRES}`]),
    ]);
    assert.ok(embedded > onPostgres, `embedded database: ${embedded} full collections, PostgreSQL: ${onPostgres}`);
    assert.ok(embedded > given, `embedded database: ${embedded} full collections, with --heap-growing-percent=${HEAP_GROWING_PERCENT_POSTGRES} on the command line: ${given}`);
  });

  it('the growing percent: node\'s command line first, then whether DATABASE_URL is set', () => {
    assert.deepEqual(heapGrowingPercent([], {}), { percent: HEAP_GROWING_PERCENT_EMBEDDED, from: 'embedded database' });
    assert.deepEqual(heapGrowingPercent([], { DATABASE_URL: 'postgres://x/y' }), { percent: HEAP_GROWING_PERCENT_POSTGRES, from: 'DATABASE_URL' });
    assert.deepEqual(heapGrowingPercent(['--heap-growing-percent=30'], { DATABASE_URL: 'postgres://x/y' }), { percent: 30, from: 'command line' });
    assert.deepEqual(heapGrowingPercent(['--heap_growing_percent', '70'], {}), { percent: 70, from: 'command line' });
    assert.deepEqual(heapGrowingPercent(['--heap-growing-percent=20', '--heap-growing-percent=40'], {}), { percent: 40, from: 'command line' });
    assert.deepEqual(heapGrowingPercent(['--heap-growing-percent'], {}), { percent: undefined, from: 'command line' });
  });

  it('the semi-space setting: the command line\'s last one with a number, then NODE_OPTIONS\'', () => {
    assert.deepEqual(semiSpaceSetting([], ''), { mb: undefined, from: undefined });
    assert.deepEqual(semiSpaceSetting(['--max-semi-space-size=16'], '--max-semi-space-size=64'), { mb: 16, from: 'command line' });
    assert.deepEqual(semiSpaceSetting(['--max_semi_space_size', '8', '--max-semi-space-size=32'], ''), { mb: 32, from: 'command line' });
    // One without a number sets nothing: the one before it stands.
    assert.deepEqual(semiSpaceSetting(['--max-semi-space-size=16', '--max-semi-space-size'], ''), { mb: 16, from: 'command line' });
    assert.deepEqual(semiSpaceSetting(['--liftoff-only'], '--max-semi-space-size 24 --max-semi-space-size=x'), { mb: 24, from: 'NODE_OPTIONS' });
  });

  it('the heap limit tells the semi-space size apart (else the checks above could not fail)', async () => {
    const [flagged, at64] = await Promise.all([heapLimitWith([FLAG]), heapLimitWith(['--max-semi-space-size=64'])]);
    // Three semi-spaces: 3 x (64 - 16) MiB.
    assert.equal(at64 - flagged, 3 * (64 - SEMI_SPACE_MB) * 2 ** 20);
  });
});
