/**
 * `npm run bench:reseal` (docs/benchmarks.md#re-sealing-after-a-key-rotation): the pass that re-seals every sealed
 * value under the newest key of ENCRYPTION_KEYS, as `keys reseal` and the background worker run it
 * (src/domain/keys/reseal.ts, RESEAL_BATCH values per transaction).
 *
 * Data, per database (BENCH_BACKENDS=pglite|postgres|both, as bench/rescreen.ts): one integrator, RESEAL_BENCH_ANSWERS
 * (50,000) stored idempotent answers of about 1 KiB and RESEAL_BENCH_DOCUMENTS (500) documents of 200 KiB, all sealed
 * under a first key, inserted with SQL. Timed: the whole pass under the ring [second key, first key], from the first
 * batch to the last value checked; values/s, MiB/s of documents and this process's CPU (PGlite's included). Writes
 * bench/results/reseal-latest.json.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sealContexts } from '../src/crypto/seal-contexts.js';
import { SecretBox } from '../src/crypto/secret-box.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { documents, idempotencyKeys } from '../src/db/schema/index.js';
import { createIntegrator } from '../src/domain/integrators/integrators.js';
import { checkEncryptionKeys } from '../src/domain/keys/key-check.js';
import { resealAll } from '../src/domain/keys/reseal.js';
import { provisionDatabase } from '../test/harness/backends.js';
import { BACKEND_LABEL, requiredBackends, type BackendKind } from './lib/backend.js';

const ANSWERS = Number(process.env.RESEAL_BENCH_ANSWERS ?? 50_000);
const DOCUMENTS = Number(process.env.RESEAL_BENCH_DOCUMENTS ?? 500);
const DOCUMENT_BYTES = 200 * 1024;
const round = (n: number, digits = 0) => Math.round(n * 10 ** digits) / 10 ** digits;

async function seed(database: Database, box: SecretBox): Promise<void> {
  const now = new Date();
  const { integratorId } = await createIntegrator(database, { name: 'Bench', scope: 'read_write' }, now);
  const answer = JSON.stringify({ accountId: randomUUID(), walletAddress: `0x${'ab'.repeat(20)}`, padding: 'x'.repeat(900) });
  for (let i = 0; i < ANSWERS; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, ANSWERS - i) }, (_, j) => {
      const key = `bench-${i + j}`;
      return { integratorId, key, fingerprint: 'f', state: 'completed' as const, responseStatus: 201, responseSealed: box.seal(answer, sealContexts.idempotentAnswer(integratorId, key)), lockedAt: now, createdAt: now, expiresAt: new Date(now.getTime() + 86_400_000) };
    });
    await database.db.insert(idempotencyKeys).values(rows);
  }
  const bytes = randomBytes(DOCUMENT_BYTES);
  for (let i = 0; i < DOCUMENTS; i += 20) {
    const rows = Array.from({ length: Math.min(20, DOCUMENTS - i) }, () => {
      const ownerId = randomUUID();
      return { id: randomUUID(), integratorId, ownerType: 'user' as const, ownerId, documentType: 'passport', issuingCountry: 'USA', mediaType: 'application/pdf', sizeBytes: DOCUMENT_BYTES, sha256: randomUUID(), contentSealed: box.sealBytes(bytes, sealContexts.document('user', ownerId)), createdAt: now };
    });
    await database.db.insert(documents).values(rows);
  }
}

async function runBackend(kind: BackendKind, postgresUrl: string) {
  let database: Database;
  let drop = async () => {};
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-reseal-'));
    drop = async () => rmSync(dataDir, { recursive: true, force: true });
    database = await openDatabase({ kind: 'pglite', dataDir });
  } else {
    const provisioned = await provisionDatabase('postgres', postgresUrl);
    drop = provisioned.drop;
    database = await openDatabase(provisioned.target);
  }
  try {
    const [k0, k1] = [randomBytes(32), randomBytes(32)];
    const first = await checkEncryptionKeys(database.db, new SecretBox(k0), new Date());
    await seed(database, first);
    const ring = await checkEncryptionKeys(database.db, new SecretBox([k1, k0]), new Date());
    const cpu = process.cpuUsage();
    const started = performance.now();
    const { resealed } = await resealAll(database.db, ring, { now: () => new Date() });
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const result = {
      database: BACKEND_LABEL[kind],
      values: resealed,
      seconds: round(seconds, 1),
      valuesPerSecond: round(resealed / seconds),
      documentMiBPerSecond: round((DOCUMENTS * DOCUMENT_BYTES) / 1024 / 1024 / seconds, 1),
      cpuSeconds: round((used.user + used.system) / 1e6, 1),
    };
    console.error(`  ${JSON.stringify(result)}`);
    return result;
  } finally {
    await database.close().catch(() => {});
    await drop();
  }
}

const { kinds, postgresUrl } = await requiredBackends();
const machine = { cpus: cpus().length, model: cpus()[0]?.model, loadBefore: loadavg().map((l) => round(l, 2)) };
const results = [];
for (const kind of kinds) results.push(await runBackend(kind, postgresUrl));
const report = { at: new Date().toISOString(), answers: ANSWERS, documents: DOCUMENTS, documentBytes: DOCUMENT_BYTES, machine: { ...machine, loadAfter: loadavg().map((l) => round(l, 2)) }, results };
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/reseal-latest.json', `${JSON.stringify(report, null, 2)}\n`);
console.table(results);
