/**
 * The ledger bench's run (docs/benchmarks.md#ledger), apart from its printing so the guard test runs it at its
 * smallest: on a throwaway PostgreSQL database, migrated by the project's runner, `writers` concurrent writers post
 * transfers `treasury -x, customer_i +x` (one hot account, `customers` cold ones) through the engine
 * (`postLedger` in its own database transaction) and through the bare equivalents (bench/lib/ledger-bare.ts), each
 * side in its own asset on the same tables, in alternating rounds; then sequential balance reads as the API does them,
 * and the books of each side checked.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { provisionDatabase } from '../../test/harness/backends.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { ensureLedgerAccounts } from '../../src/db/repositories/ledger-writes.js';
import { newId } from '../../src/domain/ids.js';
import type { AssetRef } from '../../src/domain/ledger/assets.js';
import { customerAccount, ledgerAccountCode, ledgerAccountId, serviceAccount } from '../../src/domain/ledger/ledger-accounts.js';
import { customerLedgerBalances, getLedgerAccount } from '../../src/domain/ledger/ledger-reads.js';
import { postLedger } from '../../src/domain/ledger/post.js';
import type { DesiredPosting } from '../../src/domain/ledger/posting.js';
import { postBare, readBare, type BareVariant } from './ledger-bare.js';
import { installRoundTripProbe, probeRoundTrips } from './ledger-probe.js';
import { waitForQuiet, watchCpu } from './cpu.js';
import { mulberry32 } from './mulberry32.js';
import { checkBooks, newAccount, type Books } from './ledger-books.js';
import { SIDES, type Latencies, type LedgerBenchOptions, type LedgerBenchResult, type Ratio, type RoundFigures, type Side, type SideResult } from './ledger-types.js';

export { SIDES, type LedgerBenchOptions, type LedgerBenchResult, type Side } from './ledger-types.js';

const ASSETS: Record<Side, AssetRef> = {
  engine: { code: 'iso4217:USD', chainId: null, address: null, symbol: 'USD', decimals: 2 },
  'bare (stepwise)': { code: 'iso4217:EUR', chainId: null, address: null, symbol: 'EUR', decimals: 2 },
  'bare (one statement)': { code: 'iso4217:GBP', chainId: null, address: null, symbol: 'GBP', decimals: 2 },
};

const VARIANT: Record<Exclude<Side, 'engine'>, BareVariant> = { 'bare (stepwise)': 'stepwise', 'bare (one statement)': 'one statement' };

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);
const round2 = (n: number) => Math.round(n * 100) / 100;
const round3 = (n: number) => Math.round(n * 1000) / 1000;

export function latencies(values: number[]): Latencies {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50Ms: round2(percentile(sorted, 50)), p95Ms: round2(percentile(sorted, 95)), p99Ms: round2(percentile(sorted, 99)) };
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? Number.NaN : sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function ratio(top: number[], bottom: number[]): Ratio {
  const values = top.map((t, i) => round3(t / bottom[i]!)).filter((v) => Number.isFinite(v));
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), values };
}

/** The database of the run in progress, dropped by abortLedgerBench (a signal) as by the run's own end. */
let dropCurrent: (() => Promise<void>) | undefined;

/** Drops the run's database if a run is in progress (SIGINT, SIGTERM); idempotent. */
export async function abortLedgerBench(): Promise<void> {
  const drop = dropCurrent;
  dropCurrent = undefined;
  await drop?.().catch(() => {});
}

const loadavg = async () => readFileSync('/proc/loadavg', 'utf8').trim();

