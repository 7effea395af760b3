import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { SERVICE_NODE_FLAGS } from '../../src/node-flags.js';
import { ROOT_URL as ROOT } from './root.js';

/**
 * How to run one of the service's entry points (`src/main.ts`, `src/worker-main.ts`, `src/cli/admin.ts`): compiled
 * from dist/ when `npm test` has just built it (INTEGRATOR_TEST_DIST, scripts/run-tests.mjs), which starts about a
 * second faster and spends half the CPU; otherwise from source under tsx (a test file run on its own).
 */
export function entryPoint(source: string): string[] {
  const compiled = `dist/${source.replace(/\.ts$/, '.js')}`;
  // The service's node flags, as every start command gives them: without --liftoff-only an embedded database's start
  // takes about 14 s and 800 MB instead of 5 s and 310 MB (src/node-flags.ts), and the process would warn.
  if (process.env.INTEGRATOR_TEST_DIST === '1' && existsSync(new URL(compiled, ROOT))) return [...SERVICE_NODE_FLAGS, '--enable-source-maps', compiled];
  return [...SERVICE_NODE_FLAGS, '--import', 'tsx', source];
}

/**
 * The arguments `npm run <script>` gives node (package.json's `scripts`, each `node <flags> <file>`): to start a
 * process exactly as an operator's `npm start` or `npm run worker` does, with the node flags the service chose
 * (the young generation's size, docs/deployment.md#memory), without npm and its build step in between.
 */
export function npmScriptNodeArgs(script: string): string[] {
  const scripts = (JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const [command, ...args] = (scripts[script] ?? '').trim().split(/\s+/);
  if (command !== 'node' || args.length === 0) throw new Error(`package.json's "${script}" script is not "node <flags> <file>": ${scripts[script]}`);
  return args;
}

/** A port nobody listens on right now. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Runs the admin CLI as an operator would, returning its exit code and output. */
export function runAdmin(args: string[], env: Record<string, string>, node?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return runToExit('src/cli/admin.ts', args, env, node);
}

/**
 * What runAdmin returns, without a process: the CLI's own path (runAdminCommand, which admin.ts runs: the command
 * here, or inside a running server through its admin socket), in this test process, with the same environment
 * (`process.env` and `env`), exit code and output. A process per command cost 2 to 3 s of CPU (Node started, the
 * server imported, PGlite's WebAssembly compiled again); keep runAdmin where the process itself is what is tested.
 * A command that opens the embedded database holds DATA_DIR's lock in this process until it has finished.
 */
export async function adminInProcess(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const { runAdminCommand } = await import('../../src/cli/admin-socket.js');
  let progress = '';
  const outcome = await runAdminCommand(args, { ...process.env, ...env }, (line) => (progress += line));
  return { code: outcome.code, stdout: outcome.stdout, stderr: `${progress}${outcome.stderr}` };
}

/**
 * Runs an entry point (see entryPoint) until it exits, returning its exit code and output; `node` is another Node.js
 * binary to run it with (test/process/node-floor.test.ts).
 */
export async function runToExit(
  source: string,
  args: string[],
  env: Record<string, string>,
  node = process.execPath,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(node, [...entryPoint(source), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  return { code, stdout, stderr };
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  logs: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** What startServerProcess rejects with: the process's exit code and everything it wrote. */
export type ServerExit = Error & { code: number | null; output: string };

/**
 * Starts the server (src/main.ts, see entryPoint) in its own process on a free port and resolves once it logs that it listens,
 * or rejects with its output if it exits first; `node` as for runToExit, `args` node's arguments in place of entryPoint's.
 */
export function startServerProcess(env: Record<string, string>, node = process.execPath, args = entryPoint('src/main.ts')): Promise<ServerProcess> {
  const child = spawn(node, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (c: Buffer) => {
      out += c.toString();
      const match = /"msg":"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/.exec(out);
      if (match) {
        resolve({
          child,
          url: match[1]!,
          logs: () => out,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode !== null) return child.exitCode;
            child.kill(signal);
            const [code] = (await once(child, 'exit')) as [number | null];
            return code;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(Object.assign(new Error(`server exited with ${code}: ${out}`), { code, output: out }) satisfies ServerExit));
  });
}
