import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { DestinationStream } from 'pino';
import type { ChainRegistry } from '../../src/chain/chain-client.js';
import { treasuryFor, type Treasury } from '../../src/chain/treasury.js';
import { createClient, type Client } from './client.js';
import type { CustodyKeys } from '../../src/chain/custody-keys.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openSystem, startApiProcess, type System } from '../../src/composition-root.js';
import { SecretBox } from '../../src/crypto/secret-box.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { createIntegrator } from '../../src/domain/integrators/integrators.js';
import type { Api } from '../../src/http/types.js';
import type { Policy } from '../../src/domain/context.js';
import { loggerOptions } from '../../src/logging.js';
import type { TransactionWatcher } from '../../src/workers/transaction-watcher.js';
import type { VaultSnapshots } from '../../src/workers/vault-snapshots.js';
import type { IncomingWatcher } from '../../src/workers/incoming-watcher.js';
import type { RescreenWorker } from '../../src/workers/rescreen-worker.js';
import type { WebhookWorker } from '../../src/workers/webhook-worker.js';
import type { MailSender } from '../../src/workers/mail-sender.js';
import { provisionDatabase, type Backend } from './backends.js';
import { TestClock } from './clock.js';

export interface SeededIntegrator {
  integratorId: string;
  publicKey: string;
  privateKey: string;
  client: Client;
}

export interface TestServer {
  backend: Backend;
  url: string;
  app: Api;
  database: Database;
  clock: TestClock;
  config: Config;
  /** The server's own secrets, to check what it sealed. */
  secrets: SecretBox;
  /** The in-process webhook worker, as the server runs it (absent with WEBHOOK_WORKER=0). */
  worker: WebhookWorker | undefined;
  /** The transaction watcher, as the server runs it when chains are configured (CHAIN_RPC_URLS). */
  watcher: TransactionWatcher | undefined;
  /** The mail sender (queued mail, invitation expiry): tests run its rounds with `mail.runOnce()`. */
  mail: MailSender;
  /** The vault share-price snapshots (when chains are configured): tests run a round with `runOnce()`. */
  vaultSnapshots: VaultSnapshots | undefined;
  /** The incoming watcher (when chains are configured): tests run a round on every chain with `runOnce()`. */
  incoming: IncomingWatcher | undefined;
  /** Screens every customer again against the lists in force (`runOnce()` after changing a list's files and `policy.screening.check()`). */
  rescreen: RescreenWorker | undefined;
  chains: ChainRegistry;
  /** The configuration's rules as the server uses them (its screening lists: a test reloads them with `check()`). */
  policy: Policy;
  /** Where deposits are paid out from (tests fund it on their anvil nodes); undefined without one. */
  treasury: Treasury | undefined;
  /** The custody keys the server signs with (CUSTODY_KEYS: sealed, or a PKCS#11 token). */
  custody: CustodyKeys;
  /** An integrator with a fresh read_write credential, created the way the operator CLI does it. */
  seedIntegrator(name?: string, scope?: 'read_write' | 'read_only'): Promise<SeededIntegrator>;
  /** A client for an existing private key, signing with this server's clock. */
  clientFor(privateKey: string): Client;
  /** The server's system (what the operator CLI's run() takes to work on this server's database and chains). */
  system: System;
  /**
   * Another server on this one's database, configuration, keys and clock, with its own connection pool, as a second
   * process of a deployment is (PostgreSQL: what the database serializes across processes, tested in one).
   */
  startPeer(): Promise<PeerServer>;
  close(): Promise<void>;
}

/** A second server beside a TestServer (startPeer): its URL, a client for it, and its stop. */
export interface PeerServer {
  url: string;
  clientFor(privateKey: string): Client;
  close(): Promise<void>;
}

export interface StartOptions {
  /**
   * Where the server's log lines go (JSON, one per line), written through the production logger options
   * (src/logging.ts `loggerOptions`: redaction and error serializer). At `info` unless env sets LOG_LEVEL.
   * Without it the server logs nothing.
   */
  logDestination?: DestinationStream;
}

/** Starts the real application on a free loopback port over a fresh database of the given backend. */
export async function startServer(backend: Backend, env: Record<string, string> = {}, options: StartOptions = {}): Promise<TestServer> {
  // Production needs a relying party; tests of production servers get one unless they name their own.
  const relyingParty = env.APP_ENV === 'production' ? { WEBAUTHN_RP_IDS: 'wallet.example', WEBAUTHN_ORIGINS: 'https://wallet.example' } : {};
  // Every test shares 127.0.0.1: the per-address limit on failed authentications is lifted unless a test sets it.
  // The harness supplies the database itself (PGlite or PostgreSQL), production included.
  const config = loadConfig({ APP_ENV: 'sandbox', LOG_LEVEL: 'silent', AUTH_FAILURE_LIMIT: '1000000', ALLOW_EMBEDDED_DATABASE_IN_PRODUCTION: '1', ...relyingParty, ...env });
  const { target, drop } = await provisionDatabase(backend, undefined, { migrated: true });
  const clock = new TestClock();
  // The server as main.ts composes it, over this test's database, clock and key. Maintenance stays off: tests move
  // the clock by days and purge on purpose (background.ts says why).
  const system = await openSystem(config, { database: await openDatabase(target), clock: clock.now, secrets: new SecretBox(randomBytes(32)), chainTimeoutMs: 5_000 });
  const { database, secrets, chains, policy, custody } = system;
  const logger = options.logDestination ? loggerOptions(env.LOG_LEVEL ? config.logLevel : 'info', options.logDestination) : undefined;
  const api = await startApiProcess(system, { ...(logger ? { logger } : {}), background: { maintenance: false } });
  const { app } = api;
  const { worker, watcher, mail, vaultSnapshots, incoming, rescreen } = api.background;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const treasury = treasuryFor({ key: config.deposits.treasuryKey, sandbox: config.appEnv === 'sandbox', secrets, custody });

  const clientFor = (privateKey: string) => createClient({ baseUrl: url, privateKey, now: () => clock.seconds() });
  return {
    backend,
    url,
    app,
    database,
    clock,
    config,
    secrets,
    worker,
    watcher,
    mail,
    vaultSnapshots,
    incoming,
    rescreen,
    chains,
    policy,
    treasury,
    custody,
    clientFor,
    system,
    async startPeer() {
      // An embedded database is one process's own: a peer would open another, empty one.
      if (target.kind !== 'postgres') throw new Error('startPeer needs PostgreSQL');
      const peerSystem = await openSystem(config, { database: await openDatabase(target), clock: clock.now, secrets, chainTimeoutMs: 5_000 });
      const peer = await startApiProcess(peerSystem, { background: { maintenance: false, webhooks: false } });
      await peer.app.listen({ port: 0, host: '127.0.0.1' });
      const peerUrl = `http://127.0.0.1:${(peer.app.server.address() as AddressInfo).port}`;
      return { url: peerUrl, clientFor: (privateKey) => createClient({ baseUrl: peerUrl, privateKey, now: () => clock.seconds() }), close: () => peer.stop() };
    },
    async seedIntegrator(name = 'Test Integrator', scope = 'read_write') {
      const created = await createIntegrator(database, { name, scope }, clock.now());
      return { integratorId: created.integratorId, publicKey: created.publicKey, privateKey: created.privateKey!, client: clientFor(created.privateKey!) };
    },
    async close() {
      try {
        await api.stop();
      } finally {
        // Always drop the per-test database, even when a test closed the connection itself.
        await drop();
      }
    },
  };
}
