import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseChainRpcUrls } from './chain/rpc-urls.js';
import { parseEncryptionKey } from './crypto/encryption-key.js';
import { DEPOSIT_CURRENCIES, parseBankDetails, parseRates, parseTreasuryKey, SANDBOX_BANKS, type DepositConfig } from './domain/deposits/deposit-config.js';
import { originPatternProblem, rpIdProblem, type RelyingPartyPolicy } from './crypto/webauthn/relying-party.js';
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
  /** DATABASE_POOL_MAX: PostgreSQL connections per process (default 20). */
  databasePoolMax: number;
  appEnv: AppEnv;
  /** 32 bytes, or undefined in sandbox (then generated into dataDir). */
  encryptionKey: Buffer | undefined;
  logLevel: LogLevel;
  /** BODY_LIMIT_BYTES: largest body of an operation that carries no documents (default 1 MiB). */
  bodyLimitBytes: number;
  /** DOCUMENT_BODY_LIMIT_BYTES: largest body of an operation that carries documents (default 48 MiB). */
  documentBodyLimitBytes: number;
  /** LARGE_BODY_CONCURRENCY: bodies above BODY_LIMIT_BYTES read at once per process; others wait their turn. */
  largeBodyConcurrency: number;
  /** AUTH_FAILURE_LIMIT: failed authentications per source address per minute before answering 429. */
  authFailureLimit: number;
  rateLimitMax: number;
  rateLimitWindowSeconds: number;
  /** Alpha-3 codes whose nationals or residents need additionalUserInfo. */
  highRiskCountries: string[];
  /** CSV of names to screen (docs/verification.md); undefined: none. */
  watchListFile: string | undefined;
  webhooks: WebhookConfig;
  /** Relying-party ids and origins passkeys may be registered and used from (docs/passkeys.md). */
  webauthn: RelyingPartyPolicy;
  /** Events (and their delivery history) are kept this many days, at least 30. */
  eventRetentionDays: number;
  /** CHAIN_RPC_URLS: the JSON-RPC endpoint of each chain transactions may use (empty: none). */
  chainRpcUrls: Map<number, string>;
  /** One-time codes by email (docs/otp.md). */
  otp: OtpConfig;
  /** Fiat deposits: bank details per currency, payout rates, the treasury key (docs/deposits.md). */
  deposits: DepositConfig;
}

export interface OtpConfig {
  /** SMTP_URL (smtp:// or smtps://, nodemailer's form); undefined: sandbox writes to its outbox, production cannot send. */
  smtpUrl: string | undefined;
  /** SMTP_FROM: the sender address of the codes. */
  from: string;
  /** OTP_RESEND_SECONDS: a new code for the same user only after this long (default 30 s). */
  resendIntervalMs: number;
  /** OTP_MAX_PER_HOUR: codes sent to one user in any hour (default 10). */
  maxPerHour: number;
}

export interface WebhookConfig {
  /** Delays before the 2nd, 3rd… attempt, in milliseconds; after the last one a delivery has failed. */
  retryScheduleMs: number[];
  /** Sandbox only: http URLs and private/loopback addresses are allowed (local receivers). */
  allowPrivate: boolean;
  /** Whether this server process also runs the delivery worker (`npm run worker` runs it alone). */
  runWorker: boolean;
  timeoutMs: number;
  /** A subscription whose deliveries have failed without a success for this long is disabled. */
  disableAfterMs: number;
  /** Deliveries in flight at once per worker process. */
  concurrency: number;
  /** How long a claim holds before another worker may take the delivery over (WEBHOOK_LEASE_SECONDS; default timeoutMs + 30 s). */
  leaseMs: number;
}

