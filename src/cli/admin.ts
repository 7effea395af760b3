// `npm run -s admin -- <command>`: runs one operator command (admin-commands.ts), prints its JSON on stdout, and
// exits with a sysexits code naming what went wrong. On the embedded database with the server running (it holds
// DATA_DIR), the command runs inside the server through its admin socket instead (admin-socket.ts): same output.
// First: what it writes (a database it opens itself, its directory) is its user's alone (private-umask.ts).
import '../private-umask.js';
import { runAdminCommand } from './admin-socket.js';

const outcome = await runAdminCommand(process.argv.slice(2), process.env, (line) => process.stderr.write(line));
process.stdout.write(outcome.stdout);
process.stderr.write(outcome.stderr);
// Failures exit at once, as before (a pool or a chain client left open must not keep the process alive).
if (outcome.code !== 0) process.exit(outcome.code);
