import { originPatternProblem, rpIdProblem, type RelyingPartyPolicy } from '../crypto/webauthn/relying-party.js';
import { DEPOSIT_CURRENCIES, parseBankDetails, parseRates, parseTreasuryKey, SANDBOX_BANKS, type DepositConfig } from '../domain/deposits/deposit-config.js';
import { PAYOUT_RAILS, parseRails, type WithdrawalConfig } from '../domain/withdrawals/withdrawal-config.js';
import { parseVaults, type VaultConfig } from '../domain/vaults/vault-config.js';
import { parseTokens, type TokenEntry } from '../domain/tokens/token-config.js';
import { parseTokenRates } from '../domain/tokens/token-rates.js';
import { parseConfirmations, type IncomingConfig } from '../domain/incoming/incoming-config.js';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { DEFAULT_THRESHOLD } from '../domain/screening/engine.js';
import { loadListSync, type ListSource, type LoadedList } from '../domain/screening/load.js';
import { commaList, ConfigError, flag, integer, parsed, Problems } from './env.js';
import type { AppEnv, Config, OtpConfig, ScreeningConfig, WebhookConfig } from './types.js';

// The parts of the configuration that take several variables or differ between sandbox and production. A part
// reports every bad variable it reads (Problems), not only the first, so one start lists them all.

/** Standard Webhooks' schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400];

export function retrySchedule(env: NodeJS.ProcessEnv): number[] {
  const raw = env.WEBHOOK_RETRY_SCHEDULE;
  if (raw === undefined || raw === '') return DEFAULT_RETRY_SCHEDULE_SECONDS.map((s) => s * 1000);
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length > 20 || parts.some((p) => !/^\d+(\.\d{1,3})?$/.test(p) || Number(p) > 7 * 86_400)) {
    throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE must be up to 20 comma-separated delays in seconds (0 to 604800, up to 3 decimals) (got "${raw}")`);
  }
  return parts.map((p) => Math.round(Number(p) * 1000));
}

/** WEBHOOK_ALLOW_PRIVATE (sandbox only), WEBHOOK_TIMEOUT_MS and WEBHOOK_LEASE_SECONDS. */
export function webhookReach(env: NodeJS.ProcessEnv, appEnv: AppEnv): Pick<WebhookConfig, 'allowPrivate' | 'timeoutMs' | 'leaseMs'> {
  const problems = new Problems();
  const allowPrivate = problems.read(() => flag(env, 'WEBHOOK_ALLOW_PRIVATE', false), false);
  if (allowPrivate && appEnv === 'production') problems.note('WEBHOOK_ALLOW_PRIVATE is for sandbox only');
  const timeoutMs = problems.read<number | undefined>(() => integer(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 100, 60_000), undefined);
  const leaseSeconds = problems.read<number | undefined>(() => integer(env, 'WEBHOOK_LEASE_SECONDS', 0, 1, 86_400), undefined);
  // A lease must outlive the slowest attempt, or a second worker would send a delivery that is still in flight.
  const leaseMs = (leaseSeconds ?? 0) * 1000 || (timeoutMs ?? 0) + 30_000;
  if (timeoutMs !== undefined && leaseSeconds !== undefined && leaseMs <= timeoutMs) problems.note(`WEBHOOK_LEASE_SECONDS must be longer than WEBHOOK_TIMEOUT_MS (${timeoutMs} ms)`);
  return problems.result({ allowPrivate, timeoutMs: timeoutMs ?? 0, leaseMs });
}

/** Sandbox: passkeys made on a local web app, on any port (browsers refuse IP addresses as rp ids, so no 127.0.0.1). */
export const SANDBOX_WEBAUTHN: RelyingPartyPolicy = { rpIds: ['localhost'], origins: ['http://localhost:*', 'https://localhost:*'] };

/** WEBAUTHN_RP_IDS and WEBAUTHN_ORIGINS: required in production, the localhost defaults in sandbox. */
export function webauthn(env: NodeJS.ProcessEnv, appEnv: AppEnv): RelyingPartyPolicy {
  const problems = new Problems();
  const read = (name: 'WEBAUTHN_RP_IDS' | 'WEBAUTHN_ORIGINS', check: (entry: string) => string | null, fallback: readonly string[]): string[] =>
    problems.read(() => {
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
    }, []);
  const rpIds = read('WEBAUTHN_RP_IDS', rpIdProblem, SANDBOX_WEBAUTHN.rpIds);
  const origins = read('WEBAUTHN_ORIGINS', (entry) => originPatternProblem(entry, appEnv === 'production'), SANDBOX_WEBAUTHN.origins);
  return problems.result({ rpIds, origins });
}

