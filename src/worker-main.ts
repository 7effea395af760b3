import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { systemClock } from './clock.js';
import { loggerOptions } from './logging.js';
import { loadConfigOrExit, openRuntime } from './runtime.js';
import { startWebhookWorker } from './workers/webhook-worker.js';

/**
 * `npm run worker`: a webhook delivery worker on its own, for scale. Any number of them may run against one
 * PostgreSQL (claims are exclusive); with the embedded database only one process can open the data directory,
 * so there the server's own worker is the one to use.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = pino(loggerOptions(config.logLevel) as pino.LoggerOptions);
  const runtime = await openRuntime(config);
  const worker = await startWebhookWorker({ database: runtime.database, secrets: runtime.secrets, clock: systemClock, config: config.webhooks, log });
  closeWithGrace({ delay: 20_000 }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'worker shutting down after an error');
    else log.info({ signal }, 'worker shutting down');
    await worker.stop();
    await runtime.database.close();
  });
  log.info({ database: runtime.database.kind }, 'webhook worker ready');
}

await main();
