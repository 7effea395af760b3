import { sql } from 'drizzle-orm';
import { privateKeyToAccount } from 'viem/accounts';
import { selectRows, type Database } from '../../src/db/database.js';
import type { SecretBox } from '../../src/crypto/secret-box.js';
import { sealContexts } from '../../src/crypto/seal-contexts.js';

/**
 * Every row of every table of the public schema as text, the way a data dump would carry it (row_to_json: text and
 * json as they are, bytea as \x hex): what someone holding a copy of the database alone has.
 */
export async function dumpDatabase(database: Database): Promise<Array<{ table: string; row: string }>> {
  const tables = await selectRows<{ name: string }>(database.db, sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
  const rows: Array<{ table: string; row: string }> = [];
  for (const { name } of tables) {
    for (const { row } of await selectRows<{ row: string }>(database.db, sql`select row_to_json(t)::text as row from ${sql.identifier(name)} t`)) rows.push({ table: name, row });
  }
  return rows;
}

/** Where a known private key (0x + 64 hex) shows in the dump: as hex in either case, or its bytes as base64(url). */
export function findKnownKeys(dump: Array<{ table: string; row: string }>, privateKeys: string[]): string[] {
  const found: string[] = [];
  for (const key of privateKeys) {
    const bytes = Buffer.from(key.slice(2), 'hex');
    const needles = [key.slice(2).toLowerCase(), bytes.toString('base64').replace(/=+$/, ''), bytes.toString('base64url')];
    for (const { table, row } of dump) if (needles.some((needle) => row.toLowerCase().includes(needle.toLowerCase()))) found.push(`${table}: ${key.slice(0, 6)}…`);
  }
  return found;
}

/**
 * Keys of the given wallets hidden anywhere in the dump, known or not: any 64-hex-digit run that is the private key of
 * one of `addresses`, and any string value that opens as a wallet key under the server's sealing key (a sealed copy).
 */
export function findWalletKeys(dump: Array<{ table: string; row: string }>, wallets: Array<{ id: string; address: string }>, secrets: SecretBox): string[] {
  const addresses = new Set(wallets.map((w) => w.address.toLowerCase()));
  const found: string[] = [];
  for (const { table, row } of dump) {
    for (const [hex] of row.matchAll(/[0-9a-fA-F]{64}/g)) {
      try {
        if (addresses.has(privateKeyToAccount(`0x${hex}`).address.toLowerCase())) found.push(`${table}: a wallet's key in clear`);
      } catch {
        // Not a valid secp256k1 scalar: not a key.
      }
    }
    for (const value of stringsOf(JSON.parse(row))) {
      if (value.length < 40) continue;
      for (const wallet of wallets) {
        try {
          secrets.open(value, sealContexts.walletKey(wallet.id)).fill(0);
          found.push(`${table}: wallet ${wallet.id}'s key sealed`);
        } catch {
          // Not sealed for this wallet: as it should be.
        }
      }
    }
  }
  return found;
}

function* stringsOf(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const item of value) yield* stringsOf(item);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) yield* stringsOf(item);
}
