/**
 * `npm run bench:balances` (docs/benchmarks.md#balances): get-account-balances at 50 connections over
 * BENCH_ACCOUNTS (1,000) accounts on anvil, and the JSON-RPC round trips the API makes for them, counted at a proxy.
 *
 * Per database (BENCH_BACKENDS=pglite|postgres|both, as `npm run bench`): anvil on chain 31337 (a block time of 1 s
 * in the balance book) sealing a block every BENCH_BLOCK_TIME s (1), a real 6-decimals USDC deployed on it and listed
 * (TOKENS), the built server with CHAIN_RPC_URLS pointing at a counting forwarder in front of anvil; the accounts made
 * through the API (custodial, so each has its wallet), a tenth of them with ETH and USDC. Then autocannon, 50
 * connections, each request for the next account in turn (every account's request signed once per run, before it:
 * GETs are not replay-guarded): every account asked once (so every wallet is watched), a 2 s warm-up, then
 * BENCH_DURATION s (10) measured. The figure that counts beside the latencies: the round trips carrying an eth_call (the balance
 * lens) during the measured run against the blocks anvil sealed meanwhile; the node's other round trips (the
 * incoming-transfers watcher) are shown apart. Right after, on the same process, the floors: get-account-details over
 * the same accounts (a signed read with a database statement, no chain) and whoami (the signed path alone).
 * BENCH_REPEAT (1) measured runs of the three per database, on the same process and accounts.
 *
 * Prints one table, writes bench/results/balances-latest.json; exits 1 if any answer was not a 200.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { startAnvil, type Anvil } from '../test/harness/anvil.js';
import { californian, signedAt } from '../test/harness/fixtures.js';
import { deployTestToken } from '../test/harness/tokens.js';
import { BACKEND_LABEL, requiredBackends, startBackend, stopAllBackends, type Backend, type BackendKind } from './lib/backend.js';
import { buildServer, ROOT, stopAllChildren } from './lib/children.js';
import { waitForQuiet, watchCpu } from './lib/cpu.js';
import { runBench } from './lib/entry.js';
import { positiveInt } from './lib/env.js';
import { DURATION_SECONDS, fetchSample, warmAndMeasure, type Measured } from './lib/load.js';
import { startRpcCounter, type RpcCounter } from './lib/rpc-counter.js';
import { postJson, signedGetHeaders, type Key } from './lib/signing.js';

const ACCOUNTS = positiveInt('BENCH_ACCOUNTS', 1000);
const BLOCK_TIME = positiveInt('BENCH_BLOCK_TIME', 1);
const CONNECTIONS = 50;
/** Measured runs per database, each balances then its two floors, on the same process and accounts (seeded once). */
const REPEATS = positiveInt('BENCH_REPEAT', 1);
const QUIET_WAIT_SECONDS = Number(process.env.BENCH_QUIET_WAIT ?? 30);
const CHAIN = 31337;

interface Result extends Measured {
  database: string;
  accounts: number;
  /** HTTP requests with an eth_call (the balance lens) during the measured run: the balance reads' round trips. */
  roundTrips: number;
  /** The node's other round trips meanwhile (the incoming-transfers watcher follows every block). */
  otherRoundTrips: number;
  /** Blocks anvil sealed during the measured run. */
  blocks: number;
  /** Balance reads' round trips during the warm-up, while the wallets were first seen. */
  warmUpRoundTrips: number;
  /** Which of the BENCH_REPEAT measured runs on this process (1, 2, …). */
  repeat: number;
  /** get-account-details over the same accounts on the same process: the same lookup without the chain. */
  details: Floor;
  /** whoami on the same process: the signed path without the database (the credential is cached) or the chain. */
  whoami: Floor;
}

interface Floor {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  serverCpuPct?: number | undefined;
  otherCpuPct?: number | undefined;
  machineCpuPct?: number | undefined;
}

/** The accounts, made through the API eight at a time: custodial (no walletAddress), so each has its wallet. */
async function seedAccounts(baseUrl: string, key: Key, anvil: Anvil, mint: (to: string, amount: bigint) => Promise<void>): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < ACCOUNTS) {
        const i = next++;
        const created = await postJson<{ accountId: string; walletAddress: string }>(baseUrl, key, '/v1/submit/create-individual-account', {
          userInfo: californian({ email: `bench.balances.${i}.${randomUUID()}@example.com` }),
          serviceTermsSignedAt: signedAt(),
        });
        ids.push(created.accountId);
        if (i % 10 === 0) {
          await anvil.setBalance(created.walletAddress, 10n ** 18n + BigInt(i));
          await mint(created.walletAddress, 1_000_000n * BigInt(i + 1));
        }
      }
    }),
  );
  return ids;
}