/** SMTP_URL and SMTP_FROM; the OTP_* limits are read with the rest of the otp section. */
export function smtp(env: NodeJS.ProcessEnv): Pick<OtpConfig, 'smtpUrl' | 'from'> {
  const problems = new Problems();
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(smtpUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) problems.note('SMTP_URL must be an smtp:// or smtps:// URL');
  }
  const from = env.SMTP_FROM || 'Integrator API <no-reply@localhost>';
  if (from.length > 320 || !/@/.test(from) || /[\r\n]/.test(from)) problems.note(`SMTP_FROM must be an email address on one line (got ${JSON.stringify(from)})`);
  return problems.result({ smtpUrl, from });
}

/** The URL `raw` spells, or undefined when it is none. */
function parsedUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

/** REDIS_URL: where the per-credential rate limits are counted when set (docs/deployment.md#rate-limits-across-processes). */
export function redisUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.REDIS_URL || undefined;
  if (raw === undefined) return undefined;
  const url = parsedUrl(raw);
  // The value is not quoted back: it may carry a password.
  if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname) throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL');
  return raw;
}

export const DEFAULT_REDIS_KEY_PREFIX = 'integrator-api:';

/** REDIS_KEY_PREFIX: what this deployment's Redis keys start with, so that several can share one Redis. */
export function redisKeyPrefix(env: NodeJS.ProcessEnv): string {
  const raw = env.REDIS_KEY_PREFIX;
  if (raw === undefined || raw === '') return DEFAULT_REDIS_KEY_PREFIX;
  if (!/^[A-Za-z0-9:._-]{1,100}$/.test(raw)) throw new ConfigError(`REDIS_KEY_PREFIX must be 1 to 100 characters of A-Z a-z 0-9 : . _ - (got ${JSON.stringify(raw.slice(0, 120))})`);
  return raw;
}

/**
 * DEPOSIT_BANK_USD, DEPOSIT_BANK_EUR, DEPOSIT_RATES, TREASURY_PRIVATE_KEY: sandbox has fictitious defaults,
 * production none. DEPOSIT_EXPIRY_HOURS: 7 days unless set (1 hour to 1 year).
 */
export function depositConfig(env: NodeJS.ProcessEnv, appEnv: AppEnv): DepositConfig {
  const problems = new Problems();
  const banks: DepositConfig['banks'] = {};
  for (const currency of DEPOSIT_CURRENCIES) {
    const name = `DEPOSIT_BANK_${currency}`;
    const raw = env[name];
    if (raw) problems.read(() => (banks[currency] = parsed(name, () => parseBankDetails(raw, currency))), undefined);
    else if (appEnv === 'sandbox') banks[currency] = SANDBOX_BANKS[currency];
  }
  const weiPerUnit = problems.read(() => parsed('DEPOSIT_RATES', () => parseRates(env.DEPOSIT_RATES ?? '')), undefined);
  const tokenRates = problems.read(() => parsed('DEPOSIT_TOKEN_RATES', () => parseTokenRates(env.DEPOSIT_TOKEN_RATES ?? '')), new Map<string, string>());
  const key = env.TREASURY_PRIVATE_KEY;
  const treasuryKey = key ? problems.read(() => parsed('TREASURY_PRIVATE_KEY', () => parseTreasuryKey(key)), undefined) : undefined;
  const expiryMs = problems.read(() => integer(env, 'DEPOSIT_EXPIRY_HOURS', 168, 1, 8760), 0) * 3_600_000;
  return problems.result({ banks, weiPerUnit: weiPerUnit as DepositConfig['weiPerUnit'], tokenRates, sandboxRates: appEnv === 'sandbox', treasuryKey, expiryMs });
}

/**
 * WITHDRAWAL_RAILS (sandbox: ach,sepa; production: none, so withdrawals answer 503 until a payout rail is set up),
 * WITHDRAWAL_RATES (default: the deposit rates), WITHDRAWAL_FEE_BPS, WITHDRAWAL_QUOTE_SECONDS. `deposits` undefined:
 * the deposit settings were wrong; these are checked all the same.
 */
