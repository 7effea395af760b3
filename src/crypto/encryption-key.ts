import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config/env.js';

/** Parses 32 bytes given as 64 hex digits (optionally 0x) or as base64 / base64url. Returns null otherwise. */
export function parseEncryptionKey(text: string): Buffer | null {
  const trimmed = text.trim();
  const hex = trimmed.startsWith('0x') ? trimmed.slice(2) : trimmed;
  if (/^[0-9a-fA-F]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const buf = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (buf.length === 32) return buf;
  }
  return null;
}

/**
 * ENCRYPTION_KEYS: the key ring, newest first, comma-separated (the newest seals, any opens); ENCRYPTION_KEY: a ring of
 * one, as before rings. Undefined when neither is set. Throws ConfigError naming the variable and the entry.
 */
export function parseEncryptionKeys(env: NodeJS.ProcessEnv): Buffer[] | undefined {
  if (env.ENCRYPTION_KEYS && env.ENCRYPTION_KEY) throw new ConfigError('set ENCRYPTION_KEYS or ENCRYPTION_KEY, not both (ENCRYPTION_KEY is a ring of one)');
  const name = env.ENCRYPTION_KEYS ? 'ENCRYPTION_KEYS' : 'ENCRYPTION_KEY';
  const text = env.ENCRYPTION_KEYS || env.ENCRYPTION_KEY;
  if (!text) return undefined;
  const entries = name === 'ENCRYPTION_KEYS' ? text.split(',') : [text];
  const keys = entries.map((entry, i) => {
    const key = parseEncryptionKey(entry);
    if (!key) throw new ConfigError(`${name} must be 32 bytes as 64 hex digits or base64${entries.length > 1 ? ` (entry ${i + 1} is not)` : ''}`);
    return key;
  });
  if (new Set(keys.map((k) => k.toString('hex'))).size !== keys.length) throw new ConfigError('ENCRYPTION_KEYS lists the same key twice');
  return keys;
}

export const ENCRYPTION_KEY_FILE = 'encryption.key';

/**
 * Sandbox convenience: without ENCRYPTION_KEY a key is generated once into the data directory (mode 0600)
 * and reused, so secrets sealed by one run open in the next.
 */
export function loadOrCreateSandboxKey(dataDir: string): Buffer {
  const path = join(dataDir, ENCRYPTION_KEY_FILE);
  try {
    const key = parseEncryptionKey(readFileSync(path, 'utf8'));
    if (!key) throw new Error(`${path} does not hold a 32-byte key`);
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  // 'wx' fails if another process created it meanwhile; then read theirs.
  try {
    writeFileSync(path, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return loadOrCreateSandboxKey(dataDir);
  }
}