export async function runLedgerBench(options: LedgerBenchOptions): Promise<LedgerBenchResult> {
  const log = options.log ?? (() => {});
  if (options.hot === false && options.customers < 2) throw new Error('transfers between customers need two customers at least');
  installRoundTripProbe();
  const loadavgBefore = await loadavg().catch(() => 'n/a');
  const provisioned = await provisionDatabase('postgres', options.postgresUrl);
  dropCurrent = provisioned.drop;
  const url = provisioned.target.kind === 'postgres' ? provisioned.target.url : '';
  const databaseName = new URL(url).pathname.slice(1);
  let database: Database | undefined;
  let pool: pg.Pool | undefined;
  try {
    database = await openDatabase({ kind: 'postgres', url, poolMax: options.writers });
    pool = new pg.Pool({ connectionString: url, max: options.writers });
    pool.on('error', () => {});
    const postgres = (await pool.query<{ v: string }>("select current_setting('server_version') as v")).rows[0]!.v;
    const integratorId = newId();
    const accountIds = Array.from({ length: options.customers }, () => newId());
    const books = new Map<Side, Books>();
    for (const side of SIDES) {
      const asset = ASSETS[side];
      const treasury = serviceAccount('treasury', asset);
      const customers = accountIds.map((id) => customerAccount(integratorId, id, asset));
      // Every account exists before the load, as it does in a running service (the engine would make it on first use).
      const refs = [treasury, ...customers];
      await ensureLedgerAccounts(database.db, refs.map((ref) => newAccount(ref)), new Date());
      books.set(side, { asset, treasury, customers, treasuryId: ledgerAccountId(ledgerAccountCode(treasury)), customerIds: customers.map((c) => ledgerAccountId(ledgerAccountCode(c))), committed: 0, moved: 0n, next: 0 });
    }
    log(`database ${databaseName} (PostgreSQL ${postgres}); ${options.customers} customers and a treasury per side; ${options.writers} writers`);

    const random = mulberry32(20261203);
    const runId = newId().slice(0, 8);
    const transfer = (side: Side): (() => Promise<void>) => {
      const b = books.get(side)!;
      const n = b.next++;
      const i = Math.floor(random() * b.customers.length);
      const amount = BigInt(1 + Math.floor(random() * 100_000));
      const hot = options.hot !== false;
      // Without the hot account: from another customer than i.
      const j = hot ? -1 : (i + 1 + Math.floor(random() * (b.customers.length - 1))) % b.customers.length;
      const done = () => {
        b.committed++;
        if (hot) b.moved += amount;
      };
      if (side === 'engine') {
        const posting: DesiredPosting = {
          causeKey: `bench:${runId}:engine:${n}`,
          causeType: 'transaction',
          causeId: newId(),
          integratorId,
          description: 'bench transfer',
          status: 'posted',
          chainId: null,
          blockNumber: null,
          legs: [
            { account: hot ? b.treasury : b.customers[j]!, amount: -amount },
            { account: b.customers[i]!, amount },
          ],
        };
        return async () => {
          await database!.db.transaction((tx) => postLedger(tx, [posting], new Date()));
          done();
        };
      }
      const legs = [
        { accountId: hot ? b.treasuryId : b.customerIds[j]!, entryId: newId(), amount: -amount },
        { accountId: b.customerIds[i]!, entryId: newId(), amount },
      ].sort((x, y) => (x.accountId < y.accountId ? -1 : 1));
      const t = { transactionId: newId(), causeKey: `bench:${runId}:${VARIANT[side]}:${n}`, causeId: newId(), integratorId, asset: b.asset.code, legs, at: new Date() };
      return async () => {
        const client = await pool!.connect();
        try {
          await postBare(client, VARIANT[side], t);
        } finally {
          client.release();
        }
        done();
      };
    };

    /** Every writer posts back to back until the deadline (or its count); latencies of the committed ones. */
    const load = async (side: Side, seconds: number, count?: number) => {
      const values: number[] = [];
      let failures = 0;
      const started = performance.now();
      const deadline = started + seconds * 1000;
      await Promise.all(
        Array.from({ length: options.writers }, async () => {
          for (let k = 0; count === undefined ? performance.now() < deadline : k < count; k++) {
            const post = transfer(side);
            const t0 = performance.now();
            try {
              await post();
              values.push(performance.now() - t0);
            } catch (err) {
              if (failures++ === 0) log(`FAIL ${side}: ${(err as Error).message}`);
            }
          }
        }),
      );
      return { values, failures, elapsedMs: performance.now() - started };
    };

    if (options.warmupSeconds > 0) for (const side of SIDES) await load(side, options.warmupSeconds);
    // The probe, after the warm-up (the engine's code compiled, the bare's statements prepared): transfers one at a
    // time, their round trips counted and timed, and their CPU without contention.
    const probes = new Map<Side, SideResult['probe']>();
    for (const side of SIDES) {
      const perTransfer: number[][] = [];
      const wall: number[] = [];
      const watch = watchCpu({ serverPid: process.pid, pids: [], database: databaseName });
      const started = performance.now();
      for (let k = 0; k < options.probeTransfers; k++) {
        const post = transfer(side);
        const t0 = performance.now();
        perTransfer.push(await probeRoundTrips(post));
        wall.push(performance.now() - t0);
      }
      const cpu = watch.stop();
      const seconds = (performance.now() - started) / 1000;
      const each = (pct: number | undefined) => (pct === undefined || perTransfer.length === 0 ? undefined : round3(((pct / 100) * seconds * 1000) / perTransfer.length));
      const trips = perTransfer.map((p) => p.length);
      const width = Math.max(0, ...trips);
      const meanMsByRoundTrip = Array.from({ length: width }, (_, j) => round3(perTransfer.reduce((s, p) => s + (p[j] ?? 0), 0) / Math.max(1, perTransfer.length)));
      const node = each(cpu.serverCpuPct);
      const postgresCpu = each(cpu.postgresCpuPct);
      probes.set(side, {
        transfers: perTransfer.length,
        roundTripsPerTransfer: median(trips),
        latency: latencies(wall),
        meanMsByRoundTrip,
        ...(node === undefined ? {} : { nodeCpuMsPerTransfer: node }),
        ...(postgresCpu === undefined ? {} : { postgresCpuMsPerTransfer: postgresCpu }),
      });
    }

    if (options.quietWaitSeconds > 0) await waitForQuiet({ serverPid: process.pid, pids: [], database: databaseName }, options.quietWaitSeconds);

    const rounds = new Map<Side, { figures: RoundFigures[]; values: number[] }>(SIDES.map((s) => [s, { figures: [], values: [] }]));
    for (let r = 0; r < options.rounds; r++) {
      for (const side of r % 2 === 0 ? SIDES : [...SIDES].reverse()) {
        const watch = watchCpu({ serverPid: process.pid, pids: [], database: databaseName });
        const run = await load(side, options.roundSeconds, options.transfersPerWriter);
        const cpu = watch.stop();
        const seconds = run.elapsedMs / 1000;
        const transfers = run.values.length;
        const perTransfer = (pct: number | undefined) => (pct === undefined || transfers === 0 ? undefined : round3(((pct / 100) * seconds * 1000) / transfers));
        const figures: RoundFigures = {
          ...cpu,
          transfers,
          failures: run.failures,
          seconds: round2(seconds),
          perSecond: transfers / seconds,
          nodeCpuMsPerTransfer: perTransfer(cpu.serverCpuPct),
          postgresCpuMsPerTransfer: perTransfer(cpu.postgresCpuPct),
        };
        const slot = rounds.get(side)!;
        slot.figures.push(figures);
        slot.values.push(...run.values);
        log(`round ${r + 1} ${side}: ${Math.round(figures.perSecond)} transfers/s, ${transfers} transfers, p99 ${latencies(run.values).p99Ms} ms`);
      }
    }

    // Balance reads as the API does them, one after the other, on the engine's side (its accounts have moved).
    const engineBooks = books.get('engine')!;
    const timeEach = async (read: (k: number) => Promise<unknown>) => {
      const values: number[] = [];
      for (let k = 0; k < options.reads; k++) {
        const t0 = performance.now();
        await read(k);
        values.push(performance.now() - t0);
      }
      return latencies(values);
    };
    const reads = {
      customerLedgerBalances: await timeEach((k) => customerLedgerBalances(database!.db, integratorId, accountIds[k % accountIds.length]!)),
      getLedgerAccount: await timeEach(() => getLedgerAccount(database!.db, engineBooks.treasuryId)),
      'bare read': await timeEach((k) => readBare(pool!, engineBooks.customerIds[k % accountIds.length]!)),
    };

    const sides: SideResult[] = [];
    for (const side of SIDES) {
      const { figures, values } = rounds.get(side)!;
      const perRound = figures.map((f) => f.perSecond);
      const defined = (xs: (number | undefined)[]) => xs.filter((x): x is number => x !== undefined);
      const node = defined(figures.map((f) => f.nodeCpuMsPerTransfer));
      const pgCpu = defined(figures.map((f) => f.postgresCpuMsPerTransfer));
      sides.push({
        side,
        perSecond: median(perRound),
        roundsPerSecond: perRound.map((v) => Math.round(v)),
        latency: latencies(values),
        transfers: figures.reduce((s, f) => s + f.transfers, 0),
        failures: figures.reduce((s, f) => s + f.failures, 0),
        rounds: figures,
        ...(node.length > 0 ? { nodeCpuMsPerTransfer: median(node) } : {}),
        ...(pgCpu.length > 0 ? { postgresCpuMsPerTransfer: median(pgCpu) } : {}),
        probe: probes.get(side)!,
        books: await checkBooks(pool, books.get(side)!),
      });
    }
    const rate = (side: Side) => rounds.get(side)!.figures.map((f) => f.perSecond);
    const ok = sides.every((s) => s.failures === 0 && s.books.problems.length === 0);
    return {
      at: new Date().toISOString(),
      options: { writers: options.writers, customers: options.customers, hot: options.hot !== false, rounds: options.rounds, roundSeconds: options.roundSeconds, ...(options.transfersPerWriter ? { transfersPerWriter: options.transfersPerWriter } : {}), warmupSeconds: options.warmupSeconds, probeTransfers: options.probeTransfers, reads: options.reads, quietWaitSeconds: options.quietWaitSeconds },
      postgres,
      loadavgBefore,
      loadavgAfter: await loadavg().catch(() => 'n/a'),
      sides,
      engineVsBare: ratio(rate('engine'), rate('bare (stepwise)')),
      engineVsOneStatement: ratio(rate('engine'), rate('bare (one statement)')),
      reads,
      ok,
    };
  } finally {
    await pool?.end().catch(() => {});
    await database?.close().catch(() => {});
    if (dropCurrent === provisioned.drop) {
      dropCurrent = undefined;
      await provisioned.drop().catch((err: Error) => log(`could not drop the bench database: ${err.message}`));
    }
  }
}
