import closeWithGrace from 'close-with-grace';
import { loadConfigOrExit, openSystem, startApiProcess, type System } from './composition-root.js';
import { DataDirInUseError } from './db/data-dir-lock.js';
import { loggerOptions } from './logging.js';

async function main(): Promise<void> {
  const config = loadConfigOrExit();

  let system: System;
  try {
    system = await openSystem(config);
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      process.stderr.write(`startup error: ${err.message}\n`);
      process.exit(75); // EX_TEMPFAIL
    }
    process.stderr.write(`startup error: cannot open the database: ${(err as Error).message}\n`);
    process.exit(69); // EX_UNAVAILABLE
  }

  const api = await startApiProcess(system, { logger: loggerOptions(config.logLevel) });
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) api.app.log.error({ err }, 'shutting down after an error');
    else api.app.log.info({ signal }, 'shutting down');
    await api.stop();
  });

  await api.app.listen({ port: config.port, host: config.host });
  api.app.log.info({ database: system.database.kind, env: config.appEnv }, 'integrator api ready');
}

await main();