const blockNumber = async (anvil: Anvil) => Number(await anvil.rpc<string>('eth_blockNumber'));

async function runBackend(kind: BackendKind, postgresUrl: string | undefined): Promise<{ results: Result[]; ok: boolean }> {
  const anvil = await startAnvil(CHAIN, { blockTimeSeconds: BLOCK_TIME });
  let proxy: RpcCounter | undefined;
  try {
    const token = await deployTestToken(anvil);
    proxy = await startRpcCounter(anvil.url);
    const backend = await startBackend(kind, postgresUrl, { CHAIN_RPC_URLS: `${CHAIN}=${proxy.url}`, TOKENS: `${CHAIN}:USDC:${token.address}`, APP_ENV: 'sandbox' });
    try {
      console.error(`seeding ${ACCOUNTS} accounts`);
      const ids = await seedAccounts(backend.baseUrl, backend.key, anvil, token.mint);
      const spec = cycling(`get-account-balances (${BACKEND_LABEL[kind]})`, backend, ids.map((id) => `/v1/query/get-account-balances?accountId=${id}`));
      const detailsSpec = cycling(`get-account-details (${BACKEND_LABEL[kind]})`, backend, ids.map((id) => `/v1/query/get-account-details?accountId=${id}`));
      const whoamiSpec = cycling(`whoami (${BACKEND_LABEL[kind]})`, backend, ['/v1/integrator/whoami']);
      const own = { serverPid: backend.api.proc.pid!, pids: [], group: [anvil.pid], ...(backend.databaseName ? { database: backend.databaseName } : {}) };
      const results: Result[] = [];
      let ok = true;
      for (let repeat = 1; repeat <= REPEATS; repeat++) {
        if (QUIET_WAIT_SECONDS > 0) await waitForQuiet(own, QUIET_WAIT_SECONDS);
        // Every account asked once before the warm-up, so every wallet is watched whatever the warm-up's pace (on a
        // starved machine 2 s of autocannon did not reach them all, and their first reads fell in the measured run).
        await askEveryAccount(backend, ids);
        // The balance reads are the round trips carrying an eth_call (the lens); the rest are other parts of the API.
        const counts = () => ({ requests: proxy!.requests, reads: proxy!.requestsWith.get('eth_call') ?? 0, calls: new Map(proxy!.calls) });
        const atStart = { ...counts(), block: await blockNumber(anvil) };
        let measuredFrom = atStart;
        const measured = await warmAndMeasure(spec as never, () => {
          // The warm-up is over: count from here.
          measuredFrom = { ...counts(), block: -1 };
          void blockNumber(anvil).then((b) => (measuredFrom.block = b));
          return watchCpu(own);
        });
        const atEnd = { ...counts(), block: await blockNumber(anvil) };
        const methods = Object.fromEntries([...atEnd.calls].map(([m, n]) => [m, n - (measuredFrom.calls.get(m) ?? 0)]));
        console.error(`  JSON-RPC during the measured run: ${atEnd.requests - measuredFrom.requests} round trips, ${atEnd.reads - measuredFrom.reads} with an eth_call; calls by method: ${JSON.stringify(methods)}`);
        // The same account lookup without the chain, and the signed path without the database (whoami: the
        // credential is cached), on the same process right after: the floors this machine sets for a signed read.
        const details = await warmAndMeasure(detailsSpec as never, () => watchCpu(own));
        const whoami = await warmAndMeasure(whoamiSpec as never, () => watchCpu(own));
        const floor = (m: Measured) => ({ reqPerSec: m.reqPerSec, p50Ms: m.latencyP50Ms, p99Ms: m.latencyP99Ms, serverCpuPct: m.serverCpuPct, otherCpuPct: m.otherCpuPct, machineCpuPct: m.machineCpuPct });
        results.push({
          ...measured.result,
          database: BACKEND_LABEL[kind],
          repeat,
          accounts: ids.length,
          roundTrips: atEnd.reads - measuredFrom.reads,
          otherRoundTrips: atEnd.requests - measuredFrom.requests - (atEnd.reads - measuredFrom.reads),
          blocks: atEnd.block - measuredFrom.block,
          warmUpRoundTrips: measuredFrom.reads - atStart.reads,
          details: floor(details.result),
          whoami: floor(whoami.result),
        });
        ok &&= measured.ok && details.ok && whoami.ok;
      }
      return { results, ok };
    } finally {
      await backend.stop();
    }
  } finally {
    await proxy?.close();
    await anvil.stop();
  }
}

