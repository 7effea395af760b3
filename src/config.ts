import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEncryptionKey } from './crypto/encryption-key.js';
import { DEFAULT_HIGH_RISK_COUNTRIES, parseHighRiskCountries } from './domain/onboarding/reference/high-risk-countries.js';

const SAMPLE_WATCHLIST = fileURLToPath(new URL('../config/watchlist.sample.csv', import.meta.url.includes('/dist/') ? new URL('../', import.meta.url) : import.meta.url));

export type AppEnv = 'sandbox' | 'production';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  appEnv: AppEnv;
  /** 32 bytes, or undefined in sandbox (then generated into dataDir). */
  encryptionKey: Buffer | undefined;
  logLevel: LogLevel;
  bodyLimitBytes: number;
  rateLimitMax: number;
  rateLimitWindowSeconds: number;
  /** Alpha-3 codes whose nationals or residents need additionalUserInfo. */
  highRiskCountries: string[];
  /** CSV of names to screen (docs/verification.md); undefined: none. */
  watchListFile: string | undefined;
}

/** A configuration mistake; main prints its message as the one line before exiting. */
export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!allowed.includes(raw as T)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
  return raw as T;
}

/** Reads and validates the environment once; throws ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const appEnv = oneOf(env, 'APP_ENV', ['sandbox', 'production'] as const, 'sandbox');

  const host = env.HOST || '127.0.0.1';
  if (!/^[A-Za-z0-9.:_-]+$/.test(host)) throw new ConfigError(`HOST must be a host name or IP address (got "${host}")`);

  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(databaseUrl);
    } catch {
      throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
    }
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
      throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
    }
  }

  let encryptionKey: Buffer | undefined;
  if (env.ENCRYPTION_KEY) {
    const parsed = parseEncryptionKey(env.ENCRYPTION_KEY);
    if (!parsed) throw new ConfigError('ENCRYPTION_KEY must be 32 bytes as 64 hex digits or base64');
    encryptionKey = parsed;
  } else if (appEnv === 'production') {
    throw new ConfigError('ENCRYPTION_KEY is required when APP_ENV=production');
  }

  let highRiskCountries: string[] = [...DEFAULT_HIGH_RISK_COUNTRIES];
  if (env.HIGH_RISK_COUNTRIES !== undefined) {
    try {
      highRiskCountries = parseHighRiskCountries(env.HIGH_RISK_COUNTRIES);
    } catch (err) {
      throw new ConfigError(`HIGH_RISK_COUNTRIES: ${(err as Error).message}`);
    }
  }

  // Sandbox screens against the shipped sample list so every branch can be tried; production only with a file.
  const watchListFile = env.WATCHLIST_FILE ? resolve(env.WATCHLIST_FILE) : appEnv === 'sandbox' ? SAMPLE_WATCHLIST : undefined;
  if (watchListFile && !existsSync(watchListFile)) throw new ConfigError(`WATCHLIST_FILE ${watchListFile} does not exist`);

  return {
    highRiskCountries,
    watchListFile,
    port: integer(env, 'PORT', 8080, 0, 65535),
    host,
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl,
    appEnv,
    encryptionKey,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    // Three 10 MiB documents as base64 (4/3 larger) plus the rest of the JSON.
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 48 * 1024 * 1024, 1024, 256 * 1024 * 1024),
    rateLimitMax: integer(env, 'RATE_LIMIT_MAX', 6000, 1, 1_000_000),
    rateLimitWindowSeconds: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400),
  };
}
