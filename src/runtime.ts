import type { Config } from './config.js';
import { loadOrCreateSandboxKey } from './crypto/encryption-key.js';
import { SecretBox } from './crypto/secret-box.js';
import { openDatabase, type Database } from './db/database.js';

/** Opens what both the server and the admin CLI need, from one validated configuration. */
export async function openRuntime(config: Config): Promise<{ database: Database; secrets: SecretBox }> {
  const key = config.encryptionKey ?? loadOrCreateSandboxKey(config.dataDir);
  const database = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir },
  );
  return { database, secrets: new SecretBox(key) };
}
