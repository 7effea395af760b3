import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseChainRpcUrls } from '../chain/rpc-urls.js';
import { parseEncryptionKeys } from '../crypto/encryption-key.js';
import { DEFAULT_HIGH_RISK_COUNTRIES, parseHighRiskCountries } from '../domain/onboarding/reference/high-risk-countries.js';
import { ConfigError, flag, integer, oneOf, parsed, Problems } from './env.js';
import { parseCountryRules, parseOfferedProducts } from '../domain/products/product-config.js';
import { bodyLimits, DEFAULT_REDIS_KEY_PREFIX, depositConfig, invitationBaseUrl, serviceTermsUrl, serviceTermsVersion, DEFAULT_SERVICE_TERMS_VERSION, redisKeyPrefix, redisUrl, retrySchedule, smtp, trustProxy, webauthn, tokenConfig, incomingConfig, webhookReach, vaultConfig, withdrawalConfig, screeningConfig } from './sections.js';
import { LOG_FORMATS, LOG_LEVELS, type Config } from './types.js';
import { custodyKeysConfig, type CustodyKeysConfig } from './custody-keys.js';

// The repository's config/ folder, from src/config/ or, once built, dist/src/config/.
const SAMPLE_SCREENING_LIST = fileURLToPath(new URL('../../config/screening/ofac-sample', import.meta.url.includes('/dist/') ? new URL('../', import.meta.url) : import.meta.url));

