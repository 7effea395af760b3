/** Per database: the webhooks bench's database, integrator and subscription, and our worker as a delivery path. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { SecretBox } from '../../src/crypto/secret-box.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { createIntegrator } from '../../src/domain/integrators/integrators.js';
import { createSubscription } from '../../src/domain/webhooks/subscriptions.js';
import { startWebhookWorker, type WebhookWorker } from '../../src/workers/webhook-worker.js';
import { provisionDatabase } from '../../test/harness/backends.js';
import type { BackendKind } from './backend.js';
import type { ReceiverClient } from './webhooks-receiver.js';
import type { CountingLog, DeliveryPath, Setup } from './webhooks-types.js';

export function countingLog(): CountingLog {
  const log: CountingLog = {
    warnings: 0,
    errors: 0,
    warn(obj, msg) {
      if (log.warnings++ < 3) console.error(`  worker warning: ${msg}`, obj);
    },
    error(obj, msg) {
      if (log.errors++ < 3) console.error(`  worker error: ${msg}`, obj);
    },
  };
  return log;
}

/** Our worker, started and stopped as the phases need it. */
export class OurPath implements DeliveryPath {
  private worker: WebhookWorker | undefined;

  constructor(private readonly s: Setup) {}

  async start(): Promise<void> {
    const { s } = this;
    this.worker = await startWebhookWorker({ database: s.database, secrets: s.secrets, clock: systemClock, config: s.config, log: s.log });
  }

  async stop(): Promise<void> {
    await this.worker?.stop();
    this.worker = undefined;
  }

  waitRecorded(timeoutMs: number): Promise<void> {
    return waitForRecorded(this.s.database, timeoutMs);
  }
}

export async function waitForRecorded(database: Database, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = (await database.db.execute(sql`select count(*)::int as n from webhook_deliveries where status <> 'succeeded'`)) as unknown as { rows: { n: number }[] };
    if (Number(result.rows[0]!.n) === 0) return;
    if (Date.now() > deadline) throw new Error(`${result.rows[0]!.n} deliveries not recorded as succeeded after ${timeoutMs / 1000} s`);
    await sleep(20);
  }
}

export async function setUp(kind: BackendKind, receiver: ReceiverClient, postgresUrl: string | undefined): Promise<Setup> {
  let database: Database;
  let databaseName: string | undefined;
  let databaseUrl: string | undefined;
  let cleanup: () => Promise<void>;
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'webhook-bench-'));
    database = await openDatabase({ kind: 'pglite', dataDir });
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  } else {
    const { target, drop } = await provisionDatabase('postgres', postgresUrl);
    if (target.kind !== 'postgres') throw new Error('expected postgres');
    databaseName = new URL(target.url).pathname.slice(1);
    databaseUrl = target.url;
    database = await openDatabase(target);
    cleanup = drop;
  }
  const encryptionKey = randomBytes(32);
  const secrets = new SecretBox(encryptionKey);
  const config = loadConfig({
    APP_ENV: 'sandbox',
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE: '1',
    ...(process.env.WEBHOOK_CONCURRENCY ? { WEBHOOK_CONCURRENCY: process.env.WEBHOOK_CONCURRENCY } : {}),
  }).webhooks;
  const now = new Date();
  const { integratorId } = await createIntegrator(database, { name: 'bench', scope: 'read_write' }, now);
  await createSubscription(
    { db: database, actor: { integratorId, kind: 'integrator' }, now, secrets, policy: { highRiskCountries: new Set() } },
    { name: 'bench receiver', url: `${receiver.base}/hook`, eventTypes: ['user.updated'] },
    { rules: { allowPrivate: true } },
  );
  return {
    kind,
    database,
    ...(databaseName ? { databaseName } : {}),
    ...(databaseUrl ? { databaseUrl } : {}),
    secrets,
    encryptionKeyHex: encryptionKey.toString('hex'),
    integratorId,
    config,
    log: countingLog(),
    close: async () => {
      try {
        await database.close();
      } finally {
        await cleanup();
      }
    },
  };
}
