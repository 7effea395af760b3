import type { FastifyServerOptions } from 'fastify';
import { ChainRegistry } from './chain/chain-client.js';
import { openCustodyKeys, type CustodyKeys } from './chain/custody-keys.js';
import { TokenConfigError } from './crypto/pkcs11/errors.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { loadOrCreateSandboxKey } from './crypto/encryption-key.js';
import { SecretBox } from './crypto/secret-box.js';
import { DataDirInUseError } from './db/data-dir-lock.js';
import { NARROWED_MESSAGE, narrowDataDir, type Narrowed } from './db/private-data-dir.js';
import { loadTokenRegistry, TokenRegistryError, type TokenRegistry } from './domain/tokens/token-registry.js';
import { openDatabase, type Database } from './db/database.js';
import type { Policy } from './domain/context.js';
import { checkEncryptionKeys, EncryptionKeyMismatchError } from './domain/keys/key-check.js';
import type { BoundPort } from './http/bound-port.js';
import type { DrainOptions } from './http/drain.js';
import type { Api } from './http/types.js';
import { smtpMailer, type Mailer } from './mail/mailer.js';
import { policyFromConfig } from './policy.js';
import type { Background, BackgroundOptions } from './workers/background.js';
import { Signal } from './workers/signal.js';
import type { WebhookWorker } from './workers/webhook-worker.js';
import type { Log } from './log.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { NO_PROGRESS, type StartupProgress } from './startup-progress.js';

/**
 * The composition root: every dependency a process needs, built once from its configuration, and the one place
 * that knows how the server, the standalone worker, the operator CLI and the test harness are put together and
 * in which order they stop (requests, then background work, then mail, then the database).
 */
export interface System {
  config: Config;
  database: Database;
  secrets: SecretBox;
  /** Custody and treasury keys (CUSTODY_KEYS): sealed here, or on a PKCS#11 token opened at start. */
  custody: CustodyKeys;
  clock: Clock;
  policy: Policy;
  chains: ChainRegistry;
  /** TOKENS, confirmed on their chains at start-up (docs/tokens.md). */
  tokens: TokenRegistry;
  /** Fired after a transaction was broadcast, to wake the transaction watcher. */
  transactionBroadcast: Signal;
  /** Fired after mail was queued (invitations), to wake the mail sender. */
  mailQueued: Signal;
  /** One-time codes by SMTP (SMTP_URL); undefined: the sandbox outbox, or 503 in production. */
  mailer: Mailer | undefined;
  /** This process's Prometheus metrics (GET /metrics). */
  metrics: Metrics;
  /** What was narrowed under DATA_DIR at start (wider modes than the service's own), for the process's log. */
  dataDirNarrowed: Narrowed | undefined;
  /** Closes what the system holds (mail transport, database). Last, after everything using it stopped. */
  close(): Promise<void>;
}

/** What a test (or a bench) supplies instead of what the configuration would open. */
export interface SystemOverrides {
  database?: Database;
  secrets?: SecretBox;
  clock?: Clock;
  mailer?: Mailer;
  /** Per-request JSON-RPC timeout (default the chain client's own). */
  chainTimeoutMs?: number;
}

/**
 * Opens the database, checks that ENCRYPTION_KEYS holds every key its secrets are sealed with (EncryptionKeyMismatchError
 * otherwise), and builds the rest; the caller owns the result and calls close() last. `progress`: where a process's
 * start says what it is doing (startup-progress.ts).
 */
export async function openSystem(config: Config, overrides: SystemOverrides = {}, progress: StartupProgress = NO_PROGRESS): Promise<System> {
  const chains = new ChainRegistry(config.chainRpcUrls, overrides.chainTimeoutMs);
  // The listed tokens are confirmed on their chains first: a wrong TOKENS entry stops the start before anything is written.
  const tokens = await loadTokenRegistry(config.tokens, chains, config.tokenProblems);
  // Before the sandbox key or the database is opened: a DATA_DIR left readable by others is the service's alone again.
  const dataDirNarrowed = narrowDataDir(config.dataDir);
  const ring = overrides.secrets ?? new SecretBox(config.encryptionKeys ?? loadOrCreateSandboxKey(config.dataDir));
  const database =
    overrides.database ??
    (await openDatabase(
      config.databaseUrl
        ? {
            kind: 'postgres',
            url: config.databaseUrl,
            poolMax: config.databasePoolMax,
            queryTimeoutMs: config.databaseQueryTimeoutMs,
            connectTimeoutMs: config.databaseConnectTimeoutMs,
          }
        : { kind: 'pglite', dataDir: config.dataDir },
      { progress },
    ));
  const clock = overrides.clock ?? systemClock;
  let secrets: SecretBox;
  let custody: CustodyKeys;
  try {
    secrets = await checkEncryptionKeys(database.db, ring, clock());
    // A token that cannot be opened (module, label, PIN) stops the start here: TokenConfigError.
    custody = await openCustodyKeys(config.custodyKeys, secrets);
  } catch (err) {
    await database.close();
    throw err;
  }
  const mailer = overrides.mailer ?? (config.otp.smtpUrl ? smtpMailer(config.otp.smtpUrl, config.otp.from) : undefined);
  return {
    config,
    database,
    secrets,
    custody,
    clock,
    policy: policyFromConfig(config),
    chains,
    tokens,
    transactionBroadcast: new Signal(),
    mailQueued: new Signal(),
    mailer,
    metrics: createMetrics({ database, clock }),
    dataDirNarrowed,
    async close() {
      mailer?.close();
      custody.close();
      await database.close();
    },
  };
}

