/**
 * Child processes for the bench (the API, the bare baseline), on loopback ports, with their output tail kept for
 * error messages, and their RSS sampled from /proc.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { ROOT } from '../../test/harness/root.js';

export { ROOT };
export const run = promisify(execFile);

export interface Child {
  name: string;
  proc: ChildProcess;
  /** Last few KB of stdout+stderr, shown when something goes wrong (LOG_LEVEL=warn keeps it quiet otherwise). */
  tail: () => string;
}

const children = new Set<Child>();

export function startChild(name: string, args: string[], env: Record<string, string>): Child {
  const proc = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const logDir = process.env.BENCH_CHILD_LOG_DIR;
  const log = logDir ? createWriteStream(join(logDir, `${name.replace(/[^\w]+/g, '-')}-${Date.now()}.log`)) : undefined;
  const keep = (chunk: Buffer) => {
    log?.write(chunk);
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  proc.once('close', () => log?.end());
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const child = { name, proc, tail: () => output.trim() };
  children.add(child);
  return child;
}

export function exited(proc: ChildProcess): boolean {
  return proc.exitCode !== null || proc.signalCode !== null;
}

/** SIGTERM, then SIGKILL if it has not exited after `graceMs` (the API drains connections and closes PGlite). */
export async function stopChild(child: Child, graceMs = 5000): Promise<void> {
  const { proc } = child;
  children.delete(child);
  if (exited(proc)) return;
  const gone = once(proc, 'exit');
  proc.kill('SIGTERM');
  if (await Promise.race([gone.then(() => true), sleep(graceMs).then(() => false)])) return;
  proc.kill('SIGKILL');
  await Promise.race([gone, sleep(2000)]);
}

/** Every child still running (cleanup on a signal or an overall timeout). */
export function stopAllChildren(): Promise<void> {
  return Promise.all([...children].map((c) => stopChild(c))).then(() => undefined);
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls until `url` answers `status` (bounded), failing early if the child has died. */
export async function waitForStatus(child: Child, url: string, status: number, headers: () => Record<string, string> = () => ({}), timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (exited(child.proc)) throw new Error(`${child.name} exited (code ${child.proc.exitCode}) before answering:\n${child.tail()}`);
    try {
      const res = await fetch(url, { headers: headers(), signal: AbortSignal.timeout(1000) });
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

/**
 * Same artifact as `npm start` (dist/src/main.js). tsc directly rather than `npm run build`, so a timeout kills
 * the compiler itself rather than an npm wrapper. tsc still emits on type errors, but we refuse them.
 */
/** dist/ as `npm start` builds it: only when a source changed (scripts/build-if-stale.mjs). */
export async function buildServer(): Promise<void> {
  await run(process.execPath, [join(ROOT, 'scripts/build-if-stale.mjs')], { cwd: ROOT, timeout: 180_000 }).catch(
    (err: { stdout?: string; message: string }) => {
      throw new Error(`build failed: ${err.stdout || err.message}`);
    },
  );
}

const RSS_SAMPLE_MS = 200;

export function rssMb(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined; // not Linux, or the process is gone
  }
}

/** Max VmRSS seen every RSS_SAMPLE_MS until stopped. */
export function sampleRss(pid: number): { stop: () => number | undefined } {
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
