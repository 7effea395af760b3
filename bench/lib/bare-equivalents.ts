/**
 * Starts the bare equivalents' server (bench/bare-equivalent-server.ts) for one backend, on the API's database with
 * the API's sealing key. PostgreSQL: the same database, through the same pool setup. PGlite: a data directory
 * belongs to one process, so the API is stopped once after the bench's setup, its DATA_DIR copied (the PGlite
 * folder and the sandbox encryption.key), and started again; the bare server opens the copy, which holds the same
 * integrator, credential and person.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKEND_LABEL, type Backend } from './backend.js';
import { freePort, startChild, stopChild, waitForStatus, type Child } from './children.js';
import { signedGetHeaders } from './signing.js';
import { npmScriptNodeArgs } from '../../test/harness/process.js';

export interface BareEquivalent {
  url: string;
  child: Child;
  stop: () => Promise<void>;
}

const WHOAMI_PATH = '/v1/integrator/whoami';

export async function startBareEquivalent(backend: Backend): Promise<BareEquivalent> {
  const env = { ...backend.env };
  let copy: string | undefined;
  if (backend.kind === 'pglite') {
    copy = mkdtempSync(join(tmpdir(), 'api-bench-bare-'));
    await backend.restartOnCopy(copy);
    env.DATA_DIR = copy;
  }
  // The API's own list of the key's capabilities: the equivalent answers whoami with the same body.
  const whoami = await fetch(`${backend.baseUrl}${WHOAMI_PATH}`, { headers: signedGetHeaders(backend.key, WHOAMI_PATH) });
  if (whoami.status !== 200) throw new Error(`the API answered whoami with ${whoami.status}`);
  env.BARE_WHOAMI_CAPABILITIES = JSON.stringify(((await whoami.json()) as { capabilities: string[] }).capabilities);
  const port = await freePort();
  // Through tsx, like the inline bare server: the loader only costs at import time.
  // BENCH_CPU_PROF profiles it too, so that a missed goal's profile can be set beside the API's.
  const profDir = process.env.BENCH_CPU_PROF;
  // A folder of its own (not a file name: its PGlite thread writes a profile too, under the same name otherwise).
  const profile = profDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profDir, `bare-equivalent-${backend.kind}`)}`] : [];
  // With the node flags `npm start` gives the API (its young generation's size, Liftoff only), so that V8's heap
  // settings are not where the two differ; BENCH_API_NODE_FLAGS applies to both, as a trial's flags must.
  const nodeFlags = [...npmScriptNodeArgs('start').slice(0, -1), ...(process.env.BENCH_API_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean)];
  const args = [...nodeFlags, ...profile, '--import', 'tsx', 'bench/bare-equivalent-server.ts'];
  const child = startChild(`bare equivalent (${BACKEND_LABEL[backend.kind]})`, args, { ...env, PORT: String(port) });
  const stop = async () => {
    await stopChild(child);
    if (copy) rmSync(copy, { recursive: true, force: true }); // after the server: PGlite must have closed first
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    // The integrator's key: the bare equivalents look its credential up, as the API does.
    await waitForStatus(child, `${url}${WHOAMI_PATH}`, 200, () => signedGetHeaders(backend.key, WHOAMI_PATH), 60_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, child, stop };
}
