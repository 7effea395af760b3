/**
 * `npx tsx bench/ledger-cost.ts` (docs/benchmarks.md#ledger): a withdrawal's CPU per request through a real server,
 * the figure the ledger's cost on withdrawals is judged by (before and after it: the same file runs on both trees;
 * nothing here imports the ledger).
 *
 * Per database (BENCH_BACKENDS=pglite|postgres|both, as `npm run bench`): anvil on chain 8453 sealing a block every
 * second, the built server in sandbox (its own treasury, ACH payouts) pointing at it, LEDGER_COST_CUSTOMERS (8)
 * verified custodial customers with a software passkey, a funded wallet and a verified USD bank account. Then:
 *
 * - LEDGER_COST_ROUNDS (3) rounds of BENCH_DURATION s (10): every customer in a loop, create-withdrawal (201) then its
 *   approval, send-transaction-passkey with the issued transaction (201: signed, recorded, broadcast). The watcher
 *   meanwhile takes each receipt (funds_in_transfer). CPU per withdrawal is the API's (and PostgreSQL's) CPU over the
 *   round divided by the withdrawals approved in it: two requests each, plus the watcher's share.
 * - Once every withdrawal is in funds_in_transfer (not measured), the settle phase: simulate-withdrawal `completed`
 *   for each, 8 at a time: the payout's fiat side, CPU per settle.
 *
 * Prints one table and writes bench/results/ledger-cost-latest.json; exits 1 if any answer was not the expected one.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { startAnvil, type Anvil } from '../test/harness/anvil.js';
import { SoftwareAuthenticator } from '../test/harness/authenticator.js';
import { californian, personDocs, signedAt } from '../test/harness/fixtures.js';
import { BACKEND_LABEL, requiredBackends, startBackend, stopAllBackends, type Backend, type BackendKind } from './lib/backend.js';
import { buildServer, ROOT, stopAllChildren } from './lib/children.js';
import { watchCpu, type CpuFigures } from './lib/cpu.js';
import { runBench } from './lib/entry.js';
import { positiveInt } from './lib/env.js';
import { DURATION_SECONDS } from './lib/load.js';
import { median } from './lib/report.js';
import { postJson, signedGetHeaders, signedPostHeaders } from './lib/signing.js';

const CUSTOMERS = positiveInt('LEDGER_COST_CUSTOMERS', 8);
const ROUNDS = positiveInt('LEDGER_COST_ROUNDS', 3);
const CHAIN = 8453;
const APPROVE = `/v1/submit/send-transaction-passkey?chain_id=${CHAIN}`;

interface Payer {
  accountId: string;
  organizationId: string;
  walletAddress: string;
  bankAccountId: string;
  passkey: SoftwareAuthenticator;
  /** Approved withdrawals, in nonce order. */
  approved: string[];
  /** Withdrawals asked for: each one's amount differs (the same body signed twice in a second is a replay). */
  asked: number;
}

interface Round extends CpuFigures {
  withdrawals: number;
  failures: number;
  seconds: number;
  perSecond: number;
  createP50Ms: number;
  createP99Ms: number;
  approveP50Ms: number;
  approveP99Ms: number;
  apiCpuMsPerWithdrawal?: number;
  postgresCpuMsPerWithdrawal?: number;
}

interface Result {
  database: string;
  rounds: Round[];
  /** The rounds' medians. */
  apiCpuMsPerWithdrawal: number;
  postgresCpuMsPerWithdrawal: number | undefined;
  settle: CpuFigures & { settled: number; failures: number; seconds: number; apiCpuMsPerSettle?: number; postgresCpuMsPerSettle?: number };
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);
const perEach = (pct: number | undefined, seconds: number, n: number) => (pct === undefined || n === 0 ? undefined : Math.round(((pct / 100) * seconds * 1_000_000) / n) / 1000);

async function payers(backend: Backend, anvil: Anvil): Promise<Payer[]> {
  const made: Payer[] = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const passkey = new SoftwareAuthenticator();
    const created = await postJson<{ accountId: string; organizationId: string; walletAddress: string }>(backend.baseUrl, backend.key, '/v1/submit/create-individual-account', {
      userInfo: californian({ email: `bench.withdrawal.${i}.${randomUUID()}@example.com` }),
      serviceTermsSignedAt: signedAt(),
      verificationDocuments: personDocs(),
      authenticators: [passkey.authenticator()],
    });
    await postJson(backend.baseUrl, backend.key, '/v1/sandbox/simulate-verification', { accountId: created.accountId, outcome: 'approve' }, 200);
    await anvil.setBalance(created.walletAddress, 10n ** 21n);
    const bank = await postJson<{ bankAccountId: string; status: string }>(backend.baseUrl, backend.key, '/v1/submit/create-bank-account', {
      accountId: created.accountId,
      currency: 'USD',
      accountHolderName: 'Maria Garcia',
      us: { accountNumber: '000123456789', routingNumber: '021000021', accountType: 'checking' },
    });
    if (bank.status !== 'verified') throw new Error(`bank account ${bank.bankAccountId} is ${bank.status}, not verified`);
    made.push({ accountId: created.accountId, organizationId: created.organizationId, walletAddress: created.walletAddress, bankAccountId: bank.bankAccountId, passkey, approved: [], asked: 0 });
  }
  return made;
}

