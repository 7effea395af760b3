/**
 * The API's CPU time per request against its bare equivalent's (bench/bare-equivalent-server.ts), both measured in
 * the same alternating rounds: the ratio says what everything around the essential work costs. Goals on
 * PostgreSQL; PGlite's ratios are reported without a goal.
 */
import type { BackendKind } from './backend.js';
import { splitOf } from './cpu.js';
import type { Measured } from './load.js';

/** Highest API / bare equivalent CPU ms per request, per scenario (docs/benchmarks.md#goals; issue 55's, on Node 24). */
export const CPU_VS_BARE_GOALS = { whoami: 1.15, 'get-associated-person-details': 1.2, 'create-individual-account': 1.3 } as const;
export type EquivalentScenario = keyof typeof CPU_VS_BARE_GOALS;
export const EQUIVALENT_SCENARIOS = Object.keys(CPU_VS_BARE_GOALS) as EquivalentScenario[];

/** What a scenario's row and rounds carry about its bare equivalent. */
export interface BareEquivalentFigures {
  /** The bare equivalent's CPU ms per request, measured in the same rounds as the API's cpuMsPerRequest. */
  bareEquivalentCpuMsPerRequest?: number;
  /** The bare equivalent's own figures (its rounds combined like the API's). */
  bareEquivalent?: Measured;
}

type Round = Partial<Record<string, Measured & BareEquivalentFigures>>;

const middle = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The per-round ratios API / bare equivalent CPU ms per request: their median, spread and values; undefined without any. */
export function cpuVsBare(rounds: Round[], scenario: EquivalentScenario): { median: number; min: number; max: number; values: number[] } | undefined {
  const values = rounds.flatMap((r) => {
    const m = r[scenario];
    return m?.cpuMsPerRequest !== undefined && m.bareEquivalentCpuMsPerRequest ? [m.cpuMsPerRequest / m.bareEquivalentCpuMsPerRequest] : [];
  });
  return values.length === 0 ? undefined : { median: middle(values), min: Math.min(...values), max: Math.max(...values), values };
}

/**
 * Where the two servers' CPU per request went, µs by thread (median of the rounds): event loop / libuv's pool / V8's
 * helpers / the rest; a difference in the ratio shows on the thread that does the extra work.
 */
export function threadSplitNote(rounds: Round[], scenario: EquivalentScenario): string | undefined {
  const of = (pick: (m: Measured & BareEquivalentFigures) => Measured['cpuMsPerRequestByThread']) => {
    const splits = rounds.flatMap((r) => (r[scenario] && pick(r[scenario]) ? [pick(r[scenario])!] : []));
    if (splits.length === 0) return undefined;
    return Object.values(splitOf((part) => middle(splits.map((s) => s[part])) * 1000)).map((us) => us.toFixed(1)).join('/');
  };
  const api = of((m) => m.cpuMsPerRequestByThread);
  const bare = of((m) => m.bareEquivalent?.cpuMsPerRequestByThread);
  return api && bare ? `µs/req by thread (event loop/pool/V8/other): API ${api}, bare ${bare}` : undefined;
}

/** Every scenario's ratio, for bench/results/latest.json. */
export const cpuVsBareAll = (rounds: Round[]) => Object.fromEntries(EQUIVALENT_SCENARIOS.flatMap((s) => (cpuVsBare(rounds, s) ? [[s, cpuVsBare(rounds, s)]] : [])));

/** The goal checks (report.ts GoalCheck's shape) of the scenarios measured with a bare equivalent. */
export function cpuChecks(backend: BackendKind, rounds: Round[]) {
  return EQUIVALENT_SCENARIOS.flatMap((scenario) => {
    const ratio = cpuVsBare(rounds, scenario);
    if (!ratio) return [];
    const max = CPU_VS_BARE_GOALS[scenario];
    const split = threadSplitNote(rounds, scenario);
    const spread = `median of ${ratio.values.length} rounds, ${ratio.min.toFixed(2)}-${ratio.max.toFixed(2)}${split ? `; ${split}` : ''}`;
    return [
      {
        backend,
        what: `${scenario} CPU/bare`,
        value: ratio.median,
        goal: `<= ${max}`,
        // The goals are PostgreSQL's; PGlite's figure is reported only.
        pass: backend === 'postgres' ? ratio.median <= max : undefined,
        note: backend === 'postgres' ? spread : `${spread}; reported, the goal is PostgreSQL's`,
      },
    ];
  });
}
