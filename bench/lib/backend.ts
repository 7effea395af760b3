/**
 * One API process on one database: a fresh PGlite data dir, or a fresh database on a PostgreSQL server (made with
 * the test harness's provisionDatabase, dropped by stop()), an integrator created with the admin CLI, and the
 * built server (dist/src/main.js) started and answering a signed request.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { provisionDatabase } from '../../test/harness/backends.js';
import { npmScriptNodeArgs } from '../../test/harness/process.js';
import { ROOT, freePort, rssMb, run, startChild, stopChild, waitForStatus, type Child } from './children.js';
import { importPrivateKey, signedGetHeaders, type Key } from './signing.js';

export type BackendKind = 'pglite' | 'postgres';
export const BACKEND_LABEL: Record<BackendKind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

/** Used by BENCH_BACKENDS=both when BENCH_DATABASE_URL is not set, if a server answers there. */
export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

export interface Backend {
  kind: BackendKind;
  api: Child;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  key: Key;
  idleRssMb: number | undefined;
  /** The PostgreSQL database made for this run (its backends' CPU is counted). */
  databaseName?: string;
  /** The API's DATA_DIR (its PGlite folder, and its sandbox sealing key when ENCRYPTION_KEY is not set). */
  dataDir: string;
  /** The API's environment, without PORT: what a bare equivalent needs to open the same database with the same key. */
  env: Record<string, string>;
  /**
   * Stops the API, copies its DATA_DIR to `copy` (a PGlite folder belongs to one process: a bare equivalent opens
   * the copy), and starts the API again on the original; `api` is then the new process.
   */
  restartOnCopy: (copy: string) => Promise<void>;
  stop: () => Promise<void>;
}

const running = new Set<Backend>();

/**
 * The databases a bench runs on: BENCH_BACKENDS (pglite, postgres or both; by default postgres when BENCH_DATABASE_URL
 * is set, else pglite), and the PostgreSQL server's URL. Throws when PostgreSQL is asked for and does not answer.
 */
export async function requiredBackends(): Promise<{ kinds: BackendKind[]; postgresUrl: string }> {
  const mode = process.env.BENCH_BACKENDS || (process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite');
  if (!['pglite', 'postgres', 'both'].includes(mode)) throw new Error(`BENCH_BACKENDS must be pglite, postgres or both (got "${mode}")`);
  const postgresUrl = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
  const kinds: BackendKind[] = mode === 'pglite' ? ['pglite'] : mode === 'postgres' ? ['postgres'] : ['pglite', 'postgres'];
  if (kinds.includes('postgres') && !(await postgresAnswers(postgresUrl))) throw new Error(`no PostgreSQL server accepts connections at ${postgresUrl}`);
  return { kinds, postgresUrl };
}

/** True when a PostgreSQL server accepts a connection at `url` within 2 s. */
export async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function startBackend(kind: BackendKind, postgresAdminUrl?: string, extraEnv: Record<string, string> = {}): Promise<Backend> {
  const dataDir = mkdtempSync(join(tmpdir(), 'api-bench-'));
  let dropDatabase = async () => {};
  let databaseName: string | undefined;
  let api: Child | undefined;
  const stop = async () => {
    if (api) await stopChild(api);
    rmSync(dataDir, { recursive: true, force: true }); // after the API: PGlite must have closed first
    await dropDatabase().catch((err: Error) => console.error(`could not drop the bench database: ${err.message}`));
  };
  try {
    const env: Record<string, string> = { DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...extraEnv };
    if (kind === 'postgres') {
      if (!postgresAdminUrl) throw new Error('postgres backend without a server URL');
      const provisioned = await provisionDatabase('postgres', postgresAdminUrl);
      dropDatabase = provisioned.drop;
      if (provisioned.target.kind === 'postgres') {
        env.DATABASE_URL = provisioned.target.url;
        databaseName = new URL(provisioned.target.url).pathname.slice(1);
      }
    }
    console.error(`\n== database: ${BACKEND_LABEL[kind]} ==`);
    const created = await run(process.execPath, ['dist/src/cli/admin.js', 'integrators', 'create', '--name', 'bench'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      timeout: 60_000,
    });
    const { privateKey } = JSON.parse(created.stdout) as { privateKey?: string };
    if (!privateKey) throw new Error(`admin CLI printed no privateKey:\n${created.stdout}`);
    const key = importPrivateKey(privateKey);

    const launch = async () => {
      const port = await freePort();
      const profDir = process.env.BENCH_CPU_PROF;
      // As `npm start` runs it (its node flags: docs/deployment.md#memory); BENCH_API_NODE_FLAGS adds flags after
      // them (e.g. `--max-semi-space-size=8`: node takes the last of a flag given twice).
      const flags = [...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), ...(process.env.BENCH_API_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean)];
      const start = npmScriptNodeArgs('start');
      api = startChild(
        `api (${BACKEND_LABEL[kind]})`,
        [...start.slice(0, -1), ...flags, ...start.slice(-1)],
        // RATE_LIMIT_MAX is capped at 1,000,000 by config; a 1 s window makes that unreachable, while the
        // limiter still does its per-request work.
        { ...env, PORT: String(port), RATE_LIMIT_MAX: '1000000', RATE_LIMIT_WINDOW_SECONDS: '1' },
      );
      const baseUrl = `http://127.0.0.1:${port}`;
      await waitForStatus(api, `${baseUrl}/livez`, 200);
      // A signed request must already succeed, or the load runs would only measure 401s.
      await waitForStatus(api, `${baseUrl}/v1/integrator/whoami`, 200, () => signedGetHeaders(key, '/v1/integrator/whoami'), 5000);
      return { api, baseUrl };
    };
    const started = await launch();
    const backend: Backend = {
      kind,
      ...started,
      key,
      idleRssMb: rssMb(started.api.proc.pid!),
      databaseName,
      dataDir,
      env,
      restartOnCopy: async (copy) => {
        if (api) await stopChild(api);
        cpSync(dataDir, copy, { recursive: true });
        Object.assign(backend, await launch());
        backend.idleRssMb = rssMb(backend.api.proc.pid!);
      },
      stop: async () => {
        running.delete(backend);
        await stop();
      },
    };
    running.add(backend);
    return backend;
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Every backend still running (cleanup on a signal or the overall timeout). */
export async function stopAllBackends(): Promise<void> {
  await Promise.all([...running].map((b) => b.stop()));
}
