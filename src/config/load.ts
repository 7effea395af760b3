import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseChainRpcUrls } from '../chain/rpc-urls.js';
import { parseEncryptionKey } from '../crypto/encryption-key.js';
import { DEFAULT_HIGH_RISK_COUNTRIES, parseHighRiskCountries } from '../domain/onboarding/reference/high-risk-countries.js';
import { ConfigError, flag, integer, oneOf, parsed } from './env.js';
import { parseCountryRules, parseOfferedProducts } from '../domain/products/product-config.js';
import { bodyLimits, depositConfig, invitationBaseUrl, retrySchedule, smtp, webauthn, webhookReach, vaultConfig, withdrawalConfig } from './sections.js';
import { LOG_LEVELS, type Config } from './types.js';

// The repository's config/ folder, from src/config/ or, once built, dist/src/config/.
const SAMPLE_WATCHLIST = fileURLToPath(new URL('../../config/watchlist.sample.csv', import.meta.url.includes('/dist/') ? new URL('../', import.meta.url) : import.meta.url));

/**
 * Reads and validates the environment once; throws ConfigError naming the first bad variable (checked in the
 * order below, so keep it when adding one).
 */
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
    const key = parseEncryptionKey(env.ENCRYPTION_KEY);
    if (!key) throw new ConfigError('ENCRYPTION_KEY must be 32 bytes as 64 hex digits or base64');
    encryptionKey = key;
  } else if (appEnv === 'production') {
    throw new ConfigError('ENCRYPTION_KEY is required when APP_ENV=production');
  }

  const highRiskList = env.HIGH_RISK_COUNTRIES;
  const highRiskCountries = highRiskList !== undefined ? parsed('HIGH_RISK_COUNTRIES', () => parseHighRiskCountries(highRiskList)) : [...DEFAULT_HIGH_RISK_COUNTRIES];

  // Sandbox screens against the shipped sample list so every branch can be tried; production only with a file.
  const watchListFile = env.WATCHLIST_FILE ? resolve(env.WATCHLIST_FILE) : appEnv === 'sandbox' ? SAMPLE_WATCHLIST : undefined;
  if (watchListFile && !existsSync(watchListFile)) throw new ConfigError(`WATCHLIST_FILE ${watchListFile} does not exist`);

  const reach = webhookReach(env, appEnv);
  const relyingParty = webauthn(env, appEnv);
  const chainRpcUrls = parsed('CHAIN_RPC_URLS', () => parseChainRpcUrls(env.CHAIN_RPC_URLS ?? ''));
  const { smtpUrl, from } = smtp(env);
  const deposits = depositConfig(env, appEnv);
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const invitations = invitationBaseUrl(env, appEnv, port);

  return {
    webauthn: relyingParty,
    deposits,
    withdrawals: withdrawalConfig(env, appEnv, deposits),
    otp: {
      smtpUrl,
      from,
      resendIntervalMs: integer(env, 'OTP_RESEND_SECONDS', 30, 0, 3600) * 1000,
      maxPerHour: integer(env, 'OTP_MAX_PER_HOUR', 10, 1, 1000),
    },
    invitationBaseUrl: invitations,
    products: {
      offered: parsed('PRODUCTS', () => parseOfferedProducts(env.PRODUCTS)),
      countries: parsed('PRODUCT_COUNTRIES', () => parseCountryRules(env.PRODUCT_COUNTRIES)),
    },
    chainRpcUrls,
    vaults: vaultConfig(env, new Set(chainRpcUrls.keys())),
    webhooks: {
      retryScheduleMs: retrySchedule(env),
      allowPrivate: reach.allowPrivate,
      runWorker: flag(env, 'WEBHOOK_WORKER', true),
      timeoutMs: reach.timeoutMs,
      disableAfterMs: integer(env, 'WEBHOOK_DISABLE_AFTER_SECONDS', 5 * 86_400, 1, 365 * 86_400) * 1000,
      concurrency: integer(env, 'WEBHOOK_CONCURRENCY', 32, 1, 1000),
      leaseMs: reach.leaseMs,
    },
    eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', 30, 30, 3650),
    highRiskCountries,
    watchListFile,
    port,
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
