/** The floor's parts beyond bare's HTTP request, measured in the same run: one signature, one durable write. */
import { sql } from 'drizzle-orm';
import { generateEd25519KeyPair, privateKeyFromRaw, signWebhook } from '../../src/crypto/webhook-signature.js';
import { newId } from '../../src/domain/ids.js';
import { bareDelivery } from './webhooks-events.js';
import { cpuWatch, quiet } from './webhooks-measure.js';
import type { ReceiverClient } from './webhooks-receiver.js';
import { EVENTS, SIGNATURES } from './webhooks-settings.js';
import type { FloorParts, Setup } from './webhooks-types.js';

/** SIGNATURES signatures of a body like a delivery's, after a few to warm up; CPU time of this process each. */
export function measureSignature(): Pick<FloorParts, 'signatureMs' | 'signatures' | 'bodyBytes'> {
  const key = privateKeyFromRaw(generateEd25519KeyPair().privateKey);
  const { headers, body } = bareDelivery();
  const id = headers['webhook-id']!;
  const timestamp = Number(headers['webhook-timestamp']);
  for (let i = 0; i < 100; i++) signWebhook([key], id, timestamp, body);
  const before = process.cpuUsage();
  for (let i = 0; i < SIGNATURES; i++) signWebhook([key], id, timestamp, body);
  const used = process.cpuUsage(before);
  return { signatureMs: (used.user + used.system) / 1000 / SIGNATURES, signatures: SIGNATURES, bodyBytes: Buffer.byteLength(body) };
}

/**
 * EVENTS single-row INSERTs into a two-column table (uuid primary key, timestamp), each committed on its own,
 * WEBHOOK_CONCURRENCY in flight: the least a delivery's durable record can cost per row when nothing is batched.
 */
export async function measureDurableWrite(s: Setup, receiver: ReceiverClient): Promise<Pick<FloorParts, 'writeMs' | 'writes' | 'writeCpuSeconds'>> {
  const { db } = s.database;
  await db.execute(sql`create table if not exists bench_durable_writes (id uuid primary key, at timestamptz not null)`);
  await quiet(s, receiver);
  const cpu = cpuWatch(s, receiver);
  let next = 0;
  const loop = async () => {
    while (next < EVENTS) {
      next++;
      await db.execute(sql`insert into bench_durable_writes (id, at) values (${newId()}, now())`);
    }
  };
  await Promise.all(Array.from({ length: s.config.concurrency }, loop));
  const { cpuSeconds } = cpu.stop();
  if (!cpuSeconds) return { writes: EVENTS };
  // The receiver idles meanwhile: only this process (drizzle, the driver, or PGlite's engine) and PostgreSQL count.
  return { writes: EVENTS, writeMs: ((cpuSeconds.bench + cpuSeconds.postgres) * 1000) / EVENTS, writeCpuSeconds: cpuSeconds };
}