/** A signed POST through undici; the status and the parsed body. */
async function post(backend: Backend, agent: Agent, path: string, payload: unknown): Promise<{ status: number; body: Record<string, unknown> & { transactionId?: string; unsignedTransaction?: string; status?: string } }> {
  const body = JSON.stringify(payload);
  const res = await request(`${backend.baseUrl}${path}`, { method: 'POST', headers: signedPostHeaders(backend.key, path, body), body, dispatcher: agent });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

/** Every payer creates and approves withdrawals back to back for `seconds`. */
async function withdrawLoop(backend: Backend, list: Payer[], seconds: number) {
  const create: number[] = [];
  const approve: number[] = [];
  let failures = 0;
  const fail = (what: string, answer: unknown) => {
    if (failures++ === 0) console.error(`FAIL ${what}: ${JSON.stringify(answer).slice(0, 500)}`);
  };
  const agent = new Agent({ connections: list.length });
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    list.map(async (payer) => {
      while (performance.now() < deadline) {
        const amount = ((1000 + payer.asked++) / 100).toFixed(2);
        let t0 = performance.now();
        const quote = await post(backend, agent, '/v1/submit/create-withdrawal', { accountId: payer.accountId, bankAccountId: payer.bankAccountId, chainId: CHAIN, amount, currency: 'USD' });
        if (quote.status !== 201) {
          fail('create-withdrawal', quote);
          continue;
        }
        create.push(performance.now() - t0);
        const signedBody = {
          type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
          timestampMs: String(Date.now()),
          organizationId: payer.organizationId,
          parameters: { signWith: payer.walletAddress, unsignedTransaction: quote.body.unsignedTransaction, type: 'TRANSACTION_TYPE_ETHEREUM' },
        };
        t0 = performance.now();
        const approved = await post(backend, agent, APPROVE, { transactionId: quote.body.transactionId, signedBody, webAuthnStamp: payer.passkey.stamp(JSON.stringify(signedBody)) });
        if (approved.status !== 201) {
          fail('send-transaction-passkey (withdrawal)', approved);
          continue;
        }
        approve.push(performance.now() - t0);
        payer.approved.push(quote.body.transactionId!);
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  await agent.close();
  return { create: create.sort((a, b) => a - b), approve: approve.sort((a, b) => a - b), failures, elapsedMs };
}

/** Waits until every payer's last withdrawal has its crypto in (funds_in_transfer): the ones before it are mined too. */
async function allInTransfer(backend: Backend, list: Payer[]): Promise<void> {
  const started = performance.now();
  for (const payer of list) {
    const last = payer.approved.at(-1);
    if (!last) continue;
    const path = `/v1/query/get-transaction?transactionId=${last}`;
    for (;;) {
      const res = await fetch(`${backend.baseUrl}${path}`, { headers: signedGetHeaders(backend.key, path) });
      const view = (await res.json()) as { status?: string };
      if (view.status === 'funds_in_transfer') break;
      if (view.status !== 'processing') throw new Error(`withdrawal ${last} is ${view.status}`);
      if (performance.now() - started > 120_000) throw new Error('the watcher did not take the withdrawals in within 120 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function runBackend(kind: BackendKind, postgresUrl: string | undefined): Promise<{ result: Result; ok: boolean }> {
  const anvil = await startAnvil(CHAIN, { blockTimeSeconds: 1 });
  const backend = await startBackend(kind, postgresUrl, { CHAIN_RPC_URLS: `${CHAIN}=${anvil.url}`, APP_ENV: 'sandbox' });
  try {
    const list = await payers(backend, anvil);
    const own = () => ({ serverPid: backend.api.proc.pid!, pids: [], group: [anvil.pid], ...(backend.databaseName ? { database: backend.databaseName } : {}) });
    console.error(`withdrawals: warm-up 2 s, then ${ROUNDS} rounds of ${DURATION_SECONDS} s, ${list.length} customers`);
    const warm = await withdrawLoop(backend, list, 2);
    let failures = warm.failures;
    const rounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const cpu = watchCpu(own());
      const run = await withdrawLoop(backend, list, DURATION_SECONDS);
      const figures = cpu.stop();
      const seconds = run.elapsedMs / 1000;
      const n = run.approve.length;
      failures += run.failures;
      rounds.push({
        ...figures,
        withdrawals: n,
        failures: run.failures,
        seconds,
        perSecond: n / seconds,
        createP50Ms: percentile(run.create, 50),
        createP99Ms: percentile(run.create, 99),
        approveP50Ms: percentile(run.approve, 50),
        approveP99Ms: percentile(run.approve, 99),
        apiCpuMsPerWithdrawal: perEach(figures.serverCpuPct, seconds, n),
        postgresCpuMsPerWithdrawal: perEach(figures.postgresCpuPct, seconds, n),
      });
      console.error(`  round ${i + 1}: ${n} withdrawals, ${(n / seconds).toFixed(1)}/s, API ${rounds.at(-1)!.apiCpuMsPerWithdrawal} ms CPU each`);
    }
    await allInTransfer(backend, list);
    // The fiat side: every payout settled, 8 at a time.
    const queue = list.flatMap((p) => p.approved);
    let settled = 0;
    let settleFailures = 0;
    const agent = new Agent({ connections: 8 });
    const cpu = watchCpu(own());
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          const res = await post(backend, agent, '/v1/sandbox/simulate-withdrawal', { transactionId: id, outcome: 'completed' });
          if (res.status === 200 && res.body.status === 'completed') settled++;
          else if (settleFailures++ === 0) console.error(`FAIL simulate-withdrawal: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const figures = cpu.stop();
    await agent.close();
    const defined = (xs: (number | undefined)[]) => xs.filter((x): x is number => x !== undefined);
    const pgValues = defined(rounds.map((r) => r.postgresCpuMsPerWithdrawal));
    const result: Result = {
      database: BACKEND_LABEL[kind],
      rounds,
      apiCpuMsPerWithdrawal: median(defined(rounds.map((r) => r.apiCpuMsPerWithdrawal))),
      postgresCpuMsPerWithdrawal: pgValues.length > 0 ? median(pgValues) : undefined,
      settle: { ...figures, settled, failures: settleFailures, seconds, apiCpuMsPerSettle: perEach(figures.serverCpuPct, seconds, settled), postgresCpuMsPerSettle: perEach(figures.postgresCpuPct, seconds, settled) },
    };
    return { result, ok: failures === 0 && settleFailures === 0 };
  } finally {
    await backend.stop();
    await anvil.stop();
  }
}

async function main(): Promise<number> {
  const { kinds, postgresUrl } = await requiredBackends();
  await buildServer();
  const results: Result[] = [];
  let ok = true;
  for (const kind of kinds) {
    const run = await runBackend(kind, kind === 'postgres' ? postgresUrl : undefined);
    results.push(run.result);
    ok &&= run.ok;
  }
  const pct = (v: number | undefined) => (v === undefined ? '' : `${Math.round(v)} %`);
  console.log(`\nwithdrawals (create-withdrawal + its passkey approval) on anvil (chain ${CHAIN}, 1 s blocks), ${CUSTOMERS} customers, ${ROUNDS} rounds of ${DURATION_SECONDS} s; then every payout settled\n`);
  console.log('| Database | round | withdrawals/s | create p50 / p99 ms | approve p50 / p99 ms | API CPU ms / withdrawal | PostgreSQL CPU ms / withdrawal | API CPU | anvil CPU | others CPU | machine CPU |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    r.rounds.forEach((x, i) =>
      console.log(
        `| ${r.database} | ${i + 1} | ${x.perSecond.toFixed(1)} | ${x.createP50Ms.toFixed(1)} / ${x.createP99Ms.toFixed(1)} | ${x.approveP50Ms.toFixed(1)} / ${x.approveP99Ms.toFixed(1)} | ${x.apiCpuMsPerWithdrawal ?? ''} | ${x.postgresCpuMsPerWithdrawal ?? ''} | ${pct(x.serverCpuPct)} | ${pct(x.groupCpuPct)} | ${pct(x.otherCpuPct)} | ${pct(x.machineCpuPct)} |`,
      ),
    );
    const s = r.settle;
    console.log(`${r.database}: API CPU ${r.apiCpuMsPerWithdrawal} ms and PostgreSQL ${r.postgresCpuMsPerWithdrawal ?? 'n/a'} ms per withdrawal (median round); settle: ${s.settled} in ${s.seconds.toFixed(1)} s, API ${s.apiCpuMsPerSettle} ms and PostgreSQL ${s.postgresCpuMsPerSettle ?? 'n/a'} ms CPU each (others ${pct(s.otherCpuPct)})`);
  }
  mkdirSync(`${ROOT}/bench/results`, { recursive: true });
  writeFileSync(`${ROOT}/bench/results/ledger-cost-latest.json`, `${JSON.stringify({ at: new Date().toISOString(), customers: CUSTOMERS, rounds: ROUNDS, durationSeconds: DURATION_SECONDS, results }, null, 2)}\n`);
  return ok ? 0 : 1;
}

await runBench('bench:ledger-cost', main, async () => {
  await stopAllBackends();
  await stopAllChildren();
});
