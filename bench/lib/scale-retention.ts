/**
 * One retention pass (the maintenance round's purgeExpired, from the bench process as from a second server
 * process) over the step's backlog of expired events, timed batch by batch, while a writer creates users through
 * the API (each a transaction writing a user, an account, events and webhook deliveries). The writer runs alone
 * first: its latencies then are the baseline that those during the pass are compared with.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { berliner, signedAt } from '../../test/harness/fixtures.js';
import type { Db } from '../../src/db/database.js';
import { purgeExpired, type PurgeBatch } from '../../src/workers/maintenance.js';
import type { Backend } from './backend.js';
import { RETENTION_DAYS, WRITER_BASELINE_MS, WRITER_INTERVAL_MS } from './scale-config.js';
import type { SqlClient } from './scale-load.js';
import { figuresOf, quantile, type ReadFigures } from './scale-reads.js';
import { signedPostHeaders } from './signing.js';

export interface RetentionFigures {
  /** Rows deleted: events, and the deliveries and attempts that went with them. */
  events: number;
  deliveries: number;
  attempts: number;
  batches: number;
  batchP50Ms: number;
  longestBatchMs: number;
  seconds: number;
  /** The writer's create-user latencies alone just before, and during the pass. */
  writerAlone: ReadFigures;
  writerDuringPurge: ReadFigures;
  /** Looks at pg_stat_activity during the pass, and how many found a session waiting on a lock. */
  lockWaits: { samples: number; waiting: number };
}

const DAY_MS = 86_400_000;
const CREATE_USER = '/v1/submit/create-user';
const LOCK_SAMPLE_MS = 10;

/**
 * Runs `step` again and again until stopped; stop() waits for the step in progress and reports a failure (a
 * rejection nobody awaits yet would end the process).
 */
function repeatUntilStopped(step: () => Promise<void>): { stop: () => Promise<void> } {
  let stopped = false;
  let failure: Error | undefined;
  const loop = (async () => {
    while (!stopped) await step();
  })().catch((err: Error) => {
    failure = err;
  });
  return {
    stop: async () => {
      stopped = true;
      await loop;
      if (failure) throw failure;
    },
  };
}

/** Creates users one after another, one every WRITER_INTERVAL_MS (or as soon as the last answered), until stopped. */
function startWriter(backend: Pick<Backend, 'baseUrl' | 'key'>, tag: string): { stop: () => Promise<number[]> } {
  const latencies: number[] = [];
  let n = 0;
  const loop = repeatUntilStopped(async () => {
    n++;
    const body = JSON.stringify({
      userInfo: berliner({ email: `writer-${tag}-${n}@scale.example` }),
      serviceTermsSignedAt: signedAt(),
      partnerSignedAgreementId: `scale-${tag}-${n}`,
    });
    const headers = signedPostHeaders(backend.key, CREATE_USER, body);
    const started = performance.now();
    const res = await fetch(`${backend.baseUrl}${CREATE_USER}`, { method: 'POST', headers, body, signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 201) throw new Error(`writer: create-user answered ${res.status} ${text.slice(0, 300)}`);
    latencies.push(ms);
    await sleep(Math.max(0, WRITER_INTERVAL_MS - ms));
  });
  return {
    stop: async () => {
      await loop.stop();
      return latencies;
    },
  };
}

/**
 * Looks every LOCK_SAMPLE_MS whether a session of this database waits on a lock (pg_stat_activity), until
 * stopped: a writer held up by the purge's row locks would show there, whatever else slows it.
 */
function sampleLockWaits(client: SqlClient): { stop: () => Promise<{ samples: number; waiting: number }> } {
  const seen = { samples: 0, waiting: 0 };
  const loop = repeatUntilStopped(async () => {
    const waiting = await count(client, `select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`, []);
    seen.samples++;
    if (waiting > 0) seen.waiting++;
    await sleep(LOCK_SAMPLE_MS);
  });
  return {
    stop: async () => {
      await loop.stop();
      return seen;
    },
  };
}

async function count(client: SqlClient, text: string, params: unknown[]): Promise<number> {
  return Number((await client.query<{ n: string }>(text, params)).rows[0]!.n);
}

export async function retentionPass(db: Db, client: SqlClient, backend: Pick<Backend, 'baseUrl' | 'key'>, tag: string): Promise<RetentionFigures> {
  const now = new Date();
  const before = new Date(now.getTime() - RETENTION_DAYS * DAY_MS);
  // What the pass will delete: the events past retention, and through them their deliveries and attempts.
  const expired = `from events e join webhook_deliveries d on d.event_id = e.id where e.created_at < $1`;
  const deliveries = await count(client, `select count(*) as n ${expired}`, [before]);
  const attempts = await count(client, `select count(*) as n ${expired.replace('where', 'join webhook_attempts a on a.delivery_id = d.id where')}`, [before]);

  const alone = startWriter(backend, `${tag}-alone`);
  await sleep(WRITER_BASELINE_MS);
  const writerAlone = figuresOf(await alone.stop());

  const batches: PurgeBatch[] = [];
  const during = startWriter(backend, `${tag}-purge`);
  const locks = sampleLockWaits(client);
  const started = performance.now();
  const purged = await purgeExpired(db, () => now, RETENTION_DAYS, { onBatch: (b) => batches.push(b) }).catch(async (err: Error) => {
    await Promise.allSettled([during.stop(), locks.stop()]);
    throw err;
  });
  const seconds = (performance.now() - started) / 1000;
  const writerDuringPurge = figuresOf(await during.stop());
  const lockWaits = await locks.stop();
  const eventBatches = batches.filter((b) => b.table === 'events').map((b) => b.ms).sort((a, b) => a - b);
  return {
    events: purged.events,
    deliveries,
    attempts,
    batches: eventBatches.length,
    batchP50Ms: Math.round(quantile(eventBatches, 0.5)),
    longestBatchMs: Math.round(eventBatches.at(-1) ?? 0),
    seconds: Math.round(seconds * 10) / 10,
    writerAlone,
    writerDuringPurge,
    lockWaits,
  };
}
