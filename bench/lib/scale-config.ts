/**
 * The scale bench's settings (bench/scale.ts) and the sizes of each step. One knob, BENCH_SCALE_EVENTS, sets the
 * largest step; every other table is proportional to the events of a step, as issue 20 puts it: at a million
 * events, 100,000 users with accounts and 10,000 webhook subscriptions' worth of delivery history.
 */
import { positiveInt } from './env.js';

export const SCALE_EVENTS = positiveInt('BENCH_SCALE_EVENTS', 1_000_000);
/** Sequential requests per read, after WARMUP_REQUESTS unmeasured ones. */
export const REQUESTS = positiveInt('BENCH_SCALE_REQUESTS', 200);
export const WARMUP_REQUESTS = 20;

/** Events at each step, ascending: BENCH_SCALE_STEPS (comma-separated), else 1 %, 10 % and 100 % of SCALE_EVENTS. */
export function scaleSteps(): number[] {
  const raw = process.env.BENCH_SCALE_STEPS;
  const steps = raw ? raw.split(',').map((s) => Number(s.trim())) : [SCALE_EVENTS / 100, SCALE_EVENTS / 10, SCALE_EVENTS];
  if (steps.some((s) => !Number.isInteger(s) || s < 1000)) throw new Error(`BENCH_SCALE_STEPS must be whole numbers of events, each >= 1000 (got "${raw}")`);
  return [...new Set(steps)].sort((a, b) => a - b);
}

/**
 * Every user brings 4 events (created, its account created, a status change, an update) and every transaction 3
 * (created, status changed, completed or failed): users = events / 10 and transactions = events / 5 give 40 % +
 * 60 % of the events. Each event has one webhook delivery.
 */
export const EVENTS_PER_USER = 4;
export const EVENTS_PER_TRANSACTION = 3;
export const USERS_PER_EVENT = 1 / 10;
export const TRANSACTIONS_PER_EVENT = 1 / 5;
export const SUBSCRIPTIONS_PER_EVENT = 1 / 100;
/** Companies (each with an entity account and two associated persons): a few per hundred users. */
export const ENTITIES_PER_EVENT = 1 / 500;

/**
 * Objects are spread over WINDOW_DAYS up to the bench's start, so with the service's default 30-day retention about
 * one event in seven is past it (an object's later events are younger than the object): the retention pass has a
 * backlog, as after maintenance was down for a week.
 */
export const WINDOW_DAYS = 45;
export const RETENTION_DAYS = 30;

/**
 * Integrators by slot: objects are dealt round-robin over SLOTS slots; the measured integrator (the one the bench
 * signs as) owns MEASURED_SLOTS of them (40 %), three others one each (20 %).
 */
export const SLOTS = 5;
export const MEASURED_SLOTS = 2;

/** Of every integrator's subscriptions, the first few are enabled; the rest are disabled ones with history. */
export const ENABLED_SUBSCRIPTIONS_PER_INTEGRATOR = 3;

/** The writer that runs during the retention pass: one create-user every WRITER_INTERVAL_MS. */
export const WRITER_INTERVAL_MS = 50;
/** Its baseline, alone, just before the pass. */
export const WRITER_BASELINE_MS = 5000;
