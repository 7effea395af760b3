/**
 * `npm run bench:ledger` (docs/benchmarks.md#ledger): the double-entry ledger's posting engine on PostgreSQL against
 * bare equivalents written with the `pg` driver alone, on one hot account.
 *
 * On a throwaway database (made on the server at BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test,
 * migrated by the project's runner, dropped at the end), LEDGER_BENCH_WRITERS (16) concurrent writers post transfers
 * `treasury -x, customer_i +x` (LEDGER_BENCH_CUSTOMERS customers, 1,000), each a database transaction of its own:
 *
 * - engine: `database.db.transaction((tx) => postLedger(tx, [posting], now))`, status posted, a cause key of its own;
 * - bare (stepwise): BEGIN, the ledger transaction, both account rows locked in id order FOR UPDATE, their balances,
 *   the entries, the balance versions, COMMIT, one named statement each (bench/lib/ledger-bare.ts);
 * - bare (one statement): the same writes in one statement between BEGIN and COMMIT.
 *
 * LEDGER_BENCH_HOT=0: customer to customer instead, two picked at random (no hot account: pgledger's published
 * scenario). Each side posts in its own asset on the same tables. First 1 s of warm-up each; then
 * LEDGER_BENCH_PROBE (500) transfers per side one at a time, their round trips counted and timed, their CPU taken
 * (no contention); then LEDGER_BENCH_ROUNDS (5) alternating rounds (the order reversed every other round) sharing
 * LEDGER_BENCH_SECONDS (10) per side, the CPU of this process and of the database's backends taken in each. Then
 * LEDGER_BENCH_READS (2,000)
 * sequential balance reads of each kind (customerLedgerBalances, getLedgerAccount, a bare select), and each side's
 * books are checked (every transfer written once, entries and versions, balances summing to zero).
 *
 * Prints a table, the ratios and the goals, writes bench/results/ledger-latest.json; exits 1 if a transfer failed
 * or a side's books do not add up (goal misses are reported, not fatal).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { DEFAULT_POSTGRES_URL, postgresAnswers } from './lib/backend.js';
import { ROOT } from './lib/children.js';
import { runBench } from './lib/entry.js';
import { positiveInt } from './lib/env.js';
import { abortLedgerBench, runLedgerBench, type LedgerBenchResult } from './lib/ledger-run.js';

const SECONDS = positiveInt('LEDGER_BENCH_SECONDS', 10);
const ROUNDS = positiveInt('LEDGER_BENCH_ROUNDS', 5);

/** Goals (docs/benchmarks.md#ledger): engine/bare transfers per second, the engine's p99, a balance read's p50. */
export const LEDGER_GOALS = { minEngineVsBare: 0.8, maxEngineP99Ms: 25, maxReadP50Ms: 1 };

const pct = (v: number | undefined) => (v === undefined ? '' : `${Math.round(v)} %`);
const ms = (v: number | undefined) => (v === undefined ? '' : v.toFixed(3));

