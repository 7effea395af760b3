/**
 * `npm run bench`: signed GET /v1/integrator/whoami on the real (built) server vs a bare node:http server that
 * only verifies the signature (bench/bare-verify-server.ts). Both run as child processes on loopback, apart
 * from the load generator, on a fresh temporary PGlite data dir. Prints a table, writes bench/results/latest.json,
 * exits non-zero if any response was not 2xx (goal misses are reported, not fatal).
 *
 * Env: BENCH_DURATION (seconds per measured run, default 10), BENCH_CPU_PROF (a directory: profile the API
 * server with --cpu-prof; the .cpuprofile is written there when it exits).
 */
import autocannon from 'autocannon';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { importPrivateKey } from '../src/crypto/p256.js';
import { signRequest } from '../src/crypto/request-signature.js';
import { provisionDatabase } from '../test/harness/backends.js';

/** Set when BENCH_DATABASE_URL made a database for this run; dropped at the end. */
let dropDatabase: (() => Promise<void>) | undefined;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PATH = '/v1/integrator/whoami';
const CONNECTIONS = 50;
const WARMUP_SECONDS = 2;
const DURATION_SECONDS = positiveInt(process.env.BENCH_DURATION, 10);
const GOALS = { minRatio: 0.75, maxApiP99Ms: 25, maxApiRssMb: 200 };
const RSS_SAMPLE_MS = 200;

function positiveInt(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`BENCH_DURATION must be a positive integer (got "${raw}")`);
  return Number(raw);
}

// ---- child processes -------------------------------------------------------------------------------------

interface Child {
  name: string;
  proc: ChildProcess;
  /** Last few KB of stdout+stderr, shown when something goes wrong (LOG_LEVEL=warn keeps it quiet otherwise). */
  tail: () => string;
}

const children: Child[] = [];

function startChild(name: string, args: string[], env: Record<string, string>): Child {
  const proc = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const child = { name, proc, tail: () => output.trim() };
  children.push(child);
  return child;
}

function exited(proc: ChildProcess): boolean {
  return proc.exitCode !== null || proc.signalCode !== null;
}

/** SIGTERM, then SIGKILL if it has not exited after `graceMs` (the API drains connections and closes PGlite). */
async function stopChild({ proc }: Child, graceMs = 5000): Promise<void> {
  if (exited(proc)) return;
  const gone = once(proc, 'exit');
  proc.kill('SIGTERM');
  if (await Promise.race([gone.then(() => true), sleep(graceMs).then(() => false)])) return;
  proc.kill('SIGKILL');
  await Promise.race([gone, sleep(2000)]);
}