/**
 * Reads and validates the environment once. Every mistake is collected, so one start reports them all: a bad
 * setting is noted and a default stands in for it while the rest is read (only a check that needs a bad setting's
 * value is skipped: VAULTS without valid CHAIN_RPC_URLS), then ConfigError lists them, in the order below. The
 * parts in sections.ts collect their own variables' mistakes the same way (Problems).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems = new Problems();
  const read = <T>(value: () => T, fallback: T): T => problems.read(value, fallback);
  /** A setting that is undefined when wrong, for those whose dependents are skipped then. */
  const readOrSkip = <T>(value: () => T): T | undefined => read<T | undefined>(value, undefined);

  const appEnv = read(() => oneOf(env, 'APP_ENV', ['sandbox', 'production'] as const, 'sandbox'), 'sandbox');

  const host = env.HOST || '127.0.0.1';
  if (!/^[A-Za-z0-9.:_-]+$/.test(host)) problems.note(`HOST must be a host name or IP address (got "${host}")`);

  const databaseUrl = read(() => checkedDatabaseUrl(env.DATABASE_URL || undefined), undefined);
  if (appEnv === 'production' && !env.DATABASE_URL && !read(() => flag(env, 'ALLOW_EMBEDDED_DATABASE_IN_PRODUCTION', false), true)) {
    problems.note(
      'DATABASE_URL is required when APP_ENV=production: the embedded database is one process on one disk, with no replica or backup (docs/deployment.md). ' +
        'Set ALLOW_EMBEDDED_DATABASE_IN_PRODUCTION=1 to run production on it anyway',
    );
  }

  const encryptionKeys = read(() => parseEncryptionKeys(env), undefined);
  if (!encryptionKeys && appEnv === 'production' && !env.ENCRYPTION_KEYS && !env.ENCRYPTION_KEY) problems.note('ENCRYPTION_KEYS (or ENCRYPTION_KEY) is required when APP_ENV=production');

  const highRiskList = env.HIGH_RISK_COUNTRIES;
  const highRiskCountries = read(
    () => (highRiskList !== undefined ? parsed('HIGH_RISK_COUNTRIES', () => parseHighRiskCountries(highRiskList)) : [...DEFAULT_HIGH_RISK_COUNTRIES]),
    [...DEFAULT_HIGH_RISK_COUNTRIES],
  );

  // Sandbox screens against the shipped sample list (OFAC's format) so every branch can be tried; production only the lists it names.
  const screening = read(() => screeningConfig(env, appEnv, SAMPLE_SCREENING_LIST), { sources: [], loaded: [], threshold: 0, reloadMs: 0 });

  const reach = read(() => webhookReach(env, appEnv), { allowPrivate: false, timeoutMs: 10_000, leaseMs: 60_000 });
  const relyingParty = read(() => webauthn(env, appEnv), { rpIds: [], origins: [] });
  const chainRpcUrls = readOrSkip(() => parsed('CHAIN_RPC_URLS', () => parseChainRpcUrls(env.CHAIN_RPC_URLS ?? '')));
  const { smtpUrl, from } = read(() => smtp(env), { smtpUrl: undefined, from: '' });
  const deposits = readOrSkip(() => depositConfig(env, appEnv));
  const port = readOrSkip(() => integer(env, 'PORT', 8080, 0, 65535));
  // A bad PORT stops the start anyway; the sandbox default's port then does not matter, INVITATION_BASE_URL is checked.
  const invitations = read(() => invitationBaseUrl(env, appEnv, port ?? 8080), undefined);
  const withdrawals = readOrSkip(() => withdrawalConfig(env, appEnv, deposits));
  const vaults = readOrSkip(() => vaultConfig(env, chainRpcUrls === undefined ? undefined : new Set(chainRpcUrls.keys())));
  // TOKENS' own mistakes wait for the start-up check, which adds what the chains say (tokenProblems); with any other
  // mistake here they are listed in their place, as every other variable's.
  const tokensAt = problems.list.length;
  const { tokens, problems: tokenProblems } = tokenConfig(env, chainRpcUrls === undefined ? undefined : new Set(chainRpcUrls.keys()));
  const incoming = read(() => incomingConfig(env, chainRpcUrls === undefined ? undefined : new Set(chainRpcUrls.keys())), { confirmations: new Map(), pollMs: undefined, maxBlocks: 1 });

  const config = {
    webauthn: relyingParty,
    deposits,
    withdrawals,
    otp: {
      smtpUrl,
      from,
      resendIntervalMs: read(() => integer(env, 'OTP_RESEND_SECONDS', 30, 0, 3600), 30) * 1000,
      maxPerHour: read(() => integer(env, 'OTP_MAX_PER_HOUR', 10, 1, 1000), 10),
    },
    invitationBaseUrl: invitations,
    serviceTermsUrl: read(() => serviceTermsUrl(env, appEnv, invitations), undefined),
    serviceTermsVersion: read(() => serviceTermsVersion(env), DEFAULT_SERVICE_TERMS_VERSION),
    onboardingLinkTtlSeconds: read(() => integer(env, 'ONBOARDING_LINK_TTL_SECONDS', 3_600, 60, 86_400), 3_600),
    products: {
      offered: read(() => parsed('PRODUCTS', () => parseOfferedProducts(env.PRODUCTS)), undefined as never),
      countries: read(() => parsed('PRODUCT_COUNTRIES', () => parseCountryRules(env.PRODUCT_COUNTRIES)), undefined as never),
    },
    chainRpcUrls,
    vaults,
    tokens,
    tokenProblems,
    incoming,
    reconcile: {
      // 0: no scheduled chain run (on demand only).
      chainEveryMs: read(() => integer(env, 'RECONCILE_CHAIN_HOURS', 24, 0, 24 * 24), 24) * 3_600_000,
      bankWindowDays: read(() => integer(env, 'RECONCILE_BANK_WINDOW_DAYS', 5, 0, 60), 5),
    },
    webhooks: {
      retryScheduleMs: read(() => retrySchedule(env), []),
      allowPrivate: reach.allowPrivate,
      runWorker: read(() => flag(env, 'WEBHOOK_WORKER', true), true),
      timeoutMs: reach.timeoutMs,
      disableAfterMs: read(() => integer(env, 'WEBHOOK_DISABLE_AFTER_SECONDS', 5 * 86_400, 1, 365 * 86_400), 0) * 1000,
      concurrency: read(() => integer(env, 'WEBHOOK_CONCURRENCY', 32, 1, 1000), 1),
      leaseMs: reach.leaseMs,
    },
    eventRetentionDays: read(() => integer(env, 'EVENT_RETENTION_DAYS', 30, 30, 3650), 30),
    highRiskCountries,
    screening,
    port,
    host,
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl,
    databasePoolMax: read(() => integer(env, 'DATABASE_POOL_MAX', 20, 1, 500), 1),
    databaseQueryTimeoutMs: read(() => integer(env, 'DATABASE_QUERY_TIMEOUT_MS', 10_000, 100, 3_600_000), 1),
    databaseConnectTimeoutMs: read(() => integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5_000, 100, 600_000), 1),
    appEnv,
    encryptionKeys,
    resealBatch: read(() => integer(env, 'RESEAL_BATCH', 200, 1, 10_000), 200),
    custodyKeys: read<CustodyKeysConfig>(() => custodyKeysConfig(env), { backend: 'sealed' }),
    logLevel: read(() => oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'), 'info'),
    logFormat: read(() => oneOf(env, 'LOG_FORMAT', LOG_FORMATS, 'auto'), 'auto'),
    ...read(() => bodyLimits(env), undefined as never),
    authFailureLimit: read(() => integer(env, 'AUTH_FAILURE_LIMIT', 50, 1, 1_000_000), 1),
    trustProxy: read(() => trustProxy(env), []),
    rateLimitMax: read(() => integer(env, 'RATE_LIMIT_MAX', 6000, 1, 1_000_000), 1),
    rateLimitWindowSeconds: read(() => integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400), 1),
    redisUrl: read(() => redisUrl(env), undefined),
    redisKeyPrefix: read(() => redisKeyPrefix(env), DEFAULT_REDIS_KEY_PREFIX),
    metricsToken: read(() => metricsToken(env.METRICS_TOKEN), undefined),
    metricsPort: env.METRICS_PORT ? read(() => integer(env, 'METRICS_PORT', 0, 0, 65535), undefined) : undefined,
  };
  if (env.METRICS_PORT && appEnv === 'production' && !env.METRICS_TOKEN) problems.note('METRICS_PORT needs METRICS_TOKEN when APP_ENV=production: metrics are not served without a token there');
  if (problems.list.length > 0) problems.list.splice(tokensAt, 0, ...tokenProblems);
  // Every setting was read without a problem when this returns (TOKENS' aside: tokenProblems): none of the stand-ins above is left.
  return problems.result(config) as Config;
}

/** A bearer token for GET /metrics: 32 to 256 characters a header can carry unquoted (RFC 6750's token68). */
function metricsToken(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^[A-Za-z0-9._~+/-]{32,256}=*$/.test(raw)) throw new ConfigError('METRICS_TOKEN must be 32 to 256 characters of A-Z a-z 0-9 . _ ~ + / - (e.g. openssl rand -hex 32)');
  return raw;
}

function checkedDatabaseUrl(databaseUrl: string | undefined): string | undefined {
  if (databaseUrl === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  return databaseUrl;
}
