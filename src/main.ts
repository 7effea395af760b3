import closeWithGrace from 'close-with-grace';
import { loadConfigOrExit, openSystemOrExit, startApiProcess } from './composition-root.js';
import { loggerOptions } from './logging.js';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const system = await openSystemOrExit(config);

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