function print(r: LedgerBenchResult): void {
  const o = r.options;
  console.log(
    `\nLedger transfers on PostgreSQL ${r.postgres}: ${o.writers} writers, ${o.hot === false ? `customer to customer among ${o.customers.toLocaleString('en-US')} (no hot account)` : `one treasury against ${o.customers.toLocaleString('en-US')} customers`}, ${o.rounds} alternating rounds of ${o.transfersPerWriter ? `${o.transfersPerWriter} transfers a writer` : `${o.roundSeconds} s`} per side\n`,
  );
  console.log('| Side | transfers/s (median round) | rounds | p50 ms | p95 ms | p99 ms | transfers | failures | round trips / transfer | serial p50 ms | node CPU ms / transfer | PostgreSQL CPU ms / transfer | others CPU | machine CPU (of 200 %) |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const s of r.sides) {
    const others = s.rounds.map((f) => pct(f.otherCpuPct)).join(', ');
    const machine = s.rounds.map((f) => pct(f.machineCpuPct)).join(', ');
    console.log(
      `| ${s.side} | ${Math.round(s.perSecond).toLocaleString('en-US')} | ${s.roundsPerSecond.join(', ')} | ${s.latency.p50Ms} | ${s.latency.p95Ms} | ${s.latency.p99Ms} | ${s.transfers} | ${s.failures} | ${s.probe.roundTripsPerTransfer} | ${s.probe.latency.p50Ms} | ${ms(s.nodeCpuMsPerTransfer)} | ${ms(s.postgresCpuMsPerTransfer)} | ${others} | ${machine} |`,
    );
  }
  console.log('\nSerial round trips, mean ms each in the order sent (probe, one transfer at a time):');
  for (const s of r.sides) {
    const p = s.probe;
    console.log(`  ${s.side}: ${p.meanMsByRoundTrip.join(' + ')} (p50 ${p.latency.p50Ms} ms a transfer; CPU ms a transfer: node ${ms(p.nodeCpuMsPerTransfer)}, PostgreSQL ${ms(p.postgresCpuMsPerTransfer)})`);
  }
  const f = (x: LedgerBenchResult['engineVsBare']) => `${x.median.toFixed(3)} (rounds ${x.values.join(', ')})`;
  console.log(`\nengine / bare (stepwise) transfers/s: ${f(r.engineVsBare)}`);
  console.log(`engine / bare (one statement) transfers/s: ${f(r.engineVsOneStatement)}`);
  console.log('\nBalance reads, sequential:');
  for (const [name, l] of Object.entries(r.reads)) console.log(`  ${name}: p50 ${l.p50Ms} ms, p95 ${l.p95Ms} ms, p99 ${l.p99Ms} ms (${l.count} reads)`);
  const engine = r.sides.find((s) => s.side === 'engine')!;
  const goal = (what: string, pass: boolean, value: string) => console.log(`  ${pass ? 'PASS' : 'MISS'} ${what}: ${value}`);
  console.log('\nGoals:');
  goal(`engine >= ${LEDGER_GOALS.minEngineVsBare} x bare transfers/s`, r.engineVsBare.median >= LEDGER_GOALS.minEngineVsBare, r.engineVsBare.median.toFixed(3));
  goal(`engine p99 <= ${LEDGER_GOALS.maxEngineP99Ms} ms`, engine.latency.p99Ms <= LEDGER_GOALS.maxEngineP99Ms, `${engine.latency.p99Ms} ms`);
  goal(`balance read (customerLedgerBalances) p50 <= ${LEDGER_GOALS.maxReadP50Ms} ms`, r.reads.customerLedgerBalances.p50Ms <= LEDGER_GOALS.maxReadP50Ms, `${r.reads.customerLedgerBalances.p50Ms} ms`);
  console.log('\nBooks:');
  for (const s of r.sides) {
    const b = s.books;
    console.log(`  ${s.side} (${b.asset}): ${b.transactions} transactions for ${b.committed} committed, ${b.entries} entries, ${b.balanceVersions} balance versions; treasury ${b.treasuryPosted}, customers ${b.customersPosted}${b.problems.length ? `; PROBLEMS: ${b.problems.join('; ')}` : '; balanced'}`);
  }
  console.log(`\nload average before ${r.loadavgBefore}, after ${r.loadavgAfter}`);
  const busy = r.sides.flatMap((s) => s.rounds.filter((x) => x.otherBusiest).map((x) => `${s.side}: ${x.otherBusiest} (${pct(x.otherCpuPct)})`));
  if (busy.length > 0) console.log(`warning: other processes were busy during some rounds:\n  ${busy.join('\n  ')}`);
}

async function main(): Promise<number> {
  const postgresUrl = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
  if (!(await postgresAnswers(postgresUrl))) throw new Error(`no PostgreSQL server accepts connections at ${postgresUrl}`);
  const result = await runLedgerBench({
    postgresUrl,
    writers: positiveInt('LEDGER_BENCH_WRITERS', 16),
    customers: positiveInt('LEDGER_BENCH_CUSTOMERS', 1000),
    hot: process.env.LEDGER_BENCH_HOT !== '0',
    rounds: ROUNDS,
    roundSeconds: Math.max(1, Math.round(SECONDS / ROUNDS)),
    warmupSeconds: 1,
    probeTransfers: positiveInt('LEDGER_BENCH_PROBE', 500),
    reads: positiveInt('LEDGER_BENCH_READS', 2000),
    quietWaitSeconds: Number(process.env.BENCH_QUIET_WAIT ?? 30),
    log: (line) => console.error(line),
  });
  print(result);
  mkdirSync(`${ROOT}/bench/results`, { recursive: true });
  writeFileSync(`${ROOT}/bench/results/ledger-latest.json`, `${JSON.stringify({ ...result, goals: LEDGER_GOALS }, null, 2)}\n`);
  return result.ok ? 0 : 1;
}

await runBench('bench:ledger', main, abortLedgerBench);
