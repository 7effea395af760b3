// `npm run -s admin -- <command>`: runs one operator command (admin-commands.ts), prints its JSON on stdout, and
// exits with a sysexits code naming what went wrong.
import { ConfigError } from '../config.js';
import { EncryptionKeyMismatchError } from '../domain/keys/key-check.js';
import { TokenConfigError } from '../crypto/pkcs11/errors.js';
import { DataDirInUseError } from '../db/data-dir-lock.js';
import { ApiError } from '../domain/errors.js';
import { safeErrorMessage } from '../logging.js';
import { run, UsageError } from './admin-commands.js';

try {
  const result = await run(process.argv.slice(2));
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} catch (err) {
  if (err instanceof UsageError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(64); // EX_USAGE
  }
  if (err instanceof DataDirInUseError) {
    // The same code as the server's: another process holds the embedded database (docs/decisions.md).
    process.stderr.write(`error: ${err.message}\n`);
    process.exit(75); // EX_TEMPFAIL
  }
  if (err instanceof EncryptionKeyMismatchError || err instanceof TokenConfigError) {
    process.stderr.write(`configuration error: ${err.message}\n`);
    process.exit(78); // EX_CONFIG
  }
  if (err instanceof ConfigError) {
    process.stderr.write(err.problems.map((problem) => `configuration error: ${problem}\n`).join(''));
    process.exit(78); // EX_CONFIG
  }
  if (err instanceof ApiError) {
    process.stderr.write(`error: ${err.code}: ${err.detail}${err.options.errors ? ` (${err.options.errors.map((e) => e.detail).join('; ')})` : ''}\n`);
    process.exit(err.status === 404 ? 66 : err.status === 409 ? 75 : 65); // EX_NOINPUT, EX_TEMPFAIL, EX_DATAERR
  }
  // Redacted like the logs: a failed query's message carries its parameters (names, emails, SSN digits).
  process.stderr.write(`error: ${safeErrorMessage(err)}\n`);
  process.exit(70);
}
