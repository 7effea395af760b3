import type { RelyingPartyPolicy } from '../crypto/webauthn/relying-party.js';
import type { CustodyKeysConfig } from './custody-keys.js';
import type { DepositConfig } from '../domain/deposits/deposit-config.js';
import type { ProductConfig } from '../domain/products/catalogue.js';
import type { VaultConfig } from '../domain/vaults/vault-config.js';
import type { TokenEntry } from '../domain/tokens/token-config.js';
import type { IncomingConfig } from '../domain/incoming/incoming-config.js';
import type { WithdrawalConfig } from '../domain/withdrawals/withdrawal-config.js';
import type { ListSource, LoadedList } from '../domain/screening/load.js';

// What loadConfig returns (load.ts reads and checks the environment into it).

export type AppEnv = 'sandbox' | 'production';
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** LOG_FORMAT: `auto` (unset) is readable lines on a terminal, JSON lines otherwise (logging.ts). */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** DATABASE_POOL_MAX: PostgreSQL connections per process (default 20). */
  databasePoolMax: number;
  /** DATABASE_QUERY_TIMEOUT_MS: the longest a PostgreSQL statement runs (statement_timeout; default 10 s), docs/deployment.md. */
  databaseQueryTimeoutMs: number;
  /** DATABASE_CONNECT_TIMEOUT_MS: the longest a PostgreSQL connection, or a free one, is waited for (default 5 s). */
  databaseConnectTimeoutMs: number;
  appEnv: AppEnv;
  /** ENCRYPTION_KEYS (or ENCRYPTION_KEY, a ring of one), newest first, 32 bytes each; undefined in sandbox (then generated into dataDir). */
  encryptionKeys: readonly Buffer[] | undefined;
  /** RESEAL_BATCH: sealed values re-sealed per transaction after the newest key changed (default 200). */
  resealBatch: number;
  /** CUSTODY_KEYS and the PKCS11_* settings: where custody and treasury keys live (docs/key-management.md). */
  custodyKeys: CustodyKeysConfig;
  logLevel: LogLevel;
  /** LOG_FORMAT: json, pretty (one readable line per entry), or auto (unset): pretty when stdout is a terminal. */
  logFormat: LogFormat;
  /** BODY_LIMIT_BYTES: largest body of an operation that carries no documents (default 1 MiB). */
  bodyLimitBytes: number;
  /** DOCUMENT_BODY_LIMIT_BYTES: largest body of an operation that carries documents (default 48 MiB). */
  documentBodyLimitBytes: number;
  /** LARGE_BODY_CONCURRENCY: bodies above BODY_LIMIT_BYTES read at once per process; others wait their turn. */
  largeBodyConcurrency: number;
  /** AUTH_FAILURE_LIMIT: failed authentications per source address per minute before answering 429. */
  authFailureLimit: number;
  /**
   * TRUST_PROXY: addresses or CIDR ranges of the proxies in front (nginx, docs/deployment.md) whose X-Forwarded-For
   * gives request.ip (the failure limiter's key, the logs' remoteAddress); empty: none, the peer is the client.
   */
  trustProxy: string[];
  /** RATE_LIMIT_MAX: signed requests per credential per window (default 6000). */
  rateLimitMax: number;
  /** RATE_LIMIT_WINDOW_SECONDS: the rate limit's window (default 60). */
  rateLimitWindowSeconds: number;
  /**
   * REDIS_URL: the rate limits are counted there, shared by every process; unset: in PostgreSQL when DATABASE_URL is
   * set, else in the process (docs/deployment.md#rate-limits-across-processes).
   */
  redisUrl: string | undefined;
  /** REDIS_KEY_PREFIX: what this deployment's Redis keys start with (default `integrator-api:`). */
  redisKeyPrefix: string;
  /** METRICS_TOKEN: the bearer token GET /metrics takes; unset: open in sandbox, not served in production. */
  metricsToken: string | undefined;
  /** METRICS_PORT: `npm run worker` serves GET /metrics there (the server uses its own port). */
  metricsPort: number | undefined;
  /** Alpha-3 codes whose nationals or residents need additionalUserInfo. */
  highRiskCountries: string[];
  /** The screening lists, loaded, and how they are matched and reloaded (docs/screening.md). */
  screening: ScreeningConfig;
  webhooks: WebhookConfig;
  /** Relying-party ids and origins passkeys may be registered and used from (docs/passkeys.md). */
  webauthn: RelyingPartyPolicy;
  /** Events (and their delivery history) are kept this many days, at least 30. */
  eventRetentionDays: number;
  /** CHAIN_RPC_URLS: the JSON-RPC endpoint of each chain transactions may use (empty: none). */
  chainRpcUrls: Map<number, string>;
  /** One-time codes by email (docs/otp.md). */
  otp: OtpConfig;
  /** INVITATION_BASE_URL: where the hosted invitation page is reached (docs/invitations.md); undefined: invitations cannot be sent. */
  invitationBaseUrl: string | undefined;
  /** ONBOARDING_LINK_TTL_SECONDS: an onboarding link's lifetime when the request names none (60 to 86,400; default 3,600). */
  onboardingLinkTtlSeconds: number;
  /** SERVICE_TERMS_URL: the terms the invitation page links; undefined: its sandbox stand-in (docs/invitations.md). */
  serviceTermsUrl: string | undefined;
  /** SERVICE_TERMS_VERSION: the version of those terms, recorded with a customer's acceptance on the hosted onboarding flow (docs/onboarding-links.md). */
  serviceTermsVersion: string;
  /** Fiat deposits: bank details per currency, payout rates, the treasury key (docs/deposits.md). */
  deposits: DepositConfig;
  /** Fiat withdrawals: payout rails, rates, fee, quote validity (docs/withdrawals.md). */
  withdrawals: WithdrawalConfig;
  /** PRODUCTS and PRODUCT_COUNTRIES: the products offered and their country rules (docs/products.md). */
  products: ProductConfig;
  /** VAULTS and the VAULT_* settings: the yield vaults offered (docs/products.md#vaults). */
  vaults: VaultConfig;
  /** TOKENS: the ERC-20s money moves in besides each chain's native coin (docs/tokens.md); the entries that read well. */
  tokens: TokenEntry[];
  /**
   * TOKENS' entries that did not read well (malformed, a chain not in CHAIN_RPC_URLS, given twice), one `TOKENS: …`
   * line each: the start-up check names them with what the chains say of the others (loadTokenRegistry).
   */
  tokenProblems: string[];
  /** CHAIN_CONFIRMATIONS and the incoming watcher's pace (docs/incoming.md). */
  incoming: IncomingConfig;
  /** RECONCILE_CHAIN_HOURS, RECONCILE_BANK_WINDOW_DAYS (docs/reconciliation.md#settings). */
  reconcile: { chainEveryMs: number; bankWindowDays: number };
}

/** SCREENING_LISTS, WATCHLIST_FILE, SCREENING_THRESHOLD, SCREENING_RELOAD_SECONDS (docs/screening.md#settings). */
export interface ScreeningConfig {
  /** The lists' folders (and WATCHLIST_FILE), with their labels. */
  sources: ListSource[];
  /** Each source as read and parsed at start-up (a list that cannot be stops the start). */
  loaded: LoadedList[];
  /** SCREENING_THRESHOLD: the score from which a name is a hit (0.5 to 1, default 0.88). */
  threshold: number;
  /** SCREENING_RELOAD_SECONDS × 1000: how often the files are looked at again (0: only on SIGHUP). */
  reloadMs: number;
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
