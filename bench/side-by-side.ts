/**
 * Builds of the API side by side: `npm run bench:side-by-side -- <build> [<build> ...]`, each `<build>` a checkout
 * with its dist/ built (a worktree: `git worktree add /tmp/before <commit> && cp -al node_modules /tmp/before/ &&
 * (cd /tmp/before && npm run build)`), optionally `<build>@NAME=value,NAME=value` for its environment (a trial's switch).
 *
 * A whole `npm run bench` measures one build; two builds measured minutes apart differ by the machine's drift, which
 * here reaches 30 µs a request, more than most changes worth trying. So every build runs at once, as its own API
 * process on one PostgreSQL database with one integrator, beside the bare equivalent (bench/bare-equivalent-server.ts),
 * and they are loaded in turn: BENCH_SIDE_ROUNDS rounds (8) of BENCH_SIDE_SECONDS (4) each, the order reversed every
 * other round. Each server's CPU is read from /proc by thread (bench/lib/cpu.ts); a build's ratio is taken against the
 * equivalent's figure of the same round. BENCH_SIDE_SCENARIO: whoami (default) or get-associated-person-details.
 * Prints one table (bench/lib/side-by-side.ts); PostgreSQL as BENCH_DATABASE_URL or the default server.
 */
import { join } from 'node:path';
import { DEFAULT_POSTGRES_URL, startBackend, stopAllBackends } from './lib/backend.js';
import { startBareEquivalent } from './lib/bare-equivalents.js';
import { freePort, startChild, stopAllChildren, waitForStatus } from './lib/children.js';
import { watchCpu } from './lib/cpu.js';
import { runBench } from './lib/entry.js';
import { positiveInt } from './lib/env.js';
import { measureRound, warmUp, type LoadSpec } from './lib/load.js';
import { parseBuild, summarize, table, type RoundFigures } from './lib/side-by-side.js';
import { signedGetHeaders } from './lib/signing.js';
import { setUpPersonDetails } from './scenarios/person-details.js';
import { signedGet } from './scenarios/signed-get.js';
import { npmScriptNodeArgs } from '../test/harness/process.js';

const ROUNDS = positiveInt('BENCH_SIDE_ROUNDS', 8);
const SECONDS = positiveInt('BENCH_SIDE_SECONDS', 4);
const SCENARIO = process.env.BENCH_SIDE_SCENARIO || 'whoami';
const EQUIVALENT = 'bare equivalent';
const WHOAMI = '/v1/integrator/whoami';

async function main(): Promise<number> {
  const builds = process.argv.slice(2).map(parseBuild);
  if (builds.length === 0) throw new Error('name at least one build: npm run bench:side-by-side -- <dir>[@NAME=value,...] ...');
  if (!['whoami', 'get-associated-person-details'].includes(SCENARIO)) throw new Error(`BENCH_SIDE_SCENARIO must be whoami or get-associated-person-details (got "${SCENARIO}")`);
  // This checkout's own API makes the database and the integrator; the builds and the equivalent then share them.
  const backend = await startBackend('postgres', process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL);
  const servers: { name: string; baseUrl: string; pid: number }[] = [];
  // As `npm start` runs it: package.json's node flags, the build's own dist/src/main.js.
  const flags = npmScriptNodeArgs('start').slice(0, -1);
  for (const [i, build] of builds.entries()) {
    const name = `${i + 1}: ${build.dir}${Object.keys(build.env).length > 0 ? ` ${JSON.stringify(build.env)}` : ''}`;
    const port = await freePort();
    // RATE_LIMIT_* as the whole bench sets them: the limiter does its work, and never refuses.
    const env = { ...backend.env, ...build.env, PORT: String(port), RATE_LIMIT_MAX: '1000000', RATE_LIMIT_WINDOW_SECONDS: '1' };
    const child = startChild(name, [...flags, join(build.dir, 'dist/src/main.js')], env);
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForStatus(child, `${baseUrl}${WHOAMI}`, 200, () => signedGetHeaders(backend.key, WHOAMI), 60_000);
    servers.push({ name, baseUrl, pid: child.proc.pid! });
  }
  const equivalent = await startBareEquivalent(backend);
  servers.push({ name: EQUIVALENT, baseUrl: equivalent.url, pid: equivalent.child.proc.pid! });
  const path = SCENARIO === 'whoami' ? WHOAMI : await setUpPersonDetails(backend);
  const loads = new Map<string, LoadSpec>(servers.map((s) => [s.name, signedGet(s.name, s.baseUrl, path, backend.key)]));
  const pids = [backend.api.proc.pid!, ...servers.map((s) => s.pid)];

  for (const server of servers) if (!(await warmUp(loads.get(server.name)!))) throw new Error(`${server.name}: not every answer was 2xx`);
  const rounds: Record<string, RoundFigures[]> = Object.fromEntries(servers.map((s) => [s.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
      const { result, ok } = await measureRound(loads.get(server.name)!, SECONDS, () => watchCpu({ serverPid: server.pid, pids, database: backend.databaseName }));
      if (!ok || !result.cpuMsPerRequestByThread || result.cpuMsPerRequest === undefined) throw new Error(`${server.name}: round ${round + 1} has no figures`);
      rounds[server.name]!.push({ eventLoopUs: result.cpuMsPerRequestByThread.eventLoop * 1000, totalUs: result.cpuMsPerRequest * 1000 });
    }
  }
  console.log(`\n${SCENARIO} on PostgreSQL, ${ROUNDS} alternating rounds of ${SECONDS} s, 50 connections\n`);
  console.log(table(summarize(rounds, EQUIVALENT)));
  return 0;
}

await runBench('bench:side-by-side', main, async () => {
  await stopAllBackends();
  await stopAllChildren();
});
