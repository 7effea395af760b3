/**
 * `npm run bench`. Per database, against one API process (the built server, dist/src/main.js, a child process on
 * loopback, apart from the load generator):
 *
 * - whoami: signed GET /v1/integrator/whoami, 50 connections;
 * - get-associated-person-details: signed GET of one representative (of an entity with documents), 50 connections;
 * - create-individual-account: signed POST with one 1 MiB document, custodial, every request distinct, 8 connections;
 * - bare: the same GET as whoami on a bare node:http server that only verifies the signature, inline
 *   (bench/bare-verify-server.ts): the whoami / bare req/s goal.
 *
 * Beside each of the first three, its bare equivalent (bench/bare-equivalent-server.ts, one process per database, on
 * the API's database with its sealing key): the same essential work with nothing else, measured in the same
 * alternating rounds, for the API / bare equivalent CPU ms per request goals (bench/lib/cpu-goals.ts).
 *
 * Each is 2 s warm-up, then ROUNDS alternating rounds: of BENCH_ROUND_SECONDS for the GETs, of BENCH_DURATION / ROUNDS
 * for create-individual-account and its equivalent. Prints one table, writes bench/results/latest.json, exits
 * non-zero if any response was not 2xx (goal misses are reported, not fatal).
 *
 * Env:
 * - BENCH_DURATION: seconds create-individual-account is measured, split over the rounds (default 10).
 * - BENCH_ROUNDS, BENCH_ROUND_SECONDS: alternating rounds (default 6) and the GETs' seconds per round (default 2).
 * - BENCH_DATABASE_URL: a PostgreSQL server; the API runs on a fresh database there (dropped at the end).
 * - BENCH_BACKENDS: `pglite`, `postgres` or `both`. Default: `postgres` when BENCH_DATABASE_URL is set, else
 *   `pglite`. `postgres`/`both` without BENCH_DATABASE_URL use postgres://postgres@127.0.0.1:5432/test if a server
 *   accepts a connection there (`both` then falls back to PGlite only, and says so).
 * - BENCH_SCENARIOS: comma-separated subset of whoami, get-associated-person-details, create-individual-account,
 *   bare (default all), e.g. to profile one scenario.
 * - BENCH_QUIET_WAIT: before each scenario, wait up to this many seconds (default 30; 0: never) for processes
 *   outside the bench to use under 10 % of a core. Rows measured while others were busy are flagged anyway.
 * - BENCH_CPU_PROF: a directory: profile each API process with --cpu-prof; a .cpuprofile is written there when it
 *   exits (one per database, covering its setup and all its scenarios; on PGlite the API restarts once after the
 *   setup, so there are two), and each bare equivalent's in the folder bare-equivalent-<database> under it.
 * - BENCH_API_NODE_FLAGS: node flags for the API and the bare equivalents alike (a trial's, e.g. `--trace-gc`).
 * - BENCH_CHILD_LOG_DIR: a directory: every server the bench starts writes its whole output to a file there (with
 *   `--trace-gc` above, each server's collections).
 */
import { BACKEND_LABEL, DEFAULT_POSTGRES_URL, postgresAnswers, startBackend, stopAllBackends, type Backend, type BackendKind } from './lib/backend.js';
import { startBareEquivalent } from './lib/bare-equivalents.js';
import { EQUIVALENT_SCENARIOS, type EquivalentScenario } from './lib/cpu-goals.js';
import { waitForQuiet, watchCpu } from './lib/cpu.js';
import { runBench } from './lib/entry.js';
import { buildServer, freePort, sampleRss, startChild, stopAllChildren, waitForStatus, type Child } from './lib/children.js';
import { DURATION_SECONDS, ROUNDS, ROUND_SECONDS, WARMUP_SECONDS, createRoundSeconds, measureRound, stopCurrentLoad, warmUp, type LoadSpec } from './lib/load.js';
import { SCENARIOS, combineRounds, printTable, writeReport, type BackendRun, type ScenarioName, type ScenarioResult } from './lib/report.js';
import { randomKey, signedGetHeaders } from './lib/signing.js';
import { CREATE_CONNECTIONS, CREATE_INDIVIDUAL, DOCUMENT_BYTES, createIndividualLoad } from './scenarios/create-individual-account.js';
import { PERSON_DETAILS, personDetailsLoad, setUpPersonDetails } from './scenarios/person-details.js';
import { GET_CONNECTIONS, signedGet } from './scenarios/signed-get.js';

const WHOAMI_PATH = '/v1/integrator/whoami';
const QUIET_WAIT_SECONDS = nonNegativeInt('BENCH_QUIET_WAIT', 30);

function nonNegativeInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number of seconds (got "${raw}")`);
  return Number(raw);
}

function selectedScenarios(): Set<ScenarioName> {
  const raw = process.env.BENCH_SCENARIOS;
  if (!raw) return new Set(SCENARIOS);
  const names = raw.split(',').map((s) => s.trim());
  for (const name of names) {
    if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`BENCH_SCENARIOS: unknown scenario "${name}" (known: ${SCENARIOS.join(', ')})`);
  }
  return new Set(names as ScenarioName[]);
}

/** Which databases, and the PostgreSQL server to use; `notes` says what was skipped and why. */
async function selectedBackends(notes: string[]): Promise<{ kinds: BackendKind[]; postgresUrl?: string }> {
  const mode = process.env.BENCH_BACKENDS || (process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite');
  if (!['pglite', 'postgres', 'both'].includes(mode)) throw new Error(`BENCH_BACKENDS must be pglite, postgres or both (got "${mode}")`);
  if (mode === 'pglite') return { kinds: ['pglite'] };
  const url = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
  if (await postgresAnswers(url)) return { kinds: mode === 'both' ? ['pglite', 'postgres'] : ['postgres'], postgresUrl: url };
  const why = `no PostgreSQL server accepts connections at ${url.replace(/\/\/[^@/]*@/, '//…@')}`;
  if (mode === 'postgres' || process.env.BENCH_DATABASE_URL) throw new Error(why);
  notes.push(`\nnote: PostgreSQL skipped: ${why} (set BENCH_DATABASE_URL)`);
  return { kinds: ['pglite'] };
}

let all2xx = true;

interface Bare {
  url: string;
  child: Child;
}

interface Compared {
  name: ScenarioName;
  spec: LoadSpec;
  server: Child;
  /** Set on a bare equivalent: the API scenario whose rows and rounds carry its figures. */
  equivalentOf?: EquivalentScenario;
}

/** The API's peak RSS per interleaved scenario (sampled over all its rounds). */
const rssPeaks = new Map<ScenarioName, number>();

/**
 * Warms each scenario once, then ROUNDS rounds of `seconds` each, the order reversed every other round so that a
 * drift of the machine weighs on every scenario alike. Returns each round's figures; a bare equivalent's are folded
 * into its API scenario's (bareEquivalentCpuMsPerRequest, bareEquivalent).
 */
async function interleave(compared: Compared[], backend: Backend, others: Child[], seconds: number): Promise<Partial<Record<ScenarioName, ScenarioResult>>[]> {
  const pids = [backend.api.proc.pid!, ...others.map((c) => c.proc.pid!)];
  if (QUIET_WAIT_SECONDS > 0) await waitForQuiet({ serverPid: backend.api.proc.pid!, pids, database: backend.databaseName }, QUIET_WAIT_SECONDS);
  for (const c of compared) all2xx &&= await warmUp(c.spec);
  console.error(`${compared.map((c) => c.spec.label).join(', ')}: ${ROUNDS} alternating rounds of ${seconds} s`);
  const peaks = new Map<ScenarioName, number>();
  const rounds: Partial<Record<ScenarioName, ScenarioResult>>[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const measured = new Map<Compared, ScenarioResult>();
    for (const c of i % 2 === 0 ? compared : [...compared].reverse()) {
      const rss = c.server === backend.api ? sampleRss(backend.api.proc.pid!) : undefined;
      const { result, ok } = await measureRound(c.spec, seconds, () => watchCpu({ serverPid: c.server.proc.pid!, pids, database: backend.databaseName }));
      all2xx &&= ok;
      measured.set(c, result);
      const peak = rss?.stop();
      if (peak !== undefined) peaks.set(c.name, Math.max(peaks.get(c.name) ?? 0, peak));
    }
    const round: Partial<Record<ScenarioName, ScenarioResult>> = {};
    for (const [c, result] of measured) if (!c.equivalentOf) round[c.name] = result;
    for (const [c, result] of measured) {
      const of = c.equivalentOf && round[c.equivalentOf];
      if (of) Object.assign(of, { bareEquivalentCpuMsPerRequest: result.cpuMsPerRequest, bareEquivalent: result });
    }
    rounds.push(round);
  }
  for (const [name, mb] of peaks) rssPeaks.set(name, mb);
  return rounds;
}

/** Each API scenario's row from its rounds. */
function combined(rounds: Partial<Record<ScenarioName, ScenarioResult>>[], compared: Compared[], api: Child): Partial<Record<ScenarioName, ScenarioResult>> {
  const rows: Partial<Record<ScenarioName, ScenarioResult>> = {};
  for (const c of compared) if (!c.equivalentOf) rows[c.name] = combineRounds(rounds.map((r) => r[c.name]!), c.server === api ? rssPeaks.get(c.name) : undefined);
  return rows;
}

async function benchBackend(backend: Backend, bare: Bare | undefined, scenarios: Set<ScenarioName>): Promise<BackendRun> {
  const label = (name: string) => `${BACKEND_LABEL[backend.kind]} ${name}`;
  // Set up through the API first: on PGlite the bare equivalents open a copy of the data made after it.
  const personPath = scenarios.has(PERSON_DETAILS) ? await setUpPersonDetails(backend) : undefined;
  const create = scenarios.has(CREATE_INDIVIDUAL) ? await createIndividualLoad(backend) : undefined;
  const withEquivalents = EQUIVALENT_SCENARIOS.some((s) => scenarios.has(s));
  const equivalent = withEquivalents ? await startBareEquivalent(backend) : undefined;
  try {
    // After startBareEquivalent: on PGlite the API was restarted (new process, new port).
    const { api, baseUrl, key } = backend;
    const run: BackendRun = { backend: backend.kind, idleRssMb: backend.idleRssMb, scenarios: {} };
    const others = [...(bare ? [bare.child] : []), ...(equivalent ? [equivalent.child] : [])];
    const versus = (name: EquivalentScenario, spec: (url: string, label: string) => LoadSpec): Compared[] => [
      { name, spec: spec(baseUrl, label(name)), server: api },
      { name, spec: spec(equivalent!.url, label(`${name} (bare equivalent)`)), server: equivalent!.child, equivalentOf: name },
    ];

    // The GETs in alternating rounds (bare, whoami, its equivalent, person details, its equivalent, then reversed, ...).
    const compared: Compared[] = [];
    if (bare) compared.push({ name: 'bare', spec: signedGet(label('bare'), bare.url, WHOAMI_PATH, key), server: bare.child });
    if (scenarios.has('whoami')) compared.push(...versus('whoami', (url, name) => signedGet(name, url, WHOAMI_PATH, key)));
    if (personPath) compared.push(...versus(PERSON_DETAILS, (url, name) => personDetailsLoad(name, url, personPath, key)));
    if (compared.length > 0) {
      run.rounds = await interleave(compared, backend, others, ROUND_SECONDS);
      run.scenarios = combined(run.rounds, compared, api);
    }
    if (create) {
      const pair = versus(CREATE_INDIVIDUAL, create.specAt);
      run.createRounds = await interleave(pair, backend, others, createRoundSeconds());
      const result = create.finish(combined(run.createRounds, pair, api)[CREATE_INDIVIDUAL]!);
      if (result.nonCustodial201 > 0) {
        all2xx = false;
        console.error(`FAIL ${label(CREATE_INDIVIDUAL)}: ${result.nonCustodial201} answers were 201 without a custodial wallet`);
      }
      run.scenarios[CREATE_INDIVIDUAL] = result;
    }
    if (api.tail()) console.error(`\n${api.name} output (tail):\n${api.tail()}`);
    if (equivalent?.child.tail()) console.error(`\n${equivalent.child.name} output (tail):\n${equivalent.child.tail()}`);
    return run;
  } finally {
    await equivalent?.stop();
  }
}

let cleaning: Promise<void> | undefined;
/** Idempotent: stops the load, the API(s) (dropping their databases) and the bare server. */
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    stopCurrentLoad();
    await stopAllBackends();
    await stopAllChildren();
  })();
  return cleaning;
}

async function main(): Promise<number> {
  const notes: string[] = [];
  const scenarios = selectedScenarios();
  const { kinds, postgresUrl } = await selectedBackends(notes);

  // Hard ceiling on the whole run, whatever hangs: setup, plus every load bounded at its duration + 30 s.
  const perScenario = QUIET_WAIT_SECONDS + 1 + 2 * (WARMUP_SECONDS + DURATION_SECONDS + 30);
  const budgetMs = (120 * kinds.length + 60 + kinds.length * scenarios.size * perScenario) * 1000;
  setTimeout(() => {
    console.error(`bench: exceeded ${budgetMs / 1000} s overall; aborting`);
    void cleanup().finally(() => process.exit(1));
  }, budgetMs).unref();

  await buildServer();

  let bare: Bare | undefined;
  if (scenarios.has('bare')) {
    // The bare server runs its TypeScript through tsx: the loader only costs at import time.
    const port = await freePort();
    const child = startChild('bare', ['--import', 'tsx', 'bench/bare-verify-server.ts'], { HOST: '127.0.0.1', PORT: String(port) });
    bare = { url: `http://127.0.0.1:${port}`, child };
    // Any key will do: the bare server checks the signature against the public key the request carries.
    const probe = randomKey();
    await waitForStatus(child, `${bare.url}${WHOAMI_PATH}`, 200, () => signedGetHeaders(probe, WHOAMI_PATH));
  }

  const runs: BackendRun[] = [];
  for (const kind of kinds) {
    const backend = await startBackend(kind, postgresUrl);
    try {
      runs.push(await benchBackend(backend, bare, scenarios));
    } finally {
      await backend.stop();
    }
  }

  notes.push(
    `\nGETs: ${GET_CONNECTIONS} connections. ${CREATE_INDIVIDUAL}: ${CREATE_CONNECTIONS} connections, one ${DOCUMENT_BYTES / 1024 / 1024} MiB PDF per request, custodial, every request a distinct signed body;`,
    `body MB/s = request bodies (10^6 bytes) per second.`,
  );
  if (!all2xx) notes.push('\nFAIL: some responses were not 2xx, or not as expected (see above)');
  printTable(runs, notes);
  writeReport(runs, all2xx, { getConnections: GET_CONNECTIONS, createConnections: CREATE_CONNECTIONS, documentBytes: DOCUMENT_BYTES });
  return all2xx ? 0 : 1;
}

await runBench('bench', main, cleanup);
