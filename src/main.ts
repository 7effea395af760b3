// First: the heap policy applies from the first allocation on (heap-growth.ts).
import './heap-growth.js';
// Then: what it writes is its user's alone (private-umask.ts).
import './private-umask.js';
import closeWithGrace from 'close-with-grace';
import { listenAdminSocket, type AdminSocket } from './cli/admin-socket.js';
import { bindPortOrExit, loadConfigOrExit, openSystemOrExit, startApiProcess } from './composition-root.js';
import { keyIdOf } from './crypto/secret-box.js';
import { drainOptions } from './http/drain.js';
import { loggerOptions } from './logging.js';
import { youngGenerationReport } from './node-flags.js';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  // Before the sandbox key, the database or its migrations are written: a port in use costs one line, nothing else.
  const port = await bindPortOrExit('PORT', config.port, config.host);
  const system = await openSystemOrExit(config);

  const api = await startApiProcess(system, { logger: loggerOptions(config.logLevel), port });
  let adminSocket: AdminSocket | undefined = undefined;
  // The screening lists' files are looked at again every SCREENING_RELOAD_SECONDS and on SIGHUP, which then reloads
  // them instead of stopping the server (docs/screening.md#reloading).
  const lists = system.policy.screening?.watch(config.screening.reloadMs, api.app.log);
  if (lists) process.on('SIGHUP', () => void lists.now());
  // SIGTERM: no new connections, the requests in progress finish, then the rest stops (docs/deployment.md). The
  // drain takes up to DRAIN_DEADLINE_MS (30 s, the longest a request may last); past 40 s in all the exit is 1.
  closeWithGrace({ delay: 40_000, ...(lists ? { skip: ['SIGHUP' as const] } : {}) }, async ({ signal, err }) => {
    if (err) api.app.log.error({ err }, 'shutting down after an error');
    else api.app.log.info({ signal }, 'shutting down');
    lists?.stop();
    await adminSocket?.close();
    await api.stop(err ? {} : { drain: drainOptions(config) });
  });

  // Fastify takes over the port bound above (http/bound-port.ts): this binds nothing new.
  await api.app.listen({ port: config.port, host: config.host });
  // On the embedded database, `npm run admin` runs its commands in here (cli/admin-socket.ts).
  adminSocket = await listenAdminSocket(system, api.app.log);
  // The keys by the ids the start-up check, sealed values and `keys status` name them (never the keys themselves).
  const keys = system.secrets.keyFingerprints.map(keyIdOf);
  // The heap the process was started with: the young generation's size is a node flag (node-flags.ts).
  const { heap, warning } = youngGenerationReport();
  if (warning) api.app.log.warn(warning);
  api.app.log.info({ node: process.version, database: system.database.kind, env: config.appEnv, sealingKey: keys[0], keyRing: keys, heap }, 'integrator api ready');
}

await main();
