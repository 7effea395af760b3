/**
 * `npm run bench:compression` (docs/benchmarks.md#compression): what response compression costs the API in CPU per
 * request, and what it saves in bytes, on the answers it touches. Per database (BENCH_BACKENDS, as `npm run bench`):
 * the built server with an integrator whose 30 customers (made through the API: a user and an account each) leave well
 * over 50 events; then, alternating in BENCH_ROUNDS rounds of BENCH_ROUND_SECONDS (the order reversed every round), 20
 * connections each:
 *
 * - `list-events` (GET /v1/events?limit=50, a full page) with no Accept-Encoding, with `gzip` and with `br`;
 * - `whoami` (1.9 kB) with none and with `br` (the smallest answer above the 1,400-byte threshold);
 * - the front page (GET /, HTML) with none and with `br`.
 *
 * The API's CPU per answered request (user + system from /proc over each round, the median of the rounds) and the
 * bytes of one answer each way. Prints a table; exits 1 when an answer was not 2xx or not encoded as asked.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { californian, signedAt } from '../test/harness/fixtures.js';
import { BACKEND_LABEL, requiredBackends, startBackend, stopAllBackends, type Backend, type BackendKind } from './lib/backend.js';
import { buildServer, stopAllChildren } from './lib/children.js';
import { waitForQuiet, watchCpu } from './lib/cpu.js';
import { runBench } from './lib/entry.js';
import { measureRound, ROUND_SECONDS, ROUNDS, warmUp, type LoadSpec } from './lib/load.js';
import { postJson, signedGetHeaders } from './lib/signing.js';

const CONNECTIONS = 20;
const CUSTOMERS = 30;

interface Case {
  name: string;
  path: string;
  signed: boolean;
  encoding: 'identity' | 'gzip' | 'br';
}

const CASES: Case[] = [
  ...(['identity', 'gzip', 'br'] as const).map((encoding) => ({ name: 'list-events', path: '/v1/events?limit=50', signed: true, encoding })),
  ...(['identity', 'br'] as const).map((encoding) => ({ name: 'whoami', path: '/v1/integrator/whoami', signed: true, encoding })),
  ...(['identity', 'br'] as const).map((encoding) => ({ name: 'front page', path: '/', signed: false, encoding })),
];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function headersOf(backend: Backend, c: Case): Record<string, string> {
  return { ...(c.signed ? signedGetHeaders(backend.key, c.path) : {}), ...(c.encoding === 'identity' ? {} : { 'accept-encoding': c.encoding }) };
}

/** One answer of the case through node:http (fetch would negotiate and inflate itself): its encoding and size on the wire. */
function wireSize(backend: Backend, c: Case): Promise<{ encoding: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(`${backend.baseUrl}${c.path}`, { headers: headersOf(backend, c) }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ encoding: String(res.headers['content-encoding'] ?? 'identity'), bytes }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function seed(backend: Backend): Promise<void> {
  for (let i = 0; i < CUSTOMERS; i++) {
    await postJson(backend.baseUrl, backend.key, '/v1/submit/create-individual-account', {
      userInfo: californian({ email: `bench.compression.${i}.${randomUUID()}@example.com` }),
      serviceTermsSignedAt: signedAt(),
    });
  }
}

interface Row {
  database: string;
  case: Case;
  encodingSent: string;
  bytes: number;
  reqPerSec: number;
  cpuMsPerRequest: number;
}

async function runBackend(kind: BackendKind, postgresUrl: string | undefined): Promise<{ rows: Row[]; ok: boolean }> {
  const backend = await startBackend(kind, postgresUrl, { APP_ENV: 'sandbox' });
  let ok = true;
  try {
    await seed(backend);
    const specs = CASES.map((c): LoadSpec => ({
      label: `${c.name} (${c.encoding})`,
      connections: CONNECTIONS,
      options: () => ({ url: `${backend.baseUrl}${c.path}`, headers: headersOf(backend, c) }),
      sample: async () => JSON.stringify(await wireSize(backend, c)),
    }));
    for (const spec of specs) ok = (await warmUp(spec)) && ok;
    const perRound = CASES.map(() => ({ cpu: [] as number[], rps: [] as number[] }));
    const own = { serverPid: backend.api.proc.pid!, pids: [], ...(backend.databaseName ? { database: backend.databaseName } : {}) };
    for (let round = 0; round < ROUNDS; round++) {
      await waitForQuiet(own, 10);
      const order = CASES.map((_, i) => i);
      if (round % 2) order.reverse();
      for (const i of order) {
        const { result, ok: roundOk } = await measureRound(specs[i]!, ROUND_SECONDS, () => watchCpu(own));
        ok = roundOk && ok;
        if (result.cpuMsPerRequest !== undefined) perRound[i]!.cpu.push(result.cpuMsPerRequest);
        perRound[i]!.rps.push(result.reqPerSec);
      }
    }
    const rows: Row[] = [];
    for (const [i, c] of CASES.entries()) {
      const wire = await wireSize(backend, c);
      if (wire.encoding !== c.encoding) {
        console.error(`FAIL ${c.name}: asked for ${c.encoding}, answered ${wire.encoding}`);
        ok = false;
      }
      rows.push({ database: BACKEND_LABEL[kind], case: c, encodingSent: wire.encoding, bytes: wire.bytes, reqPerSec: median(perRound[i]!.rps), cpuMsPerRequest: median(perRound[i]!.cpu) });
    }
    return { rows, ok };
  } finally {
    await backend.stop();
  }
}

async function main(): Promise<number> {
  const { kinds, postgresUrl } = await requiredBackends();
  await buildServer();
  const rows: Row[] = [];
  let ok = true;
  for (const kind of kinds) {
    const run = await runBackend(kind, kind === 'postgres' ? postgresUrl : undefined);
    rows.push(...run.rows);
    ok &&= run.ok;
  }
  console.log(`\nresponse compression: ${ROUNDS} rounds of ${ROUND_SECONDS} s per case, ${CONNECTIONS} connections (medians of the rounds)\n`);
  console.log('| Database | Answer | Encoding | Bytes | req/s | API CPU ms per request | over identity |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const identity = rows.find((o) => o.database === r.database && o.case.name === r.case.name && o.case.encoding === 'identity')!;
    const over = r === identity ? '' : `+${((r.cpuMsPerRequest - identity.cpuMsPerRequest) * 1000).toFixed(0)} µs (${((r.cpuMsPerRequest / identity.cpuMsPerRequest - 1) * 100).toFixed(1)} %)`;
    console.log(`| ${r.database} | ${r.case.name} | ${r.encodingSent} | ${r.bytes.toLocaleString('en-US')} | ${Math.round(r.reqPerSec).toLocaleString('en-US')} | ${r.cpuMsPerRequest.toFixed(3)} | ${over} |`);
  }
  return ok ? 0 : 1;
}

await runBench('bench:compression', main, async () => {
  await stopAllBackends();
  await stopAllChildren();
});
