// First: the heap policy applies from the first allocation on (heap-growth.ts).
import './heap-growth.js';
// Then: what it writes is its user's alone (private-umask.ts).
import './private-umask.js';
import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { openSystemOrExit, startWorkerProcess } from './composition-root.js';
import { bindPortOrExit } from './http/bound-port.js';
import { loadConfigOrExit } from './config.js';
import { logDestination } from './log-format.js';
import { loggerOptions } from './logging.js';
import { serveMetrics } from './metrics/metrics-server.js';
import { youngGenerationReport } from './node-flags.js';
import { startupProgress } from './startup-progress.js';

/**
 * `npm run worker`: a webhook delivery worker on its own, for scale. Any number of them may run against one
 * PostgreSQL (claims are exclusive); with the embedded database only one process can open the data directory,
 * so there the server's own worker is the one to use.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const destination = await logDestination(config.logFormat);
  const log = destination ? pino(loggerOptions(config.logLevel) as pino.LoggerOptions, destination) : pino(loggerOptions(config.logLevel) as pino.LoggerOptions);
  // Before the sandbox key or the database is written: a port in use costs one line, nothing else.
  const metricsPort = config.metricsPort === undefined ? undefined : await bindPortOrExit('METRICS_PORT', config.metricsPort, config.host);
  const system = await openSystemOrExit(config, startupProgress(log));
  const worker = await startWorkerProcess(system, log);
  const metrics = metricsPort === undefined ? undefined : serveMetrics(system.metrics, metricsPort, { host: config.host, token: config.metricsToken });
  closeWithGrace({ delay: 20_000 }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'worker shutting down after an error');
    else log.info({ signal }, 'worker shutting down');
    await metrics?.close();
    await worker.stop();
  });
  const { heap, warning } = youngGenerationReport();
  if (warning) log.warn(warning);
  log.info({ database: system.database.kind, heap, ...(metrics ? { metrics: `${metrics.url}/metrics` } : {}) }, 'webhook worker ready');
}

await main();