export function withdrawalConfig(env: NodeJS.ProcessEnv, appEnv: AppEnv, deposits: DepositConfig | undefined): WithdrawalConfig {
  const problems = new Problems();
  const rawRails = env.WITHDRAWAL_RAILS ?? (appEnv === 'sandbox' ? PAYOUT_RAILS.join(',') : '');
  const rates = env.WITHDRAWAL_RATES;
  const tokenRates = env.WITHDRAWAL_TOKEN_RATES;
  return problems.result({
    rails: problems.read(() => parsed('WITHDRAWAL_RAILS', () => parseRails(rawRails)), new Set()),
    // Undefined only when a rate setting was wrong: this part's problem, or the deposit settings' (loadConfig's).
    weiPerUnit: (rates ? problems.read(() => parsed('WITHDRAWAL_RATES', () => parseRates(rates)), undefined) : deposits?.weiPerUnit) as WithdrawalConfig['weiPerUnit'],
    tokenRates: tokenRates ? problems.read(() => parsed('WITHDRAWAL_TOKEN_RATES', () => parseTokenRates(tokenRates)), new Map<string, string>()) : (deposits?.tokenRates ?? new Map<string, string>()),
    sandboxRates: appEnv === 'sandbox',
    feeBps: problems.read(() => integer(env, 'WITHDRAWAL_FEE_BPS', 50, 0, 5000), 0),
    quoteTtlMs: problems.read(() => integer(env, 'WITHDRAWAL_QUOTE_SECONDS', 60, 10, 3600), 0) * 1000,
  });
}

/** Small bodies everywhere; documents routes alone may take large ones, and only a few of those at once. */
export function bodyLimits(env: NodeJS.ProcessEnv): Pick<Config, 'bodyLimitBytes' | 'documentBodyLimitBytes' | 'largeBodyConcurrency'> {
  const problems = new Problems();
  const bodyLimitBytes = problems.read<number | undefined>(() => integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 256 * 1024 * 1024), undefined);
  // Three 10 MiB documents as base64 (4/3 larger) plus the rest of the JSON.
  const documentBodyLimitBytes = problems.read<number | undefined>(
    () => integer(env, 'DOCUMENT_BODY_LIMIT_BYTES', Math.max(48 * 1024 * 1024, bodyLimitBytes ?? 0), 1024, 256 * 1024 * 1024),
    undefined,
  );
  if (bodyLimitBytes !== undefined && documentBodyLimitBytes !== undefined && documentBodyLimitBytes < bodyLimitBytes) {
    problems.note(`DOCUMENT_BODY_LIMIT_BYTES must be at least BODY_LIMIT_BYTES (${bodyLimitBytes})`);
  }
  const largeBodyConcurrency = problems.read(() => integer(env, 'LARGE_BODY_CONCURRENCY', 4, 1, 1000), 1);
  return problems.result({ bodyLimitBytes: bodyLimitBytes ?? 0, documentBodyLimitBytes: documentBodyLimitBytes ?? 0, largeBodyConcurrency });
}

/**
 * INVITATION_BASE_URL: the public base URL of this service's hosted invitation page (links are
 * `<base>/invitations/<token>`); an http(s) URL without query or fragment, https in production, any trailing slash
 * dropped. Sandbox defaults to http://localhost:<PORT> (the sandbox relying party); production has no default.
 */
export function invitationBaseUrl(env: NodeJS.ProcessEnv, appEnv: AppEnv, port: number): string | undefined {
  const raw = env.INVITATION_BASE_URL || undefined;
  if (raw === undefined) return appEnv === 'sandbox' ? `http://localhost:${port}` : undefined;
  const url = parsedUrl(raw);
  const problem =
    !url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== ''
      ? 'must be an http(s) URL without query, fragment or credentials'
      : appEnv === 'production' && url.protocol !== 'https:'
        ? 'must be https in production'
        : null;
  if (problem) throw new ConfigError(`INVITATION_BASE_URL ${problem} (got ${JSON.stringify(raw)})`);
  return url!.href.replace(/\/+$/, '');
}

/**
 * SERVICE_TERMS_URL: the service terms the hosted invitation page asks the invitee to accept, linked from it. An
 * http(s) URL (https in production); required in production once invitations are on (INVITATION_BASE_URL), since the
 * page must link what it asks to accept. Undefined in sandbox: the page links its own sandbox stand-in.
 */
