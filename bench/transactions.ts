/**
 * `npm run bench:transactions`: send-transaction-passkey under load, to broadcast on a real anvil node, beside
 * the same API process's whoami figure. Per database (BENCH_BACKENDS=pglite|postgres|both, as `npm run bench`):
 *
 * - the built server (dist/src/main.js) with CHAIN_RPC_URLS pointing at anvil (chain 8453), which seals a block
 *   every BENCH_BLOCK_TIME seconds (1; 0: a block per transaction, anvil's automine);
 * - BENCH_CUSTOMERS (16) active custodial customers, each with a software passkey and a funded wallet;
 * - one client loop per customer, for BENCH_TX_ROUNDS rounds (3) of BENCH_DURATION s (10) after a 2 s warm-up:
 *   build the next transfer (the wallet's next nonce), stamp it with the customer's passkey (its counter only goes
 *   up, so each customer's submissions are sequential), sign the request, POST it, expect 201 (signed, recorded,
 *   broadcast, committed); req/s is the median round's, with the rounds' spread beside it;
 * - whoami with autocannon, 50 connections, on the same process right after.
 *
 * BENCH_CUSTODY=sealed|pkcs11|both (both when softhsm2 is installed): the custody keys the server signs with, each in
 * its own server (pkcs11 on a fresh SoftHSM2 token, docs/key-management.md), one after the other in one run.
 *
 * Prints one table and writes bench/results/transactions-latest.json; exits 1 if any submission was not a 201.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { writeFileSync, mkdirSync } from 'node:fs';
import { startAnvil, type Anvil } from '../test/harness/anvil.js';
import { SoftwareAuthenticator } from '../test/harness/authenticator.js';
import { unsignedTransfer, recipient } from '../test/harness/customers.js';
import { californian, personDocs, signedAt } from '../test/harness/fixtures.js';
import { BACKEND_LABEL, requiredBackends, startBackend, stopAllBackends, type Backend, type BackendKind } from './lib/backend.js';
import { watchCpu, type CpuFigures } from './lib/cpu.js';
import { buildServer, ROOT, stopAllChildren } from './lib/children.js';
import { DURATION_SECONDS, WARMUP_SECONDS, warmAndMeasure } from './lib/load.js';
import { positiveInt } from './lib/env.js';
import { meanCpuFigures, median } from './lib/report.js';
import { postJson, signedGetHeaders, signedPostHeaders } from './lib/signing.js';
import { signedGet } from './scenarios/signed-get.js';
import { createTestToken, SOFTHSM_MODULE } from '../test/harness/softhsm.js';
import { coverWithPolicies, cpuMsPerSubmission, RECIPIENTS, TX_POLICIES } from './lib/tx-policies.js';
import { existsSync } from 'node:fs';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 16);
/**
 * Seconds between anvil's blocks. Automine (0) seals a block per transaction, one at a time inside anvil: on this
 * shared two-core machine that cost anvil about 3.5 ms of CPU per submission, as much as the API, and held the
 * bench near 140/s with 16 or 32 customers whatever the server did. A chain seals every 1 to 12 s.
 */
const BLOCK_TIME = Number(process.env.BENCH_BLOCK_TIME ?? 1);
/**
 * Measured rounds, back to back on the same server: this shared machine's speed drifts within minutes (one 10 s run
 * of the same code gave 127 to 249/s on one day), so one round is one draw; the median of a few, with their
 * spread, says more.
 */
const ROUNDS = positiveInt('BENCH_TX_ROUNDS', 3);
const MINING = BLOCK_TIME > 0 ? `a block every ${BLOCK_TIME} s` : 'automine';
const PATH = '/v1/submit/send-transaction-passkey?chain_id=8453';
type Custody = 'sealed' | 'pkcs11';
const CUSTODY: Custody[] = (() => {
  const raw = process.env.BENCH_CUSTODY ?? (existsSync(SOFTHSM_MODULE) ? 'both' : 'sealed');
  if (raw === 'both') return ['sealed', 'pkcs11'];
  if (raw === 'sealed' || raw === 'pkcs11') return [raw];
  throw new Error(`BENCH_CUSTODY must be sealed, pkcs11 or both (got "${raw}")`);
})();

interface Payer {
  accountId: string;
  organizationId: string;
  /** Where its transfers go in turn (BENCH_TX_POLICIES), else a new address each. */
  recipients?: string[];
  walletAddress: string;
  passkey: SoftwareAuthenticator;
  nonce: number;
  /** The transactionId of the payer's last 201. */
  last?: string;
  /** Submissions stamped and signed before a measured loop (presign), taken in nonce order. */
  ready: Submission[];
}

