/** What the ledger bench's run (ledger-run.ts) takes and gives back: its options, per-side figures and books check. */
import type { CpuFigures } from './cpu.js';

export const SIDES = ['engine', 'bare (stepwise)', 'bare (one statement)'] as const;
export type Side = (typeof SIDES)[number];

export interface LedgerBenchOptions {
  postgresUrl: string;
  writers: number;
  customers: number;
  /**
   * true (the default): every transfer is treasury -x, customer +x (one hot account). false: customer -x, another
   * customer +x, picked at random (pgledger's published scenario: contention only by chance).
   */
  hot?: boolean;
  rounds: number;
  /** Seconds each side runs per round; or, when set, transfersPerWriter each writer posts per round. */
  roundSeconds: number;
  transfersPerWriter?: number;
  /** Seconds of unmeasured posting per side before the rounds (0: none). */
  warmupSeconds: number;
  /** Transfers per side posted one at a time with their round trips counted and timed (before the warm-up). */
  probeTransfers: number;
  /** Sequential balance reads per kind of read. */
  reads: number;
  /** Wait up to this long for other processes to go quiet before the rounds (0: never). */
  quietWaitSeconds: number;
  log?: (line: string) => void;
}

export interface Latencies {
  count: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

export interface RoundFigures extends CpuFigures {
  transfers: number;
  failures: number;
  seconds: number;
  perSecond: number;
  /** This process's CPU (the engine's or the bare's JavaScript, and the pg driver) per transfer, ms. */
  nodeCpuMsPerTransfer?: number;
  /** The bench database's PostgreSQL backends' CPU per transfer, ms. */
  postgresCpuMsPerTransfer?: number;
}

export interface BookCheck {
  asset: string;
  /** Transfers each side's loops saw committed (probe, warm-up and rounds). */
  committed: number;
  transactions: number;
  entries: number;
  balanceVersions: number;
  treasuryPosted: string;
  customersPosted: string;
  /** What the loops moved in all: the treasury must be its negative. */
  moved: string;
  /** Accounts whose maintained posted balance is not the sum of their entries. */
  accountsOffTheirEntries: number;
  problems: string[];
}

export interface SideResult {
  side: Side;
  /** The median round's transfers per second, each round's beside it. */
  perSecond: number;
  roundsPerSecond: number[];
  latency: Latencies;
  transfers: number;
  failures: number;
  rounds: RoundFigures[];
  nodeCpuMsPerTransfer?: number;
  postgresCpuMsPerTransfer?: number;
  /** One transfer at a time: round trips, latency, each round trip's mean, and the CPU per transfer without contention. */
  probe: { transfers: number; roundTripsPerTransfer: number; latency: Latencies; meanMsByRoundTrip: number[]; nodeCpuMsPerTransfer?: number; postgresCpuMsPerTransfer?: number };
  books: BookCheck;
}

export interface LedgerBenchResult {
  at: string;
  options: Omit<LedgerBenchOptions, 'postgresUrl' | 'log'>;
  postgres: string;
  loadavgBefore: string;
  loadavgAfter: string;
  sides: SideResult[];
  /** engine / bare per round (transfers/s): median, spread and values. */
  engineVsBare: Ratio;
  engineVsOneStatement: Ratio;
  reads: Record<'customerLedgerBalances' | 'getLedgerAccount' | 'bare read', Latencies>;
  ok: boolean;
}

export interface Ratio {
  median: number;
  min: number;
  max: number;
  values: number[];
}

