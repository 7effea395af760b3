// First: the heap policy applies from the first allocation on (heap-growth.ts).
import './heap-growth.js';
// Then: what it writes is its user's alone (private-umask.ts).
import './private-umask.js';
// Then only what the first log line needs: the rest loads after it (below), so a start says what it does from its
// first second (on a busy machine the server's modules took 30 s to load, in silence).
import pino from 'pino';
import type { AdminSocket } from './cli/admin-socket.js';
import { loadConfigOrExit } from './config.js';
import { bindPortOrExit } from './http/bound-port.js';
import { listeningUrl, logDestination, prettyLogs } from './log-format.js';
import { loggerOptions } from './logging.js';
import { startupProgress } from './startup-progress.js';

/** The server's modules, loaded once the start can say so. */
const loadServer = () =>
  Promise.all([import('close-with-grace'), import('./cli/admin-socket.js'), import('./composition-root.js'), import('./crypto/secret-box.js'), import('./http/drain.js'), import('./node-flags.js')]);

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  // Before anything is said or written (the sandbox key, the database, its migrations): a port in use costs one line.
  const port = await bindPortOrExit('PORT', config.port, config.host);
  const logger = loggerOptions(config.logLevel, await logDestination(config.logFormat));
  // The start's own lines (what it is doing, before the HTTP layer and its logger exist): same options, same stream.
  const progress = startupProgress(logger.stream ? pino(logger as pino.LoggerOptions, logger.stream) : pino(logger as pino.LoggerOptions));
  const [{ default: closeWithGrace }, { listenAdminSocket }, { openSystemOrExit, startApiProcess }, { keyIdOf }, { drainOptions }, { youngGenerationReport }] =
    await progress.step(`starting the server (${config.appEnv}): loading its modules`, loadServer);
  const system = await openSystemOrExit(config, progress);

  const api = await progress.step('loading the HTTP API and the background work', () => startApiProcess(system, { logger, port }));
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
  const url = listeningUrl(api.app.server.address());
  api.app.log.info({ url, node: process.version, database: system.database.kind, env: config.appEnv, sealingKey: keys[0], keyRing: keys, heap }, 'integrator api ready');
  // The last line on a terminal, one a terminal makes a link (JSON logs keep every line JSON: the entry above has it).
  if (prettyLogs(config.logFormat) && url) process.stdout.write(`Ready: ${url}\n`);
}

await main();