interface Submission {
  body: string;
  headers: Record<string, string>;
  transactionId: string;
  nonce: number;
}

interface Result extends Partial<CpuFigures> {
  database: string;
  /** CUSTODY_KEYS of the server measured. */
  custody: Custody;
  scenario: string;
  connections: number;
  reqPerSec: number;
  /** send-transaction-passkey: each round's submissions/s, in the order run (reqPerSec is their median). */
  roundsReqPerSec?: number[];
  /**
   * How long after the last 201 the watcher had completed every submission (each payer's last one: a wallet's
   * transactions are mined and settled in nonce order); above a second, the watcher did not keep up.
   */
  allCompletedAfterMs?: number;
  /** The API's CPU per submission, ms: the median of the rounds' API CPU % of a core over their submissions/s. */
  cpuMsPerSubmission?: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  failures: number;
}

async function customers(backend: Backend, anvil: Anvil, covered = false): Promise<Payer[]> {
  const payers: Payer[] = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const passkey = new SoftwareAuthenticator();
    const created = await postJson<{ accountId: string; organizationId: string; walletAddress: string }>(backend.baseUrl, backend.key, '/v1/submit/create-individual-account', {
      userInfo: californian({ email: `bench.tx.${i}.${randomUUID()}@example.com` }),
      serviceTermsSignedAt: signedAt(),
      verificationDocuments: personDocs(),
      authenticators: [passkey.authenticator()],
    });
    await postJson(backend.baseUrl, backend.key, '/v1/sandbox/simulate-verification', { accountId: created.accountId, outcome: 'approve' }, 200);
    await anvil.setBalance(created.walletAddress, 10n ** 21n);
    if (covered) await coverWithPolicies(backend, created.accountId);
    payers.push({ accountId: created.accountId, organizationId: created.organizationId, walletAddress: created.walletAddress, passkey, nonce: 0, ready: [], ...(TX_POLICIES ? { recipients: RECIPIENTS } : {}) });
  }
  return payers;
}

/**
 * Submissions each payer has stamped and signed before a measured loop: the load generator shares the two cores
 * with what it measures, and its P-256 stamps and Ed25519 request signatures took about a fifth of a core during
 * the loop. Both stay valid for minutes (the signed body's timestampMs, the request signature's timestamp), far
 * longer than a loop. A payer that runs out builds the next one as it goes.
 */
const PRESIGNED_PER_SECOND = Number(process.env.BENCH_PRESIGNED_PER_SECOND ?? 20);

/** One stamped, signed submission of the payer's next transfer. */
function buildSubmission(backend: Backend, payer: Payer): Submission {
  const nonce = payer.nonce++;
  const signedBody = {
    type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
    timestampMs: String(Date.now()),
    organizationId: payer.organizationId,
    parameters: { signWith: payer.walletAddress, unsignedTransaction: unsignedTransfer(8453, nonce, payer.recipients ? payer.recipients[nonce % payer.recipients.length] : recipient(), 1n), type: 'TRANSACTION_TYPE_ETHEREUM' },
  };
  const transactionId = randomUUID();
  const body = JSON.stringify({ transactionId, signedBody, webAuthnStamp: payer.passkey.stamp(JSON.stringify(signedBody)) });
  return { body, headers: signedPostHeaders(backend.key, PATH, body), transactionId, nonce };
}

function presign(backend: Backend, payers: Payer[], seconds: number): void {
  for (const payer of payers) while (payer.ready.length < seconds * PRESIGNED_PER_SECOND) payer.ready.push(buildSubmission(backend, payer));
}