/** get-account-balances of every account once, 50 at a time; throws unless each is a 200. */
async function askEveryAccount(backend: Backend, ids: string[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < ids.length) {
        const path = `/v1/query/get-account-balances?accountId=${ids[next++]}`;
        const res = await fetch(`${backend.baseUrl}${path}`, { headers: signedGetHeaders(backend.key, path), signal: AbortSignal.timeout(30_000) });
        const body = await res.text();
        if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${body.slice(0, 500)}`);
      }
    }),
  );
}

/** autocannon over `paths` in turn, each signed once per run (GETs are not replay-guarded; 60 s window). */
function cycling(label: string, backend: Backend, paths: string[]) {
  let signed: Record<string, string>[] = [];
  let n = 0;
  let failure: string | undefined;
  return {
        label,
        connections: CONNECTIONS,
        options: () => {
          // GETs are not replay-guarded: each account's request signed once per run (60 s window).
          signed = paths.map((p) => signedGetHeaders(backend.key, p));
          return {
            url: backend.baseUrl,
            requests: [
              {
                setupRequest: (request: Record<string, unknown>) => {
                  const i = n++ % paths.length;
                  return { ...request, method: 'GET', path: paths[i], headers: { ...(request.headers as object), ...signed[i] } };
                },
                onResponse: (status: number, body: string) => {
                  if (status !== 200) failure ??= `${status} ${body.slice(0, 500)}`;
                },
              },
            ],
          };
        },
        sample: async () => failure ?? (await fetchSample(`${backend.baseUrl}${paths[0]}`, signedGetHeaders(backend.key, paths[0]!))),
  };
}

async function main(): Promise<number> {
  const { kinds, postgresUrl } = await requiredBackends();
  await buildServer();
  const results: Result[] = [];
  let ok = true;
  for (const kind of kinds) {
    const run = await runBackend(kind, kind === 'postgres' ? postgresUrl : undefined);
    results.push(...run.results);
    ok &&= run.ok;
  }
  console.log(`\nget-account-balances over ${ACCOUNTS} accounts, ${CONNECTIONS} connections, ${DURATION_SECONDS} s; anvil (chain ${CHAIN}) sealing a block every ${BLOCK_TIME} s, one USDC listed\n`);
  console.log(
    '| Database | run | req/s | p50 ms | p99 ms | requests | non-200 | balance round trips / blocks | other round trips | warm-up balance round trips | API CPU | load generator CPU | PostgreSQL CPU | anvil CPU | others CPU | machine CPU (of 200 %) | get-account-details req/s, p50 / p99 ms (others CPU; machine) | whoami req/s, p50 / p99 ms (others CPU; machine) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  const pct = (v: number | undefined) => (v === undefined ? '' : `${Math.round(v)} %`);
  const floor = (f: Floor) => `${Math.round(f.reqPerSec).toLocaleString('en-US')}, ${f.p50Ms} / ${f.p99Ms} (${pct(f.otherCpuPct)}; machine ${pct(f.machineCpuPct)})`;
  for (const r of results) {
    const perBlock = r.blocks > 0 ? (r.roundTrips / r.blocks).toFixed(2) : 'n/a';
    console.log(
      `| ${r.database} | ${r.repeat} | ${Math.round(r.reqPerSec).toLocaleString('en-US')} | ${r.latencyP50Ms} | ${r.latencyP99Ms} | ${r.requests} | ${r.non2xx + r.errors + r.timeouts} | ${r.roundTrips} / ${r.blocks} (${perBlock}) | ${r.otherRoundTrips} | ${r.warmUpRoundTrips} | ${pct(r.serverCpuPct)} | ${pct(r.loadGeneratorCpuPct)} | ${pct(r.postgresCpuPct)} | ${pct(r.groupCpuPct)} | ${pct(r.otherCpuPct)} | ${pct(r.machineCpuPct)} | ${floor(r.details)} | ${floor(r.whoami)} |`,
    );
  }
  mkdirSync(`${ROOT}/bench/results`, { recursive: true });
  writeFileSync(`${ROOT}/bench/results/balances-latest.json`, `${JSON.stringify({ at: new Date().toISOString(), accounts: ACCOUNTS, connections: CONNECTIONS, durationSeconds: DURATION_SECONDS, blockTimeSeconds: BLOCK_TIME, results }, null, 2)}\n`);
  return ok ? 0 : 1;
}

await runBench('bench:balances', main, async () => {
  await stopAllBackends();
  await stopAllChildren();
});
