import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import type { System } from '../composition-root.js';
import { loadConfig } from '../config.js';
import type { Log } from '../log.js';
import { runToOutcome, type Outcome } from './outcome.js';

/**
 * The admin CLI beside a running server on the embedded database (docs/deployment.md#admin-commands-beside-a-running-server).
 * PGlite is one process's: while the server holds DATA_DIR, `npm run admin` cannot open it, so the server listens on
 * a Unix socket under DATA_DIR and runs the command itself, with its own configuration and database, answering
 * what the CLI would have printed. No network port: the socket sits in a directory only its owner may enter
 * (0700), the socket itself 0600, so whoever may run a command already has the data directory.
 *
 * Protocol, one JSON object per line: the CLI sends `{"argv": [...]}`; the server answers `{"stderr": "..."}` for each
 * progress line as it comes, then `{"outcome": {code, stdout, stderr}}` and closes.
 */
export const adminSocketPath = (dataDir: string): string => join(dataDir, 'run', 'admin.sock');

/** Longest request line: an admin command's arguments are a few hundred bytes. */
const MAX_REQUEST_BYTES = 64 * 1024;
/** Unix socket paths are limited to 108 bytes on Linux (104 on macOS), the terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = 103;

export interface AdminSocket {
  close(): Promise<void>;
}

/** Listens when the server runs on the embedded database; undefined on PostgreSQL (the CLI opens it itself). */
export async function listenAdminSocket(system: System, log: Log): Promise<AdminSocket | undefined> {
  if (system.database.kind !== 'pglite') return undefined;
  const path = adminSocketPath(system.config.dataDir);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    log.warn?.({ path }, 'DATA_DIR is too long a path for the admin socket: admin commands need the server stopped');
    return undefined;
  }
  const dir = join(system.config.dataDir, 'run');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  // A socket left by a server that was killed: this process holds the data directory's lock, so it is no one's.
  rmSync(path, { force: true });
  const server = createServer((socket) => void serve(socket, system, log));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(path, { force: true });
      }),
  };
}

async function serve(socket: Socket, system: System, log: Log): Promise<void> {
  socket.on('error', () => socket.destroy());
  const send = (message: object) => socket.write(`${JSON.stringify(message)}\n`);
  const argv = await readRequest(socket).catch(() => undefined);
  if (!argv) {
    socket.end(`${JSON.stringify({ outcome: { code: 64, stdout: '', stderr: 'error: the admin socket takes one line {"argv": [strings]}\n' } })}\n`);
    return;
  }
  // The command's name only: its arguments may carry names and keys.
  log.info?.({ command: argv.slice(0, 2).join(' ') }, 'admin command over the admin socket');
  const outcome = await runToOutcome(argv, {}, { system, stderr: (line) => send({ stderr: line }) });
  socket.end(`${JSON.stringify({ outcome })}\n`);
}

function readRequest(socket: Socket): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > MAX_REQUEST_BYTES) return reject(new Error('request too long'));
      const end = text.indexOf('\n');
      if (end < 0) return;
      try {
        const { argv } = JSON.parse(text.slice(0, end)) as { argv?: unknown };
        if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) return reject(new Error('argv must be strings'));
        resolve(argv);
      } catch (err) {
        reject(err as Error);
      }
    });
    socket.on('end', () => reject(new Error('closed before a request')));
  });
}

/**
 * What `npm run admin` does with one command (admin.ts), and the process tests without a process each
 * (test/harness/process.ts adminInProcess): runs it here, or, when a running server holds the embedded database,
 * inside that server through its admin socket. Progress lines go to `stderr` as they come, from either.
 */
export async function runAdminCommand(argv: string[], env: NodeJS.ProcessEnv, stderr: (line: string) => void): Promise<Outcome> {
  const outcome = await runToOutcome(argv, env, { stderr });
  if (!outcome.dataDirInUse) return outcome;
  return (await forwardToServer(loadConfig(env).dataDir, argv, stderr)) ?? outcome;
}

/**
 * Runs the command inside the server holding `dataDir`, relaying its progress lines to `stderr`; undefined when no
 * server listens there (none running, or one started before the socket existed).
 */
export function forwardToServer(dataDir: string, argv: string[], stderr: (line: string) => void): Promise<Outcome | undefined> {
  return new Promise((resolve) => {
    const socket = createConnection(adminSocketPath(dataDir));
    let text = '';
    let answered = false;
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ argv })}\n`));
    socket.on('data', (chunk: string) => {
      text += chunk;
      for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n')) {
        let message: { stderr?: string; outcome?: Outcome };
        try {
          message = JSON.parse(text.slice(0, end)) as typeof message;
        } catch {
          answered = true;
          socket.destroy();
          return resolve({ code: 70, stdout: '', stderr: 'error: the server answered on the admin socket in a form this CLI does not read\n' });
        }
        text = text.slice(end + 1);
        if (message.stderr !== undefined) stderr(message.stderr);
        if (message.outcome) {
          answered = true;
          resolve(message.outcome);
        }
      }
    });
    socket.on('error', () => resolve(undefined));
    socket.on('close', () => {
      if (!answered) resolve({ code: 70, stdout: '', stderr: 'error: the server closed the admin socket before answering\n' });
    });
  });
}
