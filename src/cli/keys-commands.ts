import type { System } from '../composition-root.js';
import { keyStatus } from '../domain/keys/key-status.js';
import { resealAll } from '../domain/keys/reseal.js';
import { importToTokenCommand } from './custody-key-import.js';

/**
 * `keys status` and `keys reseal` (docs/key-management.md#rotating-the-sealing-key). The re-seal prints one JSON line
 * per batch on stderr, so an operator sees it move; killed, it is run again and carries on where the values stand.
 */
export async function keysCommand(system: System, command: 'status' | 'reseal' | 'import-to-token', stderr: (line: string) => void): Promise<unknown> {
  if (command === 'import-to-token') return importToTokenCommand(system, stderr);
  const db = system.database.db;
  if (command === 'status') return keyStatus(db, system.secrets);
  const started = Date.now();
  const { resealed } = await resealAll(db, system.secrets, {
    now: system.clock,
    onProgress: (p) => stderr(`${JSON.stringify(p)}\n`),
  });
  return { resealed, underKey: system.secrets.sealingKeyId, seconds: Math.round((Date.now() - started) / 100) / 10, ...(await keyStatus(db, system.secrets)) };
}