/** Standard Webhooks' schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400];

function retrySchedule(env: NodeJS.ProcessEnv): number[] {
  const raw = env.WEBHOOK_RETRY_SCHEDULE;
  if (raw === undefined || raw === '') return DEFAULT_RETRY_SCHEDULE_SECONDS.map((s) => s * 1000);
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length > 20 || parts.some((p) => !/^\d+(\.\d{1,3})?$/.test(p) || Number(p) > 7 * 86_400)) {
    throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE must be up to 20 comma-separated delays in seconds (0 to 604800, up to 3 decimals) (got "${raw}")`);
  }
  return parts.map((p) => Math.round(Number(p) * 1000));
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'on', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'off', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be 1 or 0 (got "${raw}")`);
}

/** Sandbox: passkeys made on a local web app, on any port (browsers refuse IP addresses as rp ids, so no 127.0.0.1). */
export const SANDBOX_WEBAUTHN: RelyingPartyPolicy = { rpIds: ['localhost'], origins: ['http://localhost:*', 'https://localhost:*'] };

function commaList(raw: string): string[] {
  return raw.split(',').map((part) => part.trim()).filter((part) => part !== '');
}

/** WEBAUTHN_RP_IDS and WEBAUTHN_ORIGINS: required in production, the localhost defaults in sandbox. */
function webauthn(env: NodeJS.ProcessEnv, appEnv: AppEnv): RelyingPartyPolicy {
  const read = (name: 'WEBAUTHN_RP_IDS' | 'WEBAUTHN_ORIGINS', check: (entry: string) => string | null, fallback: readonly string[]): string[] => {
    const entries = commaList(env[name] ?? '');
    if (entries.length === 0) {
      if (appEnv === 'production') throw new ConfigError(`${name} is required when APP_ENV=production`);
      return [...fallback];
    }
    for (const entry of entries) {
      const problem = check(entry);
      if (problem) throw new ConfigError(`${name}: "${entry}" ${problem}`);
    }
    return [...new Set(entries)];
  };
  return {
    rpIds: read('WEBAUTHN_RP_IDS', rpIdProblem, SANDBOX_WEBAUTHN.rpIds),
    origins: read('WEBAUTHN_ORIGINS', (entry) => originPatternProblem(entry, appEnv === 'production'), SANDBOX_WEBAUTHN.origins),
  };
}

