import type { Address } from 'viem';
import { loadConfig } from '../config.js';
import { loadOrCreateSandboxKey } from '../crypto/encryption-key.js';
import { fingerprintKeyOf, SecretBox } from '../crypto/secret-box.js';
import { treasuryFor } from './treasury.js';

/**
 * The treasury address a sandbox server started with this environment pays deposits from (TREASURY_PRIVATE_KEY, or
 * the key derived from ENCRYPTION_KEY or the data directory's sandbox key, as the server derives it). Undefined in
 * production without a treasury key. Reads the configuration only: it runs beside a server holding the database.
 */
export function treasuryAddressFor(env: NodeJS.ProcessEnv): Address | undefined {
  const config = loadConfig(env);
  const keys = config.encryptionKeys ?? [loadOrCreateSandboxKey(config.dataDir)];
  // Keyed hashes come from the database's first key (key-check.ts): in a ring, the oldest listed is taken for it.
  const secrets = new SecretBox(keys).withFingerprintKey(fingerprintKeyOf(keys.at(-1)!));
  return treasuryFor({ key: config.deposits.treasuryKey, sandbox: config.appEnv === 'sandbox', secrets })?.address;
}

/** Gives an address `wei` on a local development node (anvil_setBalance: anvil and hardhat only). */
export async function fundOnDevNode(rpcUrl: string, address: Address, wei: bigint): Promise<void> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: [address, `0x${wei.toString(16)}`] }),
  });
  const body = (await res.json()) as { error?: { message: string } };
  if (body.error) throw new Error(`anvil_setBalance: ${body.error.message} (is ${rpcUrl} a local anvil node?)`);
}
