// `npm run -s admin -- <command>`: runs one operator command (admin-commands.ts), prints its JSON on stdout, and
// exits with a sysexits code naming what went wrong. On the embedded database with the server running (it holds
// DATA_DIR), the command runs inside the server through its admin socket instead (admin-socket.ts): same output.
import { loadConfig } from '../config.js';
import { forwardToServer } from './admin-socket.js';
import { runToOutcome } from './outcome.js';

const argv = process.argv.slice(2);
let outcome = await runToOutcome(argv, process.env);
if (outcome.dataDirInUse) {
  const forwarded = await forwardToServer(loadConfig(process.env).dataDir, argv, (line) => process.stderr.write(line));
  if (forwarded) outcome = forwarded;
}
process.stdout.write(outcome.stdout);
process.stderr.write(outcome.stderr);
// Failures exit at once, as before (a pool or a chain client left open must not keep the process alive).
if (outcome.code !== 0) process.exit(outcome.code);
