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
import { ensureLedgerAccounts, type NewLedgerAccount } from '../../src/db/repositories/ledger-writes.js';
import { newId } from '../../src/domain/ids.js';
import type { AssetRef } from '../../src/domain/ledger/assets.js';
import { customerAccount, ledgerAccountCode, ledgerAccountId, serviceAccount, type LedgerAccountRef } from '../../src/domain/ledger/ledger-accounts.js';
import { customerLedgerBalances, getLedgerAccount } from '../../src/domain/ledger/ledger-reads.js';
import { postLedger } from '../../src/domain/ledger/post.js';
import type { DesiredPosting } from '../../src/domain/ledger/posting.js';
import { postBare, readBare, type BareVariant } from './ledger-bare.js';
import { installRoundTripProbe, probeRoundTrips } from './ledger-probe.js';
import { waitForQuiet, watchCpu, type CpuFigures } from './cpu.js';
import { mulberry32 } from './mulberry32.js';

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

interface Books {
  asset: AssetRef;
  treasury: LedgerAccountRef;
  customers: LedgerAccountRef[];
  treasuryId: string;
  customerIds: string[];
  committed: number;
  moved: bigint;
  next: number;
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

function newAccount(ref: LedgerAccountRef): NewLedgerAccount {
  const code = ledgerAccountCode(ref);
  return { id: ledgerAccountId(code), code, kind: ref.kind, asset: ref.asset, integratorId: ref.customer?.integratorId ?? null, accountId: ref.customer?.accountId ?? null };
}

/** The side's books: every committed transfer written once, two entries and two balance versions each, and zero-sum balances. */
async function checkBooks(pool: pg.Pool, b: Books): Promise<BookCheck> {
  const one = async <T>(text: string, values: unknown[]) => (await pool.query<T & pg.QueryResultRow>(text, values)).rows[0]!;
  const asset = b.asset.code;
  const { transactions } = await one<{ transactions: number }>(
    `select count(distinct e.ledger_transaction_id)::int as transactions from ledger_entries e where e.asset = $1`,
    [asset],
  );
  const { entries, entriesSum } = await one<{ entries: number; entriesSum: string }>(`select count(*)::int as entries, coalesce(sum(amount), 0)::text as "entriesSum" from ledger_entries where asset = $1`, [asset]);
  const { versions } = await one<{ versions: number }>(
    `select count(*)::int as versions from ledger_balance_versions v join ledger_accounts a on a.id = v.ledger_account_id where a.asset = $1`,
    [asset],
  );
  const balances = await one<{ treasury: string; customers: string; total: string; pendingTotal: string; availableTotal: string; versionSum: string }>(
    `select coalesce(sum(posted_balance) filter (where kind = 'treasury'), 0)::text as treasury, coalesce(sum(posted_balance) filter (where kind = 'customer'), 0)::text as customers,
       sum(posted_balance)::text as total, sum(pending_balance)::text as "pendingTotal", sum(available_balance)::text as "availableTotal", sum(version)::text as "versionSum"
     from ledger_accounts where asset = $1`,
    [asset],
  );
  const { off } = await one<{ off: number }>(
    // An account with its balance slots (the engine's service accounts, docs/ledger.md#locking) against its entries.
    `select count(*)::int as off from ledger_accounts a where a.asset = $1 and a.slot_of is null
       and a.posted_balance + coalesce((select sum(x.posted_balance) from ledger_accounts x where x.slot_of = a.id), 0)
         <> coalesce((select sum(e.amount) from ledger_entries e where e.ledger_account_id = a.id and e.status = 'posted'), 0)`,
    [asset],
  );
  const problems: string[] = [];
  const expect = (what: string, got: string | number, want: string | number) => {
    if (String(got) !== String(want)) problems.push(`${what}: ${got}, expected ${want}`);
  };
  expect('ledger transactions', transactions, b.committed);
  expect('entries', entries, 2 * b.committed);
  expect('entries sum', entriesSum, 0);
  expect('balance versions', versions, 2 * b.committed);
  expect('sum of account versions', balances.versionSum, 2 * b.committed);
  expect('treasury posted', balances.treasury, (-b.moved).toString());
  expect('customers posted', balances.customers, b.moved.toString());
  expect('posted, all accounts', balances.total, 0);
  expect('pending, all accounts', balances.pendingTotal, 0);
  expect('available, all accounts', balances.availableTotal, 0);
  expect('accounts off their entries', off, 0);
  return { asset, committed: b.committed, transactions, entries, balanceVersions: versions, treasuryPosted: balances.treasury, customersPosted: balances.customers, moved: b.moved.toString(), accountsOffTheirEntries: off, problems };
}
