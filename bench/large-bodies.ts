/**
 * `npm run bench:bodies`. Does a flood of large uploads move a signed request's latency or the server's memory?
 * Against one API process (the built server, a child process on loopback), signed whoami at 10 connections is
 * measured three times:
 *
 * - alone;
 * - beside 4 loops of unsigned 47 MiB POSTs to create-user (a documents route): each is refused from its headers
 *   before the body is read, and the connection closed;
 * - beside 4 loops of signed 47 MiB POSTs by a valid credential: these are read (one at a time per
 *   LARGE_BODY_CONCURRENCY, here 1, so the bound shows), verified, parsed and refused by validation.
 *
 * Prints whoami req/s, p50 and p99, the API's peak RSS, and how many uploads were answered. Exits non-zero if a
 * whoami was not 2xx. Env: BENCH_DURATION (seconds per run, default 10), BENCH_DATABASE_URL (run on PostgreSQL).
 */
import { request as httpRequest } from 'node:http';
import { BACKEND_LABEL, startBackend, stopAllBackends, type Backend } from './lib/backend.js';
import { buildServer, sampleRss, stopAllChildren } from './lib/children.js';
import { DURATION_SECONDS, WARMUP_SECONDS, stopCurrentLoad, warmAndMeasure, type Measured } from './lib/load.js';
import { signedPostHeaders, type Key } from './lib/signing.js';
import { signedGet } from './scenarios/signed-get.js';

const UPLOAD_BYTES = 47 * 1024 * 1024;
const UPLOADERS = 4;
const WHOAMI_CONNECTIONS = 10;
const PATH = '/v1/submit/create-user';

/** Valid JSON of UPLOAD_BYTES: a create-user body with an unknown padding field (refused by validation). */
function uploadBody(): Buffer {
  const head = '{"userInfo":{"firstName":"A","lastName":"B","email":"a@example.com"},"partnerSignedAgreementId":"x","serviceTermsSignedAt":"2026-01-01T00:00:00Z","padding":"';
  const body = Buffer.alloc(UPLOAD_BYTES, 'x'.charCodeAt(0));
  body.write(head, 0);
  body.write('"}', UPLOAD_BYTES - 2);
  return body;
}

/** One upload; resolves with the status, or 0 when the server closed the connection before answering. */
function uploadOnce(baseUrl: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    let status = 0;
    const req = httpRequest(`${baseUrl}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers } });
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.resume();
      res.on('end', () => resolve(status));
    });
    // The server closes a refused upload's connection while we still write: expected, the answer came first.
    req.on('error', () => resolve(status));
    req.setTimeout(60_000, () => req.destroy());
    req.end(body);
  });
}

/** UPLOADERS loops of uploads until stopped; counts answers by status. */
function uploadLoops(baseUrl: string, body: Buffer, headers: () => Record<string, string>) {
  let running = true;
  const statuses: Record<string, number> = {};
  const loops = Array.from({ length: UPLOADERS }, async () => {
    while (running) {
      const status = await uploadOnce(baseUrl, body, headers());
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return statuses;
    },
  };
}

interface Row {
  phase: string;
  whoami: Measured;
  maxRssMb: number | undefined;
  uploads: Record<string, number>;
}

async function phase(backend: Backend, label: string, uploads?: () => ReturnType<typeof uploadLoops>): Promise<{ row: Row; ok: boolean }> {
  const spec = { ...signedGet(`${BACKEND_LABEL[backend.kind]} whoami ${label}`, backend.baseUrl, '/v1/integrator/whoami', backend.key), connections: WHOAMI_CONNECTIONS };
  const rss = sampleRss(backend.api.proc.pid!);
  const loops = uploads?.();
  const { result, ok } = await warmAndMeasure(spec);
  const statuses = (await loops?.stop()) ?? {};
  return { row: { phase: label, whoami: result, maxRssMb: rss.stop(), uploads: statuses }, ok };
}

async function main(): Promise<number> {
  await buildServer();
  const kind = process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite';
  const backend = await startBackend(kind, process.env.BENCH_DATABASE_URL, { LARGE_BODY_CONCURRENCY: '1' });
  const body = uploadBody();
  const key: Key = backend.key;
  const rows: Row[] = [];
  let ok = true;
  try {
    for (const [label, uploads] of [
      ['alone', undefined],
      ['+ 4 unsigned 47 MiB uploads', () => uploadLoops(backend.baseUrl, body, () => ({}))],
      ['+ 4 signed 47 MiB uploads', () => uploadLoops(backend.baseUrl, body, () => signedPostHeaders(key, PATH, body))],
    ] as const) {
      const measured = await phase(backend, label, uploads);
      rows.push(measured.row);
      ok &&= measured.ok;
    }
  } finally {
    await backend.stop();
  }

  console.log(`\n${BACKEND_LABEL[kind]}: signed whoami (${WHOAMI_CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${DURATION_SECONDS} s) beside ${UPLOADERS} upload loops, LARGE_BODY_CONCURRENCY=1`);
  console.log('| phase | whoami req/s | p50 ms | p99 ms | API peak RSS MB | uploads answered (status: count) |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    const uploads = Object.entries(r.uploads).map(([s, n]) => `${s === '0' ? 'closed' : s}: ${n}`).join(', ') || 'none';
    console.log(`| ${r.phase} | ${Math.round(r.whoami.reqPerSec)} | ${r.whoami.latencyP50Ms} | ${r.whoami.latencyP99Ms} | ${r.maxRssMb?.toFixed(0) ?? '?'} | ${uploads} |`);
  }
  return ok ? 0 : 1;
}

let code = 1;
const guard = setTimeout(() => {
  console.error('bench: overran; aborting');
  stopCurrentLoad();
  void Promise.all([stopAllBackends(), stopAllChildren()]).finally(() => process.exit(1));
}, (180 + 3 * (WARMUP_SECONDS + DURATION_SECONDS + 60)) * 1000);
guard.unref();
try {
  code = await main();
} catch (err) {
  console.error(`bench failed: ${(err as Error).message}`);
} finally {
  stopCurrentLoad();
  await stopAllBackends();
  await stopAllChildren();
}
process.exit(code);