/** Every payer submits back to back for `seconds`; latencies of 201s, failures counted (and the first shown). */
async function submitLoop(backend: Backend, payers: Payer[], seconds: number): Promise<{ latencies: number[]; failures: number; elapsedMs: number }> {
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  // undici's request, not fetch: the load generator shares the two cores with what it measures (fetch cost it about
  // four times the CPU per request).
  const agent = new Agent({ connections: payers.length });
  await Promise.all(
    payers.map(async (payer) => {
      while (performance.now() < deadline) {
        const { body, headers, transactionId, nonce } = payer.ready.shift() ?? buildSubmission(backend, payer);
        const t0 = performance.now();
        const res = await request(`${backend.baseUrl}${PATH}`, { method: 'POST', headers, body, dispatcher: agent });
        const text = await res.body.text();
        if (res.statusCode === 201) {
          latencies.push(performance.now() - t0);
          payer.last = transactionId;
        } else {
          if (failures++ === 0) console.error(`FAIL send-transaction-passkey: ${res.statusCode} ${text.slice(0, 500)}`);
          // Nothing was broadcast: the nonce is still free, and the payer's presigned ones after it would leave a gap.
          payer.nonce = nonce;
          payer.ready = [];
        }
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  await agent.close();
  return { latencies, failures, elapsedMs };
}

/** Waits until every payer's last submission is completed; the milliseconds it took. */
async function allCompleted(backend: Backend, payers: Payer[]): Promise<number> {
  const started = performance.now();
  for (const payer of payers) {
    if (!payer.last) continue;
    const path = `/v1/query/get-transaction?transactionId=${payer.last}`;
    for (;;) {
      const res = await fetch(`${backend.baseUrl}${path}`, { headers: signedGetHeaders(backend.key, path) });
      const view = (await res.json()) as { status?: string };
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(view).slice(0, 300)}`);
      if (view.status === 'completed') break;
      if (view.status !== 'processing') throw new Error(`transaction ${payer.last} is ${view.status}, not completed`);
      if (performance.now() - started > 120_000) throw new Error('the watcher did not complete the submissions within 120 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return performance.now() - started;
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);

type Round = Awaited<ReturnType<typeof submitLoop>>;

/** A group's row: its rounds' median submissions/s, latencies over all rounds, mean CPU and median CPU per submission. */
async function groupResult(backend: Backend, kind: BackendKind, custody: Custody, group: { scenario: string; payers: Payer[]; rounds: Round[]; figures: CpuFigures[]; warmFailures: number }): Promise<Result> {
  const { rounds } = group;
  const allCompletedAfterMs = await allCompleted(backend, group.payers);
  const sorted = rounds.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const roundsReqPerSec = rounds.map((r) => (r.latencies.length * 1000) / r.elapsedMs);
  const cpuMs = cpuMsPerSubmission(roundsReqPerSec.map((reqPerSec, i) => ({ reqPerSec, ...group.figures[i] })));
  return {
    database: BACKEND_LABEL[kind],
    custody,
    scenario: group.scenario,
    connections: group.payers.length,
    reqPerSec: median(roundsReqPerSec),
    roundsReqPerSec,
    latencyP50Ms: percentile(sorted, 50),
    latencyP99Ms: percentile(sorted, 99),
    requests: sorted.length + rounds.reduce((n, r) => n + r.failures, 0),
    failures: rounds.reduce((n, r) => n + r.failures, group.warmFailures),
    allCompletedAfterMs,
    ...(cpuMs === undefined ? {} : { cpuMsPerSubmission: cpuMs }),
    ...meanCpuFigures(group.figures),
  };
}

async function runBackend(kind: BackendKind, postgresUrl: string | undefined, custody: Custody): Promise<{ results: Result[]; ok: boolean }> {
  const anvil = await startAnvil(8453, BLOCK_TIME ? { blockTimeSeconds: BLOCK_TIME } : {});
  // A fresh token per server; SOFTHSM2_CONF (set by createTestToken) reaches the server through the environment.
  const token = custody === 'pkcs11' ? (await createTestToken()).env : {};
  const backend = await startBackend(kind, postgresUrl, { CHAIN_RPC_URLS: `8453=${anvil.url}`, APP_ENV: 'sandbox', ...token });
  try {
    // BENCH_TX_POLICIES: a second group whose accounts three policies cover, its rounds alternating with the first's.
    const groups = [{ scenario: 'send-transaction-passkey', payers: await customers(backend, anvil), rounds: [] as Round[], figures: [] as CpuFigures[], warmFailures: 0 }];
    if (TX_POLICIES) groups.push({ scenario: `send-transaction-passkey, ${TX_POLICIES} policies`, payers: await customers(backend, anvil, true), rounds: [], figures: [], warmFailures: 0 });
    console.error(`send-transaction-passkey: warm-up ${WARMUP_SECONDS} s, then ${ROUNDS} rounds of ${DURATION_SECONDS} s, ${CUSTOMERS} customers submitting back to back${TX_POLICIES ? ', each round once without and once with policies' : ''}`);
    for (const group of groups) {
      presign(backend, group.payers, WARMUP_SECONDS);
      group.warmFailures = (await submitLoop(backend, group.payers, WARMUP_SECONDS)).failures;
    }
    for (let i = 0; i < ROUNDS; i++) {
      for (const group of i % 2 ? [...groups].reverse() : groups) {
        presign(backend, group.payers, DURATION_SECONDS);
        // anvil as the group: the machine's whole budget is in the row (API, PostgreSQL, node, load generator). Watched
        // during each loop only, not while the next round is presigned.
        const cpu = watchCpu({ serverPid: backend.api.proc.pid!, pids: [], group: [anvil.pid], ...(backend.databaseName ? { database: backend.databaseName } : {}) });
        group.rounds.push(await submitLoop(backend, group.payers, DURATION_SECONDS));
        group.figures.push(cpu.stop());
      }
    }
    const txs: Result[] = [];
    for (const group of groups) txs.push(await groupResult(backend, kind, custody, group));
    const whoami = await warmAndMeasure(signedGet('whoami', backend.baseUrl, '/v1/integrator/whoami', backend.key));
    const w = whoami.result;
    return {
      results: [
        ...txs,
        { database: BACKEND_LABEL[kind], custody, scenario: 'whoami', connections: w.connections, reqPerSec: w.reqPerSec, latencyP50Ms: w.latencyP50Ms, latencyP99Ms: w.latencyP99Ms, requests: w.requests, failures: w.non2xx + w.errors + w.timeouts },
      ],
      ok: txs.every((tx) => tx.failures === 0) && whoami.ok,
    };
  } finally {
    await backend.stop();
    await anvil.stop();
  }
}

async function main(): Promise<void> {
  const { kinds, postgresUrl } = await requiredBackends();
  await buildServer();
  const results: Result[] = [];
  let ok = true;
  for (const kind of kinds) {
    for (const custody of CUSTODY) {
      const run = await runBackend(kind, kind === 'postgres' ? postgresUrl : undefined, custody);
      results.push(...run.results);
      ok &&= run.ok;
    }
  }

  console.log(`\nsend-transaction-passkey to broadcast on anvil (chain 8453, ${MINING}), ${CUSTOMERS} customers, ${ROUNDS} rounds of ${DURATION_SECONDS} s (req/s: the median round's; rounds: each, in order); whoami 50 connections, ${DURATION_SECONDS} s\n`);
  console.log('| Database | Custody keys | Scenario | Connections | req/s | rounds | p50 ms | p99 ms | requests | failures | API CPU | API CPU ms per request | PostgreSQL CPU | anvil CPU | load generator CPU | others CPU |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const pct = (v: number | undefined) => (v === undefined ? '' : `${Math.round(v)} %`);
    console.log(`| ${r.database} | ${r.custody} | ${r.scenario} | ${r.connections} | ${Math.round(r.reqPerSec).toLocaleString('en-US')} | ${(r.roundsReqPerSec ?? []).map((v) => Math.round(v)).join(', ')} | ${r.latencyP50Ms.toFixed(1)} | ${r.latencyP99Ms.toFixed(1)} | ${r.requests} | ${r.failures} | ${pct(r.serverCpuPct)} | ${r.cpuMsPerSubmission?.toFixed(2) ?? ''} | ${pct(r.postgresCpuPct)} | ${pct(r.groupCpuPct)} | ${pct(r.loadGeneratorCpuPct)} | ${pct(r.otherCpuPct)} |`);
  }
  for (const kind of kinds) {
    for (const custody of CUSTODY) {
      const label = BACKEND_LABEL[kind];
      const tx = results.find((r) => r.database === label && r.custody === custody && r.scenario === 'send-transaction-passkey')!;
      const who = results.find((r) => r.database === label && r.custody === custody && r.scenario === 'whoami')!;
      console.log(`${label}, ${custody}: send-transaction-passkey / whoami = ${(tx.reqPerSec / who.reqPerSec).toFixed(3)}; every submission completed ${Math.round(tx.allCompletedAfterMs ?? 0)} ms after the last 201`);
      const covered = results.find((r) => r.database === label && r.custody === custody && r.scenario.endsWith('policies'));
      if (covered && tx.cpuMsPerSubmission && covered.cpuMsPerSubmission) {
        const growth = (covered.cpuMsPerSubmission / tx.cpuMsPerSubmission - 1) * 100;
        console.log(`${label}, ${custody}: API CPU per submission ${tx.cpuMsPerSubmission.toFixed(2)} ms without a policy, ${covered.cpuMsPerSubmission.toFixed(2)} ms with ${TX_POLICIES} (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} %; goal ≤ +10 %)`);
      }
    }
  }
  mkdirSync(`${ROOT}/bench/results`, { recursive: true });
  writeFileSync(`${ROOT}/bench/results/transactions-latest.json`, `${JSON.stringify({ at: new Date().toISOString(), customers: CUSTOMERS, rounds: ROUNDS, durationSeconds: DURATION_SECONDS, blockTimeSeconds: BLOCK_TIME, custody: CUSTODY, results }, null, 2)}\n`);
  if (!ok) process.exitCode = 1;
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(async () => {
    await stopAllBackends();
    await stopAllChildren();
  });