export interface ApiProcess {
  app: Api;
  background: Background;
  /**
   * Stops taking requests (in-flight ones finish), then the background work, then closes the system. With `drain`
   * (the server process on SIGTERM), the connections are drained first (http/drain.ts).
   */
  stop(options?: { drain?: DrainOptions }): Promise<void>;
}

/** The server: the HTTP application and the background work (maintenance, watcher, webhook worker). */
export async function startApiProcess(
  system: System,
  options: { logger?: FastifyServerOptions['logger']; background?: BackgroundOptions; port?: BoundPort } = {},
): Promise<ApiProcess> {
  const { config, database, clock, secrets, custody, policy, chains, tokens, transactionBroadcast, mailQueued, mailer, metrics } = system;
  // Imported here, not above: the operator CLI and the standalone worker open a System too, and the HTTP layer (Fastify,
  // every route and schema) was most of their start-up.
  const [{ buildApp }, { startBackgroundWork }] = await Promise.all([import('./http/app.js'), import('./workers/background.js')]);
  const app = await buildApp(
    { config, database, clock, secrets, custody, policy, chains, tokens, transactionBroadcast, mailQueued, metrics, ...(mailer ? { mailer } : {}) },
    { ...(options.logger === undefined ? {} : { logger: options.logger }), ...(options.port ? { port: options.port } : {}) },
  );
  logNarrowed(system, app.log);
  const background = await startBackgroundWork({ config, database, clock, secrets, custody, policy, chains, tokens, transactionBroadcast, mailQueued, metrics, log: app.log, ...(mailer ? { mailer } : {}) }, options.background);
  return {
    app,
    background,
    async stop({ drain } = {}) {
      if (drain) {
        const started = Date.now();
        app.log.info({ connections: app.drain.open }, 'draining connections');
        await app.drain.run(drain);
        app.log.info({ ms: Date.now() - started, left: app.drain.open }, 'connections drained');
      }
      await app.close();
      // After the server stops taking requests; deliveries in flight finish (or are retried by the next worker).
      await background.stop();
      await system.close();
    },
  };
}

/** Says at info that the start narrowed DATA_DIR's modes, naming it (docs/security.md#files-on-disk). */
export function logNarrowed(system: System, log: Log): void {
  if (system.dataDirNarrowed) log.info?.({ path: system.config.dataDir, ...system.dataDirNarrowed }, NARROWED_MESSAGE);
}

/** `npm run worker`: a webhook delivery worker alone. */
export async function startWorkerProcess(system: System, log: Log): Promise<{ worker: WebhookWorker; stop(): Promise<void> }> {
  logNarrowed(system, log);
  const { startWebhookWorker } = await import('./workers/webhook-worker.js');
  const worker = await startWebhookWorker({ database: system.database, secrets: system.secrets, clock: system.clock, config: system.config.webhooks, log, metrics: system.metrics });
  return {
    worker,
    async stop() {
      await worker.stop();
      await system.close();
    },
  };
}

/**
 * For process entry points: the opened system, or one line on stderr and the exit code that says why not: 75 when
 * another process holds the embedded database (try again later), 78 when ENCRYPTION_KEY is not the database's, a
 * TOKENS entry is not what its chain says, or the PKCS#11 token cannot be opened (CUSTODY_KEYS=pkcs11),
 * 69 when the database cannot be reached.
 */
export async function openSystemOrExit(config: Config, progress?: StartupProgress): Promise<System> {
  try {
    return await openSystem(config, {}, progress);
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      process.stderr.write(`startup error: ${err.message}\n`);
      process.exit(75); // EX_TEMPFAIL
    }
    if (err instanceof TokenRegistryError) {
      process.stderr.write(err.problems.map((problem) => `configuration error: ${problem}\n`).join(''));
      process.exit(78); // EX_CONFIG
    }
    if (err instanceof EncryptionKeyMismatchError || err instanceof TokenConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    process.stderr.write(`startup error: cannot open the database: ${(err as Error).message}\n`);
    process.exit(69); // EX_UNAVAILABLE
  }
}
