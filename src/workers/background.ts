import type { ChainRegistry } from '../chain/chain-client.js';
import { treasuryFor } from '../chain/treasury.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Database } from '../db/database.js';
import { startMaintenance } from './maintenance.js';
import { startResealWorker, type ResealWorker } from './reseal-worker.js';
import type { Signal } from './signal.js';
import { startTransactionWatcher, type TransactionWatcher } from './transaction-watcher.js';
import { startWebhookWorker, type WebhookWorker } from './webhook-worker.js';
import type { Log } from '../log.js';
import type { Mailer } from '../mail/mailer.js';
import type { Metrics } from '../metrics/metrics.js';
import { startMailSender, type MailSender } from './mail-sender.js';
import { startVaultSnapshots, type VaultSnapshots } from './vault-snapshots.js';
import { startIncomingWatcher, type IncomingWatcher } from './incoming-watcher.js';
import { startRescreenWorker, type RescreenWorker } from './rescreen-worker.js';
import { startReconcileScheduler } from './reconcile-scheduler.js';
import { chainReconciliationDeps } from '../domain/reconciliation/chain-run.js';
import type { TokenRegistry } from '../domain/tokens/token-registry.js';
import type { Policy } from '../domain/context.js';
import type { CustodyKeys } from '../chain/custody-keys.js';

export interface BackgroundDeps {
  config: Config;
  database: Database;
  clock: Clock;
  secrets: SecretBox;
  /** Custody keys (CUSTODY_KEYS): the treasury's, when the token holds it. */
  custody?: CustodyKeys;
  log: Log;
  chains: ChainRegistry;
  /** The rules of configuration: its listed wallet addresses are screened at payouts and incoming transfers. */
  policy?: Policy;
  /** The listed tokens, whose transfers to wallets the incoming watcher records. */
  tokens: TokenRegistry;
  /** Wakes the transaction watcher after a broadcast. */
  transactionBroadcast?: Signal;
  /** Wakes the mail sender after mail was queued. */
  mailQueued?: Signal;
  /** SMTP_URL's transport, for the mail sender (invitations); none: mail stays queued or held. */
  mailer?: Mailer;
  metrics?: Metrics;
}

export interface BackgroundOptions {
  /** Run the webhook delivery worker here (default WEBHOOK_WORKER; with 0 only `npm run worker` processes deliver). */
  webhooks?: boolean;
  /**
   * Run the periodic maintenance (default true). The test harness turns it off: its tests move a fake clock by
   * days and purge on purpose, and a round firing on its own in the middle would make them depend on timing.
   */
  maintenance?: boolean;
}

export interface Background {
  worker: WebhookWorker | undefined;
  watcher: TransactionWatcher | undefined;
  /** Sends queued mail and expires invitations (docs/invitations.md). */
  mail: MailSender;
  /** Records the vaults' share prices for the APYs (when chains are configured). */
  vaultSnapshots: VaultSnapshots | undefined;
  /** Records transfers to the accounts' wallets from outside (when chains are configured; docs/incoming.md). */
  incoming: IncomingWatcher | undefined;
  /** Screens every customer again when the screening lists change (when lists are configured). */
  rescreen: RescreenWorker | undefined;
  /** Re-seals every sealed value under the newest key, when it changed (finished: its pass is over). */
  reseal: ResealWorker;
  /** Stops maintenance, the watcher and the worker (deliveries in flight finish or are handed back). */
  stop(): Promise<void>;
}

/**
 * The work a server process does besides answering requests: the maintenance purge, the transaction and incoming
 * watchers (when chains are configured), and the webhook delivery worker unless WEBHOOK_WORKER=0.
 */
export async function startBackgroundWork(deps: BackgroundDeps, options: BackgroundOptions = {}): Promise<Background> {
  const stopMaintenance =
    options.maintenance === false
      ? () => {}
      : startMaintenance({ db: deps.database.db, clock: deps.clock, log: deps.log, secrets: deps.secrets, intervalMs: 60_000, eventRetentionDays: deps.config.eventRetentionDays, vacuum: deps.database.kind === 'pglite' });
  const worker =
    (options.webhooks ?? deps.config.webhooks.runWorker)
      ? await startWebhookWorker({ database: deps.database, secrets: deps.secrets, clock: deps.clock, config: deps.config.webhooks, log: deps.log, ...(deps.metrics ? { metrics: deps.metrics } : {}) })
      : undefined;
  const addressScreen = () => deps.policy?.addressScreen;
  const treasury = treasuryFor({ key: deps.config.deposits.treasuryKey, sandbox: deps.config.appEnv === 'sandbox', secrets: deps.secrets, custody: deps.custody });
  const watcher =
    deps.chains.chainIds().length > 0
      ? startTransactionWatcher({ database: deps.database, chains: deps.chains, clock: deps.clock, log: deps.log, addressScreen, ...(treasury ? { treasury } : {}), ...(deps.metrics ? { metrics: deps.metrics } : {}) })
      : undefined;
  const vaultSnapshots =
    deps.chains.chainIds().length > 0 ? startVaultSnapshots({ database: deps.database, chains: deps.chains, config: deps.config.vaults, clock: deps.clock, log: deps.log }) : undefined;
  const incoming =
    deps.chains.chainIds().length > 0 ? startIncomingWatcher({ database: deps.database, chains: deps.chains, tokens: deps.tokens, config: deps.config.incoming, clock: deps.clock, log: deps.log, addressScreen, treasury: treasury?.address }) : undefined;
  const reconcile =
    deps.chains.chainIds().length > 0 && deps.config.reconcile.chainEveryMs > 0
      ? startReconcileScheduler({ ...chainReconciliationDeps({ ...deps, tokens: deps.tokens }), everyMs: deps.config.reconcile.chainEveryMs, log: deps.log })
      : undefined;
  const lists = deps.policy?.screening;
  const rescreen = lists ? startRescreenWorker({ database: deps.database, lists, clock: deps.clock, log: deps.log }) : undefined;
  const reseal = startResealWorker({ database: deps.database, secrets: deps.secrets, clock: deps.clock, log: deps.log, batch: deps.config.resealBatch });
  const mail = startMailSender({ database: deps.database, secrets: deps.secrets, clock: deps.clock, log: deps.log, ...(deps.mailer ? { mailer: deps.mailer } : {}) });
  const unlisten = watcher ? deps.transactionBroadcast?.on(() => watcher.kick()) : undefined;
  const unlistenMail = deps.mailQueued?.on(() => mail.kick());
  return {
    worker,
    watcher,
    mail,
    vaultSnapshots,
    incoming,
    rescreen,
    reseal,
    async stop() {
      stopMaintenance();
      reconcile?.stop();
      unlisten?.();
      unlistenMail?.();
      await watcher?.stop();
      await vaultSnapshots?.stop();
      await incoming?.stop();
      await rescreen?.stop();
      await reseal.stop();
      await worker?.stop();
      await mail.stop();
    },
  };
}