const run = promisify(execFile);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls until `url` answers `status` (bounded), failing early if the child has died. */
async function waitForStatus(child: Child, url: string, status: number, headers: Record<string, string> = {}, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (exited(child.proc)) throw new Error(`${child.name} exited (code ${child.proc.exitCode}) before answering:\n${child.tail()}`);
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(1000) });
      const body = await res.text();
      if (res.status === status) return;
      last = `${res.status} ${body.slice(0, 500)}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await sleep(100);
  }
  throw new Error(`${child.name}: ${url} did not answer ${status} within ${timeoutMs} ms (last: ${last})\n${child.tail()}`);
}

// ---- measurement -----------------------------------------------------------------------------------------

function rssMb(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined; // not Linux, or the process is gone
  }
}

/** Max VmRSS seen every RSS_SAMPLE_MS until stopped. */
function sampleRss(pid: number): { stop: () => number | undefined } {
  let max: number | undefined;
  const tick = () => {
    const mb = rssMb(pid);
    if (mb !== undefined) max = Math.max(max ?? 0, mb);
  };
  tick();
  const timer = setInterval(tick, RSS_SAMPLE_MS);
  return {
    stop: () => {
      clearInterval(timer);
      tick();
      return max;
    },
  };
}

/**
 * Fresh signature headers. The timestamp must be within 60 s of the server's clock and GETs are not
 * replay-guarded, so one set serves a whole run; signing again before each run keeps long runs in the window.
 */
function signedHeaders(key: ReturnType<typeof importPrivateKey>): Record<string, string> {
  return { ...signRequest(key, String(Math.floor(Date.now() / 1000)), 'GET', PATH) };
}

let current: autocannon.Instance | undefined;

/** One autocannon run, bounded: stopped early if it overruns its duration by 30 s. */
async function load(url: string, headers: Record<string, string>, seconds: number): Promise<autocannon.Result> {
  const instance = autocannon({ url, headers, connections: CONNECTIONS, duration: seconds, timeout: 10 });
  current = instance;
  const guard = setTimeout(() => instance.stop(), (seconds + 30) * 1000);
  try {
    return await instance;
  } finally {
    clearTimeout(guard);
    current = undefined;
  }
}

interface Measured {
  reqPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

function summarize(r: autocannon.Result): Measured {
  return {
    reqPerSec: r.requests.mean,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    requests: r['2xx'] + r.non2xx,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count])),
  };
}

/** Anything but 2xx (or a connection error/timeout) is a broken benchmark: say so, with a sample answer. */
async function checkAll2xx(label: string, r: autocannon.Result, url: string, headers: Record<string, string>): Promise<boolean> {
  if (r.non2xx === 0 && r.errors === 0 && r.timeouts === 0) return true;
  let sample: string;
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(5000) });
    sample = `${res.status} ${(await res.text()).slice(0, 500)}`;
  } catch (err) {
    sample = `request failed: ${(err as Error).message}`;
  }
  console.error(
    `FAIL ${label}: non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}, status codes ${JSON.stringify(r.statusCodeStats)}\n  sample response now: ${sample}`,
  );
  return false;
}

/** Warm-up then the measured run against one server, each with freshly signed headers. */
async function bench(label: string, url: string, key: ReturnType<typeof importPrivateKey>): Promise<{ result: Measured; ok: boolean }> {
  console.error(`${label}: warm-up ${WARMUP_SECONDS} s, then ${DURATION_SECONDS} s, ${CONNECTIONS} connections`);
  let headers = signedHeaders(key);
  const warm = await load(url, headers, WARMUP_SECONDS);
  const warmOk = await checkAll2xx(`${label} warm-up`, warm, url, headers);
  headers = signedHeaders(key);
  const measured = await load(url, headers, DURATION_SECONDS);
  const ok = await checkAll2xx(label, measured, url, headers);
  return { result: summarize(measured), ok: warmOk && ok };
}

// ---- main ------------------------------------------------------------------------------------------------

const dataDir = mkdtempSync(join(tmpdir(), 'whoami-bench-'));

let cleaning: Promise<void> | undefined;
/** Idempotent: stops the load, both servers, then removes the data dir (PGlite must have closed first). */
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    current?.stop();
    await Promise.all(children.map((c) => stopChild(c)));
    rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase?.().catch((err: Error) => console.error(`could not drop the bench database: ${err.message}`));
  })();
  return cleaning;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}
// Hard ceiling on the whole run, whatever hangs.
const budgetMs = 300_000 + 2 * (WARMUP_SECONDS + DURATION_SECONDS + 30) * 1000;
setTimeout(() => {
  console.error(`bench: exceeded ${budgetMs / 1000} s overall; aborting`);
  void cleanup().finally(() => process.exit(1));
}, budgetMs).unref();

async function main(): Promise<number> {
  // Same artifact as `npm start` (dist/src/main.js). tsc directly rather than `npm run build`, so a timeout
  // kills the compiler itself rather than an npm wrapper. tsc still emits on type errors, but we refuse them.
  console.error('building (tsc -p tsconfig.build.json)...');
  await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, timeout: 180_000 }).catch(
    (err: { stdout?: string; message: string }) => {
      throw new Error(`build failed: ${err.stdout || err.message}`);
    },
  );

  // BENCH_DATABASE_URL: measure on a fresh database of that PostgreSQL server instead of embedded PGlite.
  const env: Record<string, string> = { DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  if (process.env.BENCH_DATABASE_URL) {
    const provisioned = await provisionDatabase('postgres', process.env.BENCH_DATABASE_URL);
    dropDatabase = provisioned.drop;
    if (provisioned.target.kind === 'postgres') env.DATABASE_URL = provisioned.target.url;
  }
  console.error(`database: ${env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}`);
  const created = await run(process.execPath, ['dist/src/cli/admin.js', 'integrators', 'create', '--name', 'bench'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  const { privateKey } = JSON.parse(created.stdout) as { privateKey?: string };
  if (!privateKey) throw new Error(`admin CLI printed no privateKey:\n${created.stdout}`);
  const key = importPrivateKey(privateKey);

  const [apiPort, barePort] = [await freePort(), await freePort()];
  const profDir = process.env.BENCH_CPU_PROF;
  const api = startChild(
    'api',
    [...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), '--enable-source-maps', 'dist/src/main.js'],
    // RATE_LIMIT_MAX is capped at 1,000,000 by config; a 1 s window makes that unreachable, while the
    // limiter still does its per-request work.
    { ...env, PORT: String(apiPort), RATE_LIMIT_MAX: '1000000', RATE_LIMIT_WINDOW_SECONDS: '1' },
  );
  // The bare server runs its TypeScript through tsx: the loader only costs at import time.
  const bare = startChild('bare', ['--import', 'tsx', 'bench/bare-verify-server.ts'], { HOST: '127.0.0.1', PORT: String(barePort) });

  const apiUrl = `http://127.0.0.1:${apiPort}${PATH}`;
  const bareUrl = `http://127.0.0.1:${barePort}${PATH}`;
  await waitForStatus(api, `http://127.0.0.1:${apiPort}/livez`, 200);
  // A signed request must already succeed on both, or the load runs would only measure 401s.
  await waitForStatus(api, apiUrl, 200, signedHeaders(key), 5000);
  await waitForStatus(bare, bareUrl, 200, signedHeaders(key));
  const idleRssMb = rssMb(api.proc.pid!);

  const bareRun = await bench('bare', bareUrl, key);
  const rss = sampleRss(api.proc.pid!);
  const apiRun = await bench('api', apiUrl, key);
  const maxRssMb = rss.stop();

  const ratio = apiRun.result.reqPerSec / bareRun.result.reqPerSec;
  const goals = {
    ratio: ratio >= GOALS.minRatio,
    apiP99: apiRun.result.latencyP99Ms <= GOALS.maxApiP99Ms,
    apiRss: maxRssMb !== undefined && maxRssMb <= GOALS.maxApiRssMb,
  };
  const ok = bareRun.ok && apiRun.ok;

  const row = (name: string, m: Measured) =>
    `${name.padEnd(6)} ${m.reqPerSec.toFixed(0).padStart(9)} ${String(m.latencyP50Ms).padStart(8)} ${String(m.latencyP99Ms).padStart(8)} ${String(m.non2xx + m.errors + m.timeouts).padStart(8)}`;
  const mark = (pass: boolean) => (pass ? 'PASS' : 'MISS');
  console.log(
    [
      '',
      `GET ${PATH}: ${CONNECTIONS} connections, ${DURATION_SECONDS} s after ${WARMUP_SECONDS} s warm-up, ${availableParallelism()} CPUs, node ${process.version}`,
      `server    req/s  p50(ms)  p99(ms)  non-2xx`,
      row('bare', bareRun.result),
      row('api', apiRun.result),
      '',
      `api/bare req/s  ${ratio.toFixed(2).padStart(7)}   goal >= ${GOALS.minRatio}   ${mark(goals.ratio)}`,
      `api p99 (ms)    ${String(apiRun.result.latencyP99Ms).padStart(7)}   goal <= ${GOALS.maxApiP99Ms}     ${mark(goals.apiP99)}`,
      `api max RSS MB  ${(maxRssMb?.toFixed(1) ?? 'n/a').padStart(7)}   goal <= ${GOALS.maxApiRssMb}    ${mark(goals.apiRss)}  (idle ${idleRssMb?.toFixed(1) ?? 'n/a'})`,
      ok ? '' : '\nFAIL: some responses were not 2xx (see above)',
    ].join('\n'),
  );
  if (api.tail()) console.error(`\napi server output (tail):\n${api.tail()}`);

  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  const report = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: availableParallelism(),
    path: PATH,
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    durationSeconds: DURATION_SECONDS,
    bare: bareRun.result,
    api: { ...apiRun.result, idleRssMb, maxRssMb },
    ratio,
    goals: { ...GOALS, pass: goals },
    all2xx: ok,
  };
  writeFileSync(join(ROOT, 'bench/results/latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.error('wrote bench/results/latest.json');
  return ok ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  console.error(`bench failed: ${(err as Error).message}`);
} finally {
  await cleanup();
}
process.exit(code);
