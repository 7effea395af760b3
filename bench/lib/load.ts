/** autocannon runs: warm-up then the measured run, bounded, summarized, and refused unless every answer was 2xx. */
import autocannon from 'autocannon';
import { splitOf, type CpuFigures, type ThreadSplit } from './cpu.js';
import { positiveInt } from './env.js';

export const WARMUP_SECONDS = 2;
export const DURATION_SECONDS = positiveInt('BENCH_DURATION', 10);
/**
 * Compared scenarios (bare, whoami, person details) run in alternating short rounds instead of one long run each, so
 * that a ratio compares figures taken seconds apart, not minutes (a shared machine drifts in between).
 */
export const ROUNDS = positiveInt('BENCH_ROUNDS', 6);
export const ROUND_SECONDS = positiveInt('BENCH_ROUND_SECONDS', 2);
/**
 * create-individual-account alternates with its bare equivalent in ROUNDS rounds too; BENCH_DURATION is its measured
 * time in all, split over them (each round at least 1 s).
 */
export const createRoundSeconds = (): number => Math.max(1, Math.round(DURATION_SECONDS / ROUNDS));

export interface Measured extends CpuFigures {
  connections: number;
  reqPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Max API RSS during warm-up + measured run (absent for the bare baseline). */
  maxRssMb?: number;
  /**
   * The server's CPU time (user + system, its own /proc counters) per answered request, in ms: unlike req/s it hardly
   * moves when the machine is shared, as long as the server gets the cores it asks for.
   */
  cpuMsPerRequest?: number;
  /** cpuMsPerRequest by thread: the event loop's, libuv's pool's, V8's helpers', the rest (cpu.ts ThreadSplit). */
  cpuMsPerRequestByThread?: ThreadSplit;
}

/** The measured run's figures with its CPU, and the server's CPU per request. */
function withCpu(measured: Measured, cpu: CpuFigures | undefined, seconds: number): Measured {
  const perRequest = cpu?.serverCpuPct !== undefined && measured.requests > 0 ? (cpu.serverCpuPct / 100) * seconds * 1000 / measured.requests : undefined;
  const split = cpu?.serverThreadsPct;
  const byThread = split && measured.requests > 0 ? splitOf((part) => ((split[part] / 100) * seconds * 1000) / measured.requests) : undefined;
  return { ...measured, ...cpu, ...(perRequest === undefined ? {} : { cpuMsPerRequest: perRequest }), ...(byThread ? { cpuMsPerRequestByThread: byThread } : {}) };
}

let current: autocannon.Instance | undefined;

/** Ends the run in progress, if any (cleanup on a signal or the overall timeout). */
export function stopCurrentLoad(): void {
  current?.stop();
}

/** One autocannon run, bounded: stopped early if it overruns its duration by 30 s. */
async function load(options: autocannon.Options, seconds: number): Promise<autocannon.Result> {
  const instance = autocannon({ timeout: 10, ...options, duration: seconds });
  current = instance;
  const guard = setTimeout(() => instance.stop(), (seconds + 30) * 1000);
  try {
    return await instance;
  } finally {
    clearTimeout(guard);
    current = undefined;
  }
}

function summarize(r: autocannon.Result, connections: number): Measured {
  return {
    connections,
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
async function checkAll2xx(label: string, r: autocannon.Result, sample: () => Promise<string>): Promise<boolean> {
  if (r.non2xx === 0 && r.errors === 0 && r.timeouts === 0) return true;
  const answer = await sample().catch((err: Error) => `request failed: ${err.message}`);
  console.error(
    `FAIL ${label}: non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}, status codes ${JSON.stringify(r.statusCodeStats)}\n  sample response: ${answer}`,
  );
  return false;
}

export interface LoadSpec {
  label: string;
  connections: number;
  /** autocannon options for one run; called before each run, so signatures are fresh. */
  options: () => autocannon.Options;
  /** A failing answer to show when a run was not all 2xx. */
  sample: () => Promise<string>;
}

/** Warm-up then the measured run, each with freshly made options; `watch` spans the measured run only. */
export async function warmAndMeasure(spec: LoadSpec, watch?: () => { stop: () => CpuFigures }): Promise<{ result: Measured; ok: boolean }> {
  console.error(`${spec.label}: warm-up ${WARMUP_SECONDS} s, then ${DURATION_SECONDS} s, ${spec.connections} connections`);
  const warm = await load({ ...spec.options(), connections: spec.connections }, WARMUP_SECONDS);
  const warmOk = await checkAll2xx(`${spec.label} warm-up`, warm, spec.sample);
  const watching = watch?.();
  const measured = await load({ ...spec.options(), connections: spec.connections }, DURATION_SECONDS);
  const cpu = watching?.stop();
  const ok = await checkAll2xx(spec.label, measured, spec.sample);
  return { result: withCpu(summarize(measured, spec.connections), cpu, DURATION_SECONDS), ok: warmOk && ok };
}

/** The warm-up alone (interleaved rounds warm every scenario once, then measure in turns). */
export async function warmUp(spec: LoadSpec): Promise<boolean> {
  console.error(`${spec.label}: warm-up ${WARMUP_SECONDS} s, ${spec.connections} connections`);
  const warm = await load({ ...spec.options(), connections: spec.connections }, WARMUP_SECONDS);
  return checkAll2xx(`${spec.label} warm-up`, warm, spec.sample);
}

/** One measured round of `seconds`; `watch` spans it. */
export async function measureRound(spec: LoadSpec, seconds: number, watch?: () => { stop: () => CpuFigures }): Promise<{ result: Measured; ok: boolean }> {
  const watching = watch?.();
  const measured = await load({ ...spec.options(), connections: spec.connections }, seconds);
  const cpu = watching?.stop();
  const ok = await checkAll2xx(spec.label, measured, spec.sample);
  return { result: withCpu(summarize(measured, spec.connections), cpu, seconds), ok };
}

/** A GET answer now, for failure samples of GET scenarios. */
export async function fetchSample(url: string, headers: Record<string, string>): Promise<string> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(5000) });
  return `${res.status} ${(await res.text()).slice(0, 500)}`;
}