/** DEPOSIT_BANK_USD, DEPOSIT_BANK_EUR, DEPOSIT_RATES, TREASURY_PRIVATE_KEY: sandbox has fictitious defaults, production none. */
function depositConfig(env: NodeJS.ProcessEnv, appEnv: AppEnv): DepositConfig {
  const banks: DepositConfig['banks'] = {};
  for (const currency of DEPOSIT_CURRENCIES) {
    const name = `DEPOSIT_BANK_${currency}`;
    const raw = env[name];
    if (raw) {
      try {
        banks[currency] = parseBankDetails(raw, currency);
      } catch (err) {
        throw new ConfigError(`${name}: ${(err as Error).message}`);
      }
    } else if (appEnv === 'sandbox') {
      banks[currency] = SANDBOX_BANKS[currency];
    }
  }
  let weiPerUnit: DepositConfig['weiPerUnit'];
  let treasuryKey: DepositConfig['treasuryKey'];
  try {
    weiPerUnit = parseRates(env.DEPOSIT_RATES ?? '');
  } catch (err) {
    throw new ConfigError(`DEPOSIT_RATES: ${(err as Error).message}`);
  }
  try {
    treasuryKey = env.TREASURY_PRIVATE_KEY ? parseTreasuryKey(env.TREASURY_PRIVATE_KEY) : undefined;
  } catch (err) {
    throw new ConfigError(`TREASURY_PRIVATE_KEY: ${(err as Error).message}`);
  }
  return { banks, weiPerUnit, treasuryKey };
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

/** Small bodies everywhere; documents routes alone may take large ones, and only a few of those at once. */
function bodyLimits(env: NodeJS.ProcessEnv): Pick<Config, 'bodyLimitBytes' | 'documentBodyLimitBytes' | 'largeBodyConcurrency'> {
  const bodyLimitBytes = integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 256 * 1024 * 1024);
  // Three 10 MiB documents as base64 (4/3 larger) plus the rest of the JSON.
  const documentBodyLimitBytes = integer(env, 'DOCUMENT_BODY_LIMIT_BYTES', Math.max(48 * 1024 * 1024, bodyLimitBytes), 1024, 256 * 1024 * 1024);
  if (documentBodyLimitBytes < bodyLimitBytes) {
    throw new ConfigError(`DOCUMENT_BODY_LIMIT_BYTES must be at least BODY_LIMIT_BYTES (${bodyLimitBytes})`);
  }
  return { bodyLimitBytes, documentBodyLimitBytes, largeBodyConcurrency: integer(env, 'LARGE_BODY_CONCURRENCY', 4, 1, 1000) };
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

  const allowPrivate = flag(env, 'WEBHOOK_ALLOW_PRIVATE', false);
  if (allowPrivate && appEnv === 'production') throw new ConfigError('WEBHOOK_ALLOW_PRIVATE is for sandbox only');
  const webhookTimeoutMs = integer(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 100, 60_000);
  // A lease must outlive the slowest attempt, or a second worker would send a delivery that is still in flight.
  const leaseMs = integer(env, 'WEBHOOK_LEASE_SECONDS', 0, 1, 86_400) * 1000 || webhookTimeoutMs + 30_000;
  if (leaseMs <= webhookTimeoutMs) throw new ConfigError(`WEBHOOK_LEASE_SECONDS must be longer than WEBHOOK_TIMEOUT_MS (${webhookTimeoutMs} ms)`);

  const relyingParty = webauthn(env, appEnv);

  let chainRpcUrls: Map<number, string>;
  try {
    chainRpcUrls = parseChainRpcUrls(env.CHAIN_RPC_URLS ?? '');
  } catch (err) {
    throw new ConfigError(`CHAIN_RPC_URLS: ${(err as Error).message}`);
  }

  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(smtpUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL');
  }
  const from = env.SMTP_FROM || 'Integrator API <no-reply@localhost>';
  if (from.length > 320 || !/@/.test(from) || /[\r\n]/.test(from)) throw new ConfigError(`SMTP_FROM must be an email address on one line (got ${JSON.stringify(from)})`);

  const deposits = depositConfig(env, appEnv);

  return {
    webauthn: relyingParty,
    deposits,
    otp: {
      smtpUrl,
      from,
      resendIntervalMs: integer(env, 'OTP_RESEND_SECONDS', 30, 0, 3600) * 1000,
      maxPerHour: integer(env, 'OTP_MAX_PER_HOUR', 10, 1, 1000),
    },
    chainRpcUrls,
    webhooks: {
      retryScheduleMs: retrySchedule(env),
      allowPrivate,
      runWorker: flag(env, 'WEBHOOK_WORKER', true),
      timeoutMs: webhookTimeoutMs,
      disableAfterMs: integer(env, 'WEBHOOK_DISABLE_AFTER_SECONDS', 5 * 86_400, 1, 365 * 86_400) * 1000,
      concurrency: integer(env, 'WEBHOOK_CONCURRENCY', 32, 1, 1000),
      leaseMs,
    },
    eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', 30, 30, 3650),
    highRiskCountries,
    watchListFile,
    port: integer(env, 'PORT', 8080, 0, 65535),
    host,
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl,
    databasePoolMax: integer(env, 'DATABASE_POOL_MAX', 20, 1, 500),
    appEnv,
    encryptionKey,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    ...bodyLimits(env),
    authFailureLimit: integer(env, 'AUTH_FAILURE_LIMIT', 50, 1, 1_000_000),
    rateLimitMax: integer(env, 'RATE_LIMIT_MAX', 6000, 1, 1_000_000),
    rateLimitWindowSeconds: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400),
  };
}
