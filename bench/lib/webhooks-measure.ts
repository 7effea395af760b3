/** How the webhooks bench measures a phase: quiet first, CPU over the window, arrivals judged against the events. */
import { waitForQuiet, watchCpu, type CpuFigures } from './cpu.js';
import { writeEvents } from './webhooks-events.js';
import type { ReceiverClient, Taken } from './webhooks-receiver.js';
import { atLeastOnce, BATCH, QUIET_WAIT_SECONDS, type Phase } from './webhooks-settings.js';
import type { CpuSeconds, DeliveryPath, PhaseResult, Setup } from './webhooks-types.js';

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

let allDelivered = true;
/** False once any phase missed a delivery (or duplicated one it promised once): the run then exits 1. */
export const everyDelivered = () => allDelivered;

/**
 * Arrivals against the events written: latencies from createdAt, and any missing or duplicate delivery. A missing
 * one fails the run; a duplicate too, unless the path promises only at-least-once.
 */
export function judge(created: Map<string, number>, taken: Taken, duplicatesAllowed: boolean): { latencies: number[]; missing: number; duplicates: number; lastArrival: number } {
  const first = new Map<string, number>();
  let duplicates = 0;
  let lastArrival = 0;
  taken.ids.forEach((id, i) => {
    const at = taken.at[i]!;
    lastArrival = Math.max(lastArrival, at);
    if (first.has(id)) duplicates++;
    else first.set(id, at);
  });
  let missing = 0;
  const latencies: number[] = [];
  for (const [id, createdAt] of created) {
    const at = first.get(id);
    if (at === undefined) missing++;
    else latencies.push(at - createdAt);
  }
  latencies.sort((a, b) => a - b);
  if (missing > 0 || (duplicates > 0 && !duplicatesAllowed) || first.size !== created.size) allDelivered = false;
  return { latencies, missing, duplicates, lastArrival };
}

export interface CpuWatch {
  stop(): { cpu: CpuFigures; cpuSeconds?: CpuSeconds };
}

/** watchCpu over the bench's processes, also giving CPU-seconds (its figures are % of a core over the window). */
export function cpuWatch(s: Setup, receiver: ReceiverClient, group?: number[]): CpuWatch {
  const watch = watchCpu({ serverPid: receiver.child.proc.pid!, pids: [receiver.child.proc.pid!], ...(group ? { group } : {}), ...(s.databaseName ? { database: s.databaseName } : {}) });
  const started = performance.now();
  return {
    stop: () => {
      const cpu = watch.stop();
      const seconds = (performance.now() - started) / 1000;
      if (cpu.loadGeneratorCpuPct === undefined) return { cpu };
      const of = (pct: number | undefined) => ((pct ?? 0) / 100) * seconds;
      return { cpu, cpuSeconds: { bench: of(cpu.loadGeneratorCpuPct), receiver: of(cpu.serverCpuPct), postgres: of(cpu.postgresCpuPct), group: of(cpu.groupCpuPct) } };
    },
  };
}

const totalCpuSeconds = (c: CpuSeconds) => c.bench + c.receiver + c.postgres + c.group;

/** A phase's CPU fields: the figures, the CPU-seconds and their sum per delivery. */
export function cpuOf(measured: ReturnType<CpuWatch['stop']>, count: number): Pick<PhaseResult, 'cpu' | 'cpuSeconds' | 'cpuMsPerDelivery'> {
  const { cpu, cpuSeconds } = measured;
  return cpuSeconds ? { cpu, cpuSeconds, cpuMsPerDelivery: (totalCpuSeconds(cpuSeconds) * 1000) / count } : { cpu };
}

/** What a phase reports of its arrivals: latency percentiles, and the deliveries missing or repeated. */
export function arrivalFigures(j: ReturnType<typeof judge>): Pick<PhaseResult, 'latencyP50Ms' | 'latencyP99Ms' | 'latencyMaxMs' | 'missing' | 'duplicates'> {
  return { latencyP50Ms: percentile(j.latencies, 0.5), latencyP99Ms: percentile(j.latencies, 0.99), latencyMaxMs: j.latencies.at(-1)!, missing: j.missing, duplicates: j.duplicates };
}

/** Waits for `count` arrivals, stops the CPU count, and judges the arrivals once every delivery is recorded. */
export async function collect(receiver: ReceiverClient, created: Map<string, number>, count: number, cpu: CpuWatch, path: DeliveryPath, phase: Phase) {
  await receiver.waitFor(count, 120_000);
  const measured = cpu.stop();
  const taken = await receiver.take();
  await path.waitRecorded(30_000);
  return { cpuFields: cpuOf(measured, count), j: judge(created, taken, atLeastOnce(phase)) };
}

/** `n` events delivered and recorded, their figures thrown away: JIT, pools, keep-alive sockets, the receiver. */
export async function warmUp(s: Setup, receiver: ReceiverClient, n: number, path: DeliveryPath): Promise<void> {
  await writeEvents(s, n, BATCH, new Map(), path);
  await receiver.waitFor(n, 60_000);
  await path.waitRecorded(30_000);
}

export async function quiet(s: Setup, receiver: ReceiverClient): Promise<void> {
  if (QUIET_WAIT_SECONDS > 0) await waitForQuiet({ serverPid: receiver.child.proc.pid!, pids: [receiver.child.proc.pid!], ...(s.databaseName ? { database: s.databaseName } : {}) }, QUIET_WAIT_SECONDS);
}
