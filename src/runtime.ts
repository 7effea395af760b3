import { ConfigError, loadConfig, type Config } from './config.js';
import { loadOrCreateSandboxKey } from './crypto/encryption-key.js';
import { SecretBox } from './crypto/secret-box.js';
import { openDatabase, type Database } from './db/database.js';

/** Opens what both the server and the admin CLI need, from one validated configuration. */
export async function openRuntime(config: Config): Promise<{ database: Database; secrets: SecretBox }> {
  const key = config.encryptionKey ?? loadOrCreateSandboxKey(config.dataDir);
  const database = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl, poolMax: config.databasePoolMax } : { kind: 'pglite', dataDir: config.dataDir },
  );
  return { database, secrets: new SecretBox(key) };
}

/** For process entry points: the validated configuration, or one line naming the bad variable and exit 78. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}