export function serviceTermsUrl(env: NodeJS.ProcessEnv, appEnv: AppEnv, invitations: string | undefined): string | undefined {
  const raw = env.SERVICE_TERMS_URL || undefined;
  if (raw === undefined) {
    if (appEnv === 'production' && invitations) throw new ConfigError('SERVICE_TERMS_URL is required when APP_ENV=production and INVITATION_BASE_URL is set: the invitation page links the terms it asks the invitee to accept');
    return undefined;
  }
  const url = parsedUrl(raw);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '') {
    throw new ConfigError(`SERVICE_TERMS_URL must be an http(s) URL without credentials (got ${JSON.stringify(raw)})`);
  }
  if (appEnv === 'production' && url.protocol !== 'https:') throw new ConfigError(`SERVICE_TERMS_URL must be https in production (got ${JSON.stringify(raw)})`);
  return url.href;
}

/** The terms version recorded when SERVICE_TERMS_VERSION is not set. */
export const DEFAULT_SERVICE_TERMS_VERSION = '1';

/**
 * SERVICE_TERMS_VERSION: the version of the service terms (SERVICE_TERMS_URL) that the hosted onboarding flow records
 * with a customer's acceptance (the user's termsVersion). Free text up to 64 printable characters, e.g. a date or a
 * number; default "1". Change it when the terms change: acceptances made before keep the version they accepted.
 */
export function serviceTermsVersion(env: NodeJS.ProcessEnv): string {
  const raw = env.SERVICE_TERMS_VERSION || undefined;
  if (raw === undefined) return DEFAULT_SERVICE_TERMS_VERSION;
  if (!/^[\x21-\x7e]{1,64}$/.test(raw)) throw new ConfigError(`SERVICE_TERMS_VERSION must be 1 to 64 printable ASCII characters without spaces (got ${JSON.stringify(raw)})`);
  return raw;
}

/**
 * VAULTS and the VAULT_* settings (docs/products.md#vaults). `chainIds` undefined: CHAIN_RPC_URLS was wrong, so VAULTS
 * (which names its chains) is not checked; the rest is.
 */
export function vaultConfig(env: NodeJS.ProcessEnv, chainIds: ReadonlySet<number> | undefined): VaultConfig {
  const problems = new Problems();
  return problems.result({
    configured: chainIds === undefined ? [] : problems.read(() => parsed('VAULTS', () => parseVaults(env.VAULTS, chainIds)), []),
    cacheMs: problems.read(() => integer(env, 'VAULT_CACHE_SECONDS', 15, 0, 3600), 0) * 1000,
    snapshotIntervalMs: problems.read(() => integer(env, 'VAULT_SNAPSHOT_SECONDS', 3600, 10, 86_400), 0) * 1000,
    preparationTtlMs: problems.read(() => integer(env, 'VAULT_PREPARATION_SECONDS', 900, 30, 86_400), 0) * 1000,
    depositGasLimit: BigInt(problems.read(() => integer(env, 'VAULT_DEPOSIT_GAS', 300_000, 50_000, 30_000_000), 0)),
  });
}

/**
 * TOKENS (docs/tokens.md): the listed ERC-20s that read well, and the problems of those that did not (`TOKENS: …`).
 * `chainIds` undefined: CHAIN_RPC_URLS was wrong, so TOKENS (which names its chains) is not checked. The problems are
 * not thrown here: what only the chain can tell (an ERC-20 there, its symbol) is checked at start-up, and both are
 * named together then (loadTokenRegistry), so one run names every TOKENS problem.
 */
export function tokenConfig(env: NodeJS.ProcessEnv, chainIds: ReadonlySet<number> | undefined): { tokens: TokenEntry[]; problems: string[] } {
  if (chainIds === undefined) return { tokens: [], problems: [] };
  const { tokens, problems } = parseTokens(env.TOKENS, chainIds);
  return { tokens, problems: problems.map((p) => `TOKENS: ${p}`) };
}

/**
 * CHAIN_CONFIRMATIONS, INCOMING_POLL_MS and INCOMING_MAX_BLOCKS (docs/incoming.md#settings). `chainIds` undefined:
 * CHAIN_RPC_URLS was wrong, so CHAIN_CONFIRMATIONS (which names its chains) is not checked.
 */
export function incomingConfig(env: NodeJS.ProcessEnv, chainIds: ReadonlySet<number> | undefined): IncomingConfig {
  const problems = new Problems();
  const { confirmations, problems: wrong } = chainIds === undefined ? { confirmations: new Map<number, number>(), problems: [] } : parseConfirmations(env.CHAIN_CONFIRMATIONS, chainIds);
  for (const problem of wrong) problems.note(`CHAIN_CONFIRMATIONS: ${problem}`);
  const pollMs = env.INCOMING_POLL_MS ? problems.read(() => integer(env, 'INCOMING_POLL_MS', 0, 10, 60_000), 0) : undefined;
  const maxBlocks = problems.read(() => integer(env, 'INCOMING_MAX_BLOCKS', 20, 1, 1_000), 1);
  return problems.result({ confirmations, pollMs, maxBlocks });
}

