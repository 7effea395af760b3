import closeWithGrace from 'close-with-grace';
import { ChainRegistry } from './chain/chain-client.js';
import { systemClock } from './clock.js';
import { DataDirInUseError } from './db/data-dir-lock.js';
import { buildApp } from './http/app.js';
import { loggerOptions } from './logging.js';
import { policyFromConfig } from './policy.js';
import { loadConfigOrExit, openRuntime } from './runtime.js';
import { startBackgroundWork } from './workers/background.js';
import { Signal } from './workers/signal.js';

async function main(): Promise<void> {
  const config = loadConfigOrExit();

  let runtime;
  try {
    runtime = await openRuntime(config);
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      process.stderr.write(`startup error: ${err.message}\n`);
      process.exit(75); // EX_TEMPFAIL
    }
    process.stderr.write(`startup error: cannot open the database: ${(err as Error).message}\n`);
    process.exit(69); // EX_UNAVAILABLE
  }

  const chains = new ChainRegistry(config.chainRpcUrls);
  const transactionBroadcast = new Signal();
  const app = await buildApp(
    { config, database: runtime.database, clock: systemClock, secrets: runtime.secrets, policy: policyFromConfig(config), chains, transactionBroadcast },
    { logger: loggerOptions(config.logLevel) },
  );
  const stopBackground = await startBackgroundWork({ config, database: runtime.database, clock: systemClock, secrets: runtime.secrets, log: app.log, chains, transactionBroadcast });

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    // After the server stops taking requests; deliveries in flight finish (or are retried by the next worker).
    await stopBackground();
    await runtime.database.close();
  });

  await app.listen({ port: config.port, host: config.host });
  app.log.info({ database: runtime.database.kind, env: config.appEnv }, 'integrator api ready');
}

await main();
