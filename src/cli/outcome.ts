import { ConfigError } from '../config.js';
import { TokenConfigError } from '../crypto/pkcs11/errors.js';
import { DataDirInUseError } from '../db/data-dir-lock.js';
import { ApiError } from '../domain/errors.js';
import { EncryptionKeyMismatchError } from '../domain/keys/key-check.js';
import { safeErrorMessage } from '../logging.js';
import { run, UsageError, type RunOptions } from './admin-commands.js';

/** What an admin command printed and its exit code, whether it ran in the CLI's process or inside the server. */
export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  /** The embedded database is held by another process (a running server may take the command: admin-socket.ts). */
  dataDirInUse?: boolean;
}

/**
 * Runs one admin command to its outcome: its JSON on stdout and 0, or one line naming what went wrong and a sysexits
 * code. Progress lines (a re-seal's batches) go to `options.stderr` as they come (the process's stderr by default).
 */
export async function runToOutcome(argv: string[], env: NodeJS.ProcessEnv, options: RunOptions = {}): Promise<Outcome> {
  try {
    const result = await run(argv, env, options);
    return { code: 0, stdout: `${JSON.stringify(result, null, 2)}\n`, stderr: '' };
  } catch (err) {
    const { code, message } = failure(err);
    return { code, stdout: '', stderr: message, ...(err instanceof DataDirInUseError ? { dataDirInUse: true } : {}) };
  }
}

function failure(err: unknown): { code: number; message: string } {
  if (err instanceof UsageError) return { code: 64, message: `${err.message}\n` }; // EX_USAGE
  // The same code as the server's: another process holds the embedded database (docs/decisions.md).
  if (err instanceof DataDirInUseError) return { code: 75, message: `error: ${err.message}\n` }; // EX_TEMPFAIL
  if (err instanceof EncryptionKeyMismatchError || err instanceof TokenConfigError) return { code: 78, message: `configuration error: ${err.message}\n` }; // EX_CONFIG
  if (err instanceof ConfigError) return { code: 78, message: err.problems.map((problem) => `configuration error: ${problem}\n`).join('') };
  if (err instanceof ApiError) {
    const detail = `error: ${err.code}: ${err.detail}${err.options.errors ? ` (${err.options.errors.map((e) => e.detail).join('; ')})` : ''}\n`;
    return { code: err.status === 404 ? 66 : err.status === 409 ? 75 : 65, message: detail }; // EX_NOINPUT, EX_TEMPFAIL, EX_DATAERR
  }
  // Redacted like the logs: a failed query's message carries its parameters (names, emails, SSN digits).
  return { code: 70, message: `error: ${safeErrorMessage(err)}\n` };
}