/** The address ranges proxy-addr names, besides addresses and CIDR ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: the proxies whose X-Forwarded-For is believed (Fastify's trustProxy). Unset: none, and request.ip
 * is the connection's peer whatever a client sends. Set: a comma list of addresses, CIDR ranges, or `loopback`,
 * `linklocal`, `uniquelocal`; request.ip is then the right-most X-Forwarded-For entry not in the list, when the
 * peer itself is in it. No `true` (every client could pick its own address, and with it its own failure-limiter
 * window) and no hop count (Fastify ignores one: it cannot check the peer).
 */
export function trustProxy(env: NodeJS.ProcessEnv): string[] {
  const raw = env.TRUST_PROXY ?? '';
  const entries = commaList(raw);
  const bad = entries.find((entry) => !PROXY_RANGE_NAMES.includes(entry) && !isAddressOrRange(entry));
  if (bad !== undefined || (raw.trim() !== '' && entries.length === 0)) {
    throw new ConfigError(
      `TRUST_PROXY must be a comma list of the proxies' addresses or CIDR ranges (or loopback, linklocal, uniquelocal) (got "${raw}")`,
    );
  }
  return [...new Set(entries)];
}

function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

const LIST_LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * SCREENING_LISTS (`LABEL=folder`, comma-separated), WATCHLIST_FILE (one simple CSV), SCREENING_THRESHOLD and
 * SCREENING_RELOAD_SECONDS (docs/screening.md#settings). Every list is read and parsed here, so a list that cannot be
 * stops the start with its path (and file and line) named, one line per list. Neither list setting: the shipped
 * sample in sandbox (`sample`), nothing in production.
 */
export function screeningConfig(env: NodeJS.ProcessEnv, appEnv: AppEnv, sample: string): ScreeningConfig {
  const problems = new Problems();
  const sources: { variable: string; source: ListSource }[] = [];
  const raw = env.SCREENING_LISTS ?? '';
  const labels = new Set<string>();
  for (const part of commaList(raw)) {
    const at = part.indexOf('=');
    const label = at > 0 ? part.slice(0, at).trim() : '';
    const path = at > 0 ? part.slice(at + 1).trim() : '';
    if (!LIST_LABEL.test(label) || path === '') {
      problems.note(`SCREENING_LISTS: "${part}" must be LABEL=folder (a label of up to 64 letters, digits, . _ -, e.g. OFAC-SDN=/srv/lists/ofac)`);
    } else if (labels.has(label)) {
      problems.note(`SCREENING_LISTS: the label ${label} is given twice`);
    } else {
      labels.add(label);
      sources.push({ variable: `SCREENING_LISTS ${label}:`, source: { label, path: resolve(path), kind: 'folder' } });
    }
  }
  if (raw.trim() !== '' && commaList(raw).length === 0) problems.note('SCREENING_LISTS must be LABEL=folder pairs, comma-separated');
  if (env.WATCHLIST_FILE) sources.push({ variable: 'WATCHLIST_FILE', source: { label: 'WATCHLIST_FILE', path: resolve(env.WATCHLIST_FILE), kind: 'file' } });
  if (sources.length === 0 && raw.trim() === '' && appEnv === 'sandbox') sources.push({ variable: 'the sample list', source: { label: 'OFAC-SAMPLE', path: sample, kind: 'folder' } });

  const loaded: LoadedList[] = [];
  for (const { variable, source } of sources) {
    problems.read(() => {
      try {
        loaded.push(loadListSync(source));
      } catch (err) {
        throw new ConfigError(`${variable} ${(err as Error).message}`);
      }
    }, undefined);
  }
  const threshold = problems.read(() => decimal(env, 'SCREENING_THRESHOLD', DEFAULT_THRESHOLD, 0.5, 1), DEFAULT_THRESHOLD);
  const reloadMs = problems.read(() => integer(env, 'SCREENING_RELOAD_SECONDS', 300, 0, 86_400), 0) * 1000;
  return problems.result({ sources: sources.map((s) => s.source), loaded, threshold, reloadMs });
}

function decimal(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new ConfigError(`${name} must be a number from ${min} to ${max} (got "${raw}")`);
  return Number(raw);
}
