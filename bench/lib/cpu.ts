/**
 * CPU accounting over one measured run, from /proc (Linux; elsewhere every figure is undefined): how busy the server
 * under load was (100 % = one core: its JavaScript is single-threaded, so ~100 % means the server is the limit), and
 * how much CPU processes that are not part of the bench took. Others' test runs on the same machine skew the
 * figures; the report warns when they used more than a few percent.
 */
import { readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every mainstream Linux build

interface Proc {
  ticks: number;
  cmd: string;
}

function snapshot(): Map<number, Proc> {
  const procs = new Map<number, Proc>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return procs;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      procs.set(Number(entry), { ticks: Number(fields[11]) + Number(fields[12]), cmd });
    } catch {
      // gone meanwhile
    }
  }
  return procs;
}

/** A process's threads' CPU ticks, by thread id, with each thread's name (/proc/<pid>/task). */
function threadTicks(pid: number): Map<number, { name: string; ticks: number }> {
  const threads = new Map<number, { name: string; ticks: number }>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      threads.set(Number(tid), { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // gone meanwhile
    }
  }
  return threads;
}

/**
 * Where the server's CPU went, % of one core: its JavaScript's thread (the event loop), libuv's pool (the signature
 * checks, hashing, zlib, file reads), V8's helpers (GC marking and scavenging, compilers), anything else.
 */
export interface ThreadSplit {
  eventLoop: number;
  pool: number;
  v8: number;
  other: number;
}

/** A ThreadSplit of `value` for each part (the per-thread arithmetic of cpu.ts, load.ts and report.ts). */
export function splitOf(value: (part: keyof ThreadSplit) => number): ThreadSplit {
  return { eventLoop: value('eventLoop'), pool: value('pool'), v8: value('v8'), other: value('other') };
}

export interface CpuFigures {
  /** The server's CPU by thread (see ThreadSplit), % of one core. */
  serverThreadsPct?: ThreadSplit;
  /** CPU of the server under load (the API, or the bare baseline), % of one core. */
  serverCpuPct?: number;
  /** This process: autocannon and, for POSTs, building and signing the bodies. */
  loadGeneratorCpuPct?: number;
  /** PostgreSQL backends of the bench database, % of one core (PostgreSQL runs only). */
  postgresCpuPct?: number;
  /** Processes outside the bench, % of one core, and the busiest of them when that is more than QUIET_PCT. */
  otherCpuPct?: number;
  otherBusiest?: string;
  /** The `group` processes together (e.g. worker processes), % of one core. */
  groupCpuPct?: number;
  /**
   * Every core's busy time from /proc/stat, % of one core (200 = both of two cores): unlike the per-process figures it
   * includes processes that exited during the run (a test file's children, a `tsc`), which no snapshot sees.
   */
  machineCpuPct?: number;
}

/** Busy and total jiffies of all cores (/proc/stat's first line), or undefined off Linux. */
function machineTicks(): { busy: number; total: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0); // user … steal (guest time is inside user)
    const idle = fields[3]! + fields[4]!; // idle + iowait
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/** PostgreSQL's shared helper processes (WAL writer, checkpointer, ...) serve the bench too. */
const POSTGRES_HELPER = /^postgres: (\S+: )?(checkpointer|background writer|walwriter|autovacuum|logical replication|stats|archiver)|\/bin\/postgres /;

/**
 * Starts counting. `serverPid`: the server under load; `pids`: the bench's other processes (the API, the bare
 * server; this process counts too); `database`: the bench database's name, whose PostgreSQL backends (process
 * title `postgres: ... <db> ...`) do the API's work.
 */
export function watchCpu(own: { serverPid: number; pids: number[]; database?: string; group?: number[] }): { stop: () => CpuFigures } {
  const before = snapshot();
  const threadsBefore = threadTicks(own.serverPid);
  const machineBefore = machineTicks();
  const started = process.hrtime.bigint();
  return {
    stop: () => {
      const after = snapshot();
      const threadsAfter = threadTicks(own.serverPid);
      const machineAfter = machineTicks();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (after.size === 0 || seconds <= 0) return {};
      const pct = (ticks: number) => (100 * ticks) / TICKS_PER_SECOND / seconds;
      const mine = new Set([...own.pids, process.ppid]);
      let server = 0;
      let generator = 0;
      let postgres = 0;
      let other = 0;
      let group = 0;
      const grouped = new Set(own.group ?? []);
      let busiest: [number, string] = [0, ''];
      for (const [pid, proc] of after) {
        const used = proc.ticks - (before.get(pid)?.ticks ?? 0);
        if (used <= 0) continue;
        if (pid === own.serverPid) server += used;
        else if (grouped.has(pid)) group += used;
        else if (pid === process.pid) generator += used;
        else if (own.database && proc.cmd.startsWith('postgres:') && proc.cmd.includes(` ${own.database} `)) postgres += used;
        else if (mine.has(pid) || proc.cmd === '' || POSTGRES_HELPER.test(proc.cmd)) continue; // ours, or kernel threads
        else {
          other += used;
          if (used > busiest[0]) busiest = [used, `${pid} ${proc.cmd.slice(0, 80)}`];
        }
      }
      const split: ThreadSplit = { eventLoop: 0, pool: 0, v8: 0, other: 0 };
      for (const [tid, thread] of threadsAfter) {
        const used = thread.ticks - (threadsBefore.get(tid)?.ticks ?? 0);
        const part = tid === own.serverPid ? 'eventLoop' : thread.name.startsWith('libuv-worker') ? 'pool' : thread.name.startsWith('V8') ? 'v8' : 'other';
        split[part] += used;
      }
      return {
        serverCpuPct: pct(server),
        ...(threadsAfter.size > 0 ? { serverThreadsPct: splitOf((part) => pct(split[part])) } : {}),
        loadGeneratorCpuPct: pct(generator),
        postgresCpuPct: own.database ? pct(postgres) : undefined,
        otherCpuPct: pct(other),
        otherBusiest: pct(other) > QUIET_PCT ? busiest[1] : undefined,
        ...(own.group ? { groupCpuPct: pct(group) } : {}),
        ...(machineBefore && machineAfter ? { machineCpuPct: pct(machineAfter.busy - machineBefore.busy) } : {}),
      };
    },
  };
}

/** Other processes below this (% of one core) count as quiet. */
export const QUIET_PCT = 10;

/**
 * Waits, up to `maxSeconds`, until processes outside the bench use at most QUIET_PCT of a core over one second
 * (others' test runs on a shared machine); then measures anyway, and the report flags the skewed rows.
 */
export async function waitForQuiet(own: Parameters<typeof watchCpu>[0], maxSeconds: number): Promise<void> {
  const deadline = Date.now() + maxSeconds * 1000;
  let said = false;
  for (;;) {
    const watch = watchCpu(own);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { otherCpuPct, otherBusiest } = watch.stop();
    if (otherCpuPct === undefined || otherCpuPct <= QUIET_PCT) return;
    if (Date.now() >= deadline) {
      console.error(`  other processes still use ${otherCpuPct.toFixed(0)}% CPU after ${maxSeconds} s; measuring anyway`);
      return;
    }
    if (!said) console.error(`  waiting for other processes to go quiet (${otherCpuPct.toFixed(0)}% CPU, busiest: ${otherBusiest})`);
    said = true;
  }
}
