/**
 * What a webhooks bench run is set to (bench/webhooks.ts's header lists the env knobs), its goals, and its phases'
 * names as the table prints them.
 */
import { loadConfig } from '../../src/config.js';
import { PEER_DEFAULTS } from '../peers/pg-boss.js';

export function positiveInt(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new Error(`${name} must be a whole number ≥ ${min} (got "${raw}")`);
  return Number(raw);
}

export const EVENTS = positiveInt('BENCH_EVENTS', 5000);
export const BATCH = 100;
export const WARMUP_EVENTS = 300;
export const STEADY_RATE = positiveInt('BENCH_RATE', 500);
export const DURATION_SECONDS = positiveInt('BENCH_DURATION', 10);
export const QUIET_WAIT_SECONDS = positiveInt('BENCH_QUIET_WAIT', 30, 0);
export const WORKER_PROCESSES = positiveInt('BENCH_WORKER_PROCESSES', 2, 0);
export const PEER_WORKERS = positiveInt('BENCH_PEER_WORKERS', PEER_DEFAULTS.registrations);
/** Signatures timed for the floor's signing part (about 60 µs each). */
export const SIGNATURES = 2000;
/**
 * Issue 20, round 2. The old "burst and drain ≥ 0.5 × bare" is retired: bare stays as a reference row.
 * CPU per delivery = (this process + receiver + PostgreSQL's backends) CPU-seconds / deliveries.
 */
export const GOALS = { minDrainVsPeer: 2, maxCpuMsPerDelivery: 0.6, maxSteadyP99Ms: 250 };

export const concurrencyOf = () => loadConfig({ APP_ENV: 'sandbox', ...(process.env.WEBHOOK_CONCURRENCY ? { WEBHOOK_CONCURRENCY: process.env.WEBHOOK_CONCURRENCY } : {}) }).webhooks.concurrency;

export type Phase = 'burst' | 'drain' | 'peer burst' | 'peer drain' | 'bare' | 'steady' | 'processes';
/** The phases whose deliveries/s the table sets beside the bare loop's (a reference: no goal). */
export const COMPARED: Phase[] = ['burst', 'drain', 'peer burst', 'peer drain', 'processes'];
export const phaseLabel = (p: Phase) => (p === 'processes' ? `drain, ${WORKER_PROCESSES} worker processes` : p);
/** The peer's delivery is at-least-once: its duplicates are counted, not failures. */
export const atLeastOnce = (p: Phase) => p.startsWith('peer');
