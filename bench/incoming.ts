/**
 * `npm run bench:incoming` (docs/benchmarks.md#incoming-transfers): how soon the incoming watcher completes a transfer
 * to a wallet once it has its confirmations, and the JSON-RPC round trips it costs per block, at 100 and at 10,000
 * wallets (the cost per block must not grow with them).
 *
 * Per database (BENCH_BACKENDS=pglite|postgres|both, as `npm run bench`) and per wallet count of BENCH_WALLETS
 * ("100,10000"), each on a fresh chain and server: anvil on chain 31337 sealing a block every second, a real
 * 6-decimals USDC deployed and listed (TOKENS), the built server with CHAIN_RPC_URLS pointing at a counting proxy in
 * front of anvil and CHAIN_CONFIRMATIONS=31337=3 (a transfer of block B completes when the watcher has read B + 2:
 * the confirming block); INCOMING_POLL_MS left at its default (500 ms on 31337). The accounts are made through the
 * API, BENCH_SEED_CONCURRENCY (12) at a time: self-custodial with a random walletAddress, every
 * BENCH_CUSTODIAL_EVERY-th (10th) custodial. A webhook subscription for `transaction.completed` points at a receiver
 * in this process.
 *
 * Then, for BENCH_DURATION s (30): at each new block, one transfer from anvil's unlocked dev account
 * (eth_sendTransaction straight to anvil), ETH and USDC in turn, to a random seeded wallet. This process polls
 * anvil's eth_blockNumber directly (not through the proxy) every ~10 ms and notes when each height first appeared,
 * with the proxy's counters at that moment. A transfer's detection latency runs from the moment its confirming
 * block first appeared to the moment its `transaction.completed` webhook reached the receiver (delivered, stricter
 * than visible in the API); the event's own createdAt (when the watcher recorded the completion) is reported beside
 * it. Round trips per block: the proxy's HTTP requests from the block at which sending began to the first block
 * after the last delivery, over the blocks in between; calls by method likewise.
 *
 * Every transfer must be recorded exactly once: each account that was sent anything is listed through the API
 * (list-transactions) and must hold one `incoming` transaction, completed, per transfer sent to it, and none other.
 * Prints one table, writes bench/results/incoming-latest.json; exits 1 if a transfer is missing, doubled or not
 * delivered.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ANVIL_DEV_KEY } from '../src/chain/demo-vault.js';
import { encodeTransfer } from '../src/chain/erc20.js';
import { startAnvil } from '../test/harness/anvil.js';
import { startReceiver, type Receiver } from '../test/harness/receiver.js';
import { startRpcProxy, type RpcProxy } from '../test/harness/rpc-proxy.js';
import { deployTestToken, type TestToken } from '../test/harness/tokens.js';
import { BACKEND_LABEL, requiredBackends, startBackend, stopAllBackends, type Backend, type BackendKind } from './lib/backend.js';
import { buildServer, ROOT, stopAllChildren } from './lib/children.js';
import { waitForQuiet, watchCpu, type CpuFigures } from './lib/cpu.js';
import { runBench } from './lib/entry.js';
import { positiveInt } from './lib/env.js';
import { BlockClock, epochNow } from './lib/block-clock.js';
import { deliveriesOf, incomingOf, seedAccounts, type Seeded } from './lib/incoming-accounts.js';
import { postJson } from './lib/signing.js';

const CHAIN = 31337;
const CONFIRMATIONS = 3;
const BLOCK_TIME = 1;
const DURATION_SECONDS = positiveInt('BENCH_DURATION', 30);
const SEED_CONCURRENCY = positiveInt('BENCH_SEED_CONCURRENCY', 12);
const CUSTODIAL_EVERY = positiveInt('BENCH_CUSTODIAL_EVERY', 10);
const QUIET_WAIT_SECONDS = Number(process.env.BENCH_QUIET_WAIT ?? 30);
/** After the last confirming block, how long the deliveries are waited for before the missing ones fail the run. */
const DRAIN_SECONDS = 30;
const WALLET_COUNTS = (process.env.BENCH_WALLETS || '100,10000').split(',').map((s) => {
  const n = Number(s.trim());
  if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_WALLETS must be comma-separated positive integers (got "${process.env.BENCH_WALLETS}")`);
  return n;
});

const DEV = privateKeyToAccount(ANVIL_DEV_KEY);

interface Sent {
  hash: Hex;
  asset: 'ETH' | 'USDC';
  raw: bigint;
  to: Seeded;
  /** The block it was mined in (from its receipt). */
  blockNumber?: number;
}

interface Latencies {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface Result {
  database: string;
  wallets: number;
  custodialWallets: number;
  seedSeconds: number;
  transfers: number;
  eth: number;
  usdc: number;
  /** Transfers with exactly one incoming transaction, completed, in the right account. */
  recordedOnce: number;
  missing: number;
  doubled: number;
  /** Incoming transactions of the accounts sent to that match no transfer sent. */
  unexpected: number;
  delivered: number;
  /** Confirming block first seen → `transaction.completed` webhook received. */
  delivery: Latencies;
  /** Confirming block first seen → the completion event's createdAt (the watcher's clock when it recorded it). */
  recorded: Latencies;
  /** Each transfer's delivery latency, in sending order (ms; -1 when not delivered). */
  deliveryMs: number[];
  roundTrips: number;
  blocks: number;
  roundTripsPerBlock: number;
  /** JSON-RPC calls by method over the same window (a batch counts each of its calls). */
  calls: Record<string, number>;
  /** Round trips during seeding (no transfers yet): the watcher's idle cost. */
  seedRoundTrips: number;
  seedBlocks: number;
  cpu: CpuFigures;
}

function percentiles(values: number[]): Latencies {
  if (values.length === 0) return { p50Ms: NaN, p99Ms: NaN, maxMs: NaN };
  const sorted = [...values].sort((a, b) => a - b);
  // Nearest rank: with ~30 samples the p99 is the largest but at most one.
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
  const round = (v: number) => Math.round(v);
  return { p50Ms: round(at(50)), p99Ms: round(at(99)), maxMs: round(sorted[sorted.length - 1]!) };
}

async function runOne(kind: BackendKind, postgresUrl: string | undefined, wallets: number): Promise<{ result: Result; ok: boolean }> {
  const anvil = await startAnvil(CHAIN, { blockTimeSeconds: BLOCK_TIME });
  let proxy: RpcProxy | undefined;
  let receiver: Receiver | undefined;
  let clock: BlockClock | undefined;
  let backend: Backend | undefined;
  try {
    const token: TestToken = await deployTestToken(anvil);
    await token.mint(DEV.address, 10n ** 15n);
    proxy = await startRpcProxy(anvil.url);
    receiver = await startReceiver();
    backend = await startBackend(kind, postgresUrl, {
      APP_ENV: 'sandbox',
      CHAIN_RPC_URLS: `${CHAIN}=${proxy.url}`,
      TOKENS: `${CHAIN}:USDC:${token.address}`,
      CHAIN_CONFIRMATIONS: `${CHAIN}=${CONFIRMATIONS}`,
      WEBHOOK_ALLOW_PRIVATE: '1',
    });
    await postJson(backend.baseUrl, backend.key, '/v1/webhooks/subscriptions', { name: 'bench incoming', url: `${receiver.url}/hooks`, eventTypes: ['transaction.completed'] });
    clock = new BlockClock(anvil, proxy);
    await clock.next();

    console.error(`seeding ${wallets} accounts (${SEED_CONCURRENCY} at a time, every ${CUSTODIAL_EVERY}th custodial)`);
    const seedFrom = { requests: proxy.requests, block: clock.last };
    const seedStarted = Date.now();
    const seeded = await seedAccounts(backend, wallets, SEED_CONCURRENCY, CUSTODIAL_EVERY);
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    const seedTo = { requests: proxy.requests, block: clock.last };
    console.error(`  seeded in ${seedSeconds.toFixed(0)} s; ${seedTo.requests - seedFrom.requests} round trips in ${seedTo.block - seedFrom.block} blocks meanwhile`);

    const own = { serverPid: backend.api.proc.pid!, pids: [], group: [anvil.pid], ...(backend.databaseName ? { database: backend.databaseName } : {}) };
    if (QUIET_WAIT_SECONDS > 0) await waitForQuiet(own, QUIET_WAIT_SECONDS);

    // One transfer at each new block for DURATION_SECONDS: it goes into the block after.
    const sent: Sent[] = [];
    const startHeight = await clock.next();
    const cpu = watchCpu(own);
    const sendUntil = epochNow() + DURATION_SECONDS * 1000;
    for (let height = startHeight; epochNow() < sendUntil; height = await clock.next()) {
      const to = seeded[Math.floor(Math.random() * seeded.length)]!;
      const eth = sent.length % 2 === 0;
      const raw = eth ? 10n ** 12n + BigInt(sent.length) : 1_000_000n + BigInt(sent.length);
      const hash = await anvil.rpc<Hex>('eth_sendTransaction', [
        eth ? { from: DEV.address, to: to.walletAddress, value: `0x${raw.toString(16)}` } : { from: DEV.address, to: token.address, data: encodeTransfer(to.walletAddress, raw) },
      ]);
      sent.push({ hash: hash.toLowerCase() as Hex, asset: eth ? 'ETH' : 'USDC', raw, to });
      if (clock.last > height) console.error(`  warning: block ${clock.last} appeared before the transfer for block ${height + 1} was sent`);
    }
    for (const s of sent) s.blockNumber = Number((await anvil.mined(s.hash)).blockNumber);
    const lastConfirming = Math.max(...sent.map((s) => s.blockNumber! + CONFIRMATIONS - 1));
    console.error(`  ${sent.length} transfers sent in blocks ${sent[0]!.blockNumber}-${sent[sent.length - 1]!.blockNumber}; waiting for their deliveries`);

    // Until every transfer is delivered, or DRAIN_SECONDS after the last confirming block.
    const want = new Set(sent.map((s) => `${s.to.accountId}:${s.hash}`));
    const allDelivered = () => [...want].every((k) => deliveriesOf(receiver!).has(k));
    while (!allDelivered()) {
      const confirmedAt = clock.seen.get(lastConfirming)?.at;
      if (confirmedAt !== undefined && epochNow() - confirmedAt > DRAIN_SECONDS * 1000) break;
      await sleep(50);
    }
    const endHeight = await clock.next();
    const cpuFigures = cpu.stop();
    const from = clock.seen.get(startHeight)!;
    const to = clock.seen.get(endHeight)!;
    const calls: Record<string, number> = {};
    for (const call of proxy.calls.slice(from.calls, to.calls)) calls[call.method] = (calls[call.method] ?? 0) + 1;

    const delivered = deliveriesOf(receiver);
    const deliveryMs: number[] = [];
    const recordedMs: number[] = [];
    for (const s of sent) {
      const confirming = clock.seen.get(s.blockNumber! + CONFIRMATIONS - 1);
      const d = delivered.get(`${s.to.accountId}:${s.hash}`);
      if (!d || !confirming) {
        deliveryMs.push(-1);
        continue;
      }
      deliveryMs.push(Math.round(d.receivedAt - confirming.at));
      recordedMs.push(d.createdAt - confirming.at);
    }

    // Exactly once, through the API: every account sent to, every incoming transaction it has.
    const byAccount = new Map<string, Sent[]>();
    for (const s of sent) byAccount.set(s.to.accountId, [...(byAccount.get(s.to.accountId) ?? []), s]);
    let recordedOnce = 0;
    let missing = 0;
    let doubled = 0;
    let unexpected = 0;
    for (const [accountId, mine] of byAccount) {
      const rows = await incomingOf(backend, accountId);
      const hashes = new Set(mine.map((s) => s.hash));
      unexpected += rows.filter((r) => !hashes.has((r.transactionHash ?? '').toLowerCase() as Hex)).length;
      for (const s of mine) {
        const found = rows.filter((r) => r.transactionHash?.toLowerCase() === s.hash);
        if (found.length === 0) missing++;
        else if (found.length > 1) doubled++;
        else if (found[0]!.status === 'completed') recordedOnce++;
        else missing++; // recorded but never completed
      }
    }
    const result: Result = {
      database: BACKEND_LABEL[kind],
      wallets: seeded.length,
      custodialWallets: seeded.filter((s) => s.custodial).length,
      seedSeconds: Math.round(seedSeconds),
      transfers: sent.length,
      eth: sent.filter((s) => s.asset === 'ETH').length,
      usdc: sent.filter((s) => s.asset === 'USDC').length,
      recordedOnce,
      missing,
      doubled,
      unexpected,
      delivered: deliveryMs.filter((v) => v >= 0).length,
      delivery: percentiles(deliveryMs.filter((v) => v >= 0)),
      recorded: percentiles(recordedMs),
      deliveryMs,
      roundTrips: to.requests - from.requests,
      blocks: endHeight - startHeight,
      roundTripsPerBlock: Number(((to.requests - from.requests) / (endHeight - startHeight)).toFixed(2)),
      calls,
      seedRoundTrips: seedTo.requests - seedFrom.requests,
      seedBlocks: seedTo.block - seedFrom.block,
      cpu: cpuFigures,
    };
    console.error(`  ${JSON.stringify({ ...result, deliveryMs: undefined })}`);
    const ok = recordedOnce === sent.length && unexpected === 0 && result.delivered === sent.length;
    if (!ok) console.error(`  FAIL: ${sent.length} transfers, ${recordedOnce} recorded once and completed, ${missing} missing, ${doubled} doubled, ${unexpected} unexpected, ${result.delivered} delivered`);
    return { result, ok };
  } finally {
    await clock?.stop();
    await backend?.stop();
    await receiver?.close();
    await proxy?.close();
    await anvil.stop();
  }
}

async function main(): Promise<number> {
  const { kinds, postgresUrl } = await requiredBackends();
  await buildServer();
  const results: Result[] = [];
  let ok = true;
  for (const kind of kinds) {
    for (const wallets of WALLET_COUNTS) {
      const run = await runOne(kind, kind === 'postgres' ? postgresUrl : undefined, wallets);
      results.push(run.result);
      ok &&= run.ok;
    }
  }
  console.log(
    `\nincoming transfers: one a block for ${DURATION_SECONDS} s (ETH and USDC in turn, to random seeded wallets); anvil (chain ${CHAIN}) sealing a block every ${BLOCK_TIME} s, CHAIN_CONFIRMATIONS=${CHAIN}=${CONFIRMATIONS}, INCOMING_POLL_MS default (500 ms)`,
  );
  console.log('latency: from the confirming block (B + 2) first seen on anvil to the transaction.completed webhook received (and to the event\'s createdAt)\n');
  console.log(
    '| Database | wallets | transfers (ETH / USDC) | recorded once | delivered p50 / p99 / max ms | recorded p50 / p99 / max ms | round trips / blocks (per block) | calls per block by method | idle round trips / blocks | API CPU | PostgreSQL CPU | anvil CPU | bench CPU | others CPU |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  const pct = (v: number | undefined) => (v === undefined ? '' : `${Math.round(v)} %`);
  for (const r of results) {
    const perMethod = Object.entries(r.calls)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([m, n]) => `${m} ${(n / r.blocks).toFixed(2)}`)
      .join(', ');
    console.log(
      `| ${r.database} | ${r.wallets.toLocaleString('en-US')} | ${r.transfers} (${r.eth} / ${r.usdc}) | ${r.recordedOnce}${r.missing + r.doubled + r.unexpected > 0 ? ` (missing ${r.missing}, doubled ${r.doubled}, unexpected ${r.unexpected})` : ''} | ${r.delivery.p50Ms} / ${r.delivery.p99Ms} / ${r.delivery.maxMs} | ${r.recorded.p50Ms} / ${r.recorded.p99Ms} / ${r.recorded.maxMs} | ${r.roundTrips} / ${r.blocks} (${r.roundTripsPerBlock}) | ${perMethod} | ${r.seedRoundTrips} / ${r.seedBlocks} | ${pct(r.cpu.serverCpuPct)} | ${pct(r.cpu.postgresCpuPct)} | ${pct(r.cpu.groupCpuPct)} | ${pct(r.cpu.loadGeneratorCpuPct)} | ${pct(r.cpu.otherCpuPct)}${r.cpu.otherBusiest ? ` (${r.cpu.otherBusiest.slice(0, 40)})` : ''} |`,
    );
  }
  mkdirSync(`${ROOT}/bench/results`, { recursive: true });
  writeFileSync(
    `${ROOT}/bench/results/incoming-latest.json`,
    `${JSON.stringify({ at: new Date().toISOString(), durationSeconds: DURATION_SECONDS, blockTimeSeconds: BLOCK_TIME, confirmations: CONFIRMATIONS, wallets: WALLET_COUNTS, results }, null, 2)}\n`,
  );
  return ok ? 0 : 1;
}

await runBench('bench:incoming', main, async () => {
  await stopAllBackends();
  await stopAllChildren();
});
