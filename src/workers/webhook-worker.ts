import type { Clock } from '../clock.js';
import type { WebhookConfig } from '../config.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Database } from '../db/database.js';
import type { Claimed } from '../db/repositories/webhook-deliveries.js';
import { SUBSCRIPTION_DISABLED, type AttemptOutcome } from '../domain/webhooks/attempt-outcome.js';
import type { Resolver } from '../domain/webhooks/url-safety.js';
import type { Log } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import { startClaimLoop, type ClaimLoop } from './webhook-claim-loop.js';
import { AttemptRecorder } from './webhook-recorder.js';
import { loadBatch, partsOf, WebhookSigner, type Batch } from './webhook-request.js';
import { WebhookSender } from './webhook-sender.js';

export interface WebhookWorkerDeps {
  database: Database;
  secrets: SecretBox;
  clock: Clock;
  config: WebhookConfig;
  log: Log;
  /** Tests inject a resolver to exercise the connect-time address check. */
  resolve?: Resolver;
  /** Longest sleep between looks at the outbox when no NOTIFY arrives (a missed one, or a retry coming due). */
  pollIntervalMs?: number;
  /** Counts attempts by outcome (GET /metrics). */
  metrics?: Metrics;
}

export interface WebhookWorker {
  /** Look at the outbox now (NOTIFY does this on its own). */
  kick(): void;
  /** Stops claiming, waits for deliveries in flight, releases connections. */
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 2000;

/**
 * Delivers the outbox: the claim loop hands each claimed delivery to `deliver`, which signs and POSTs it
 * (sender) and hands the outcome to the recorder (attempt row, next step, subscription health).
 */
export async function startWebhookWorker(deps: WebhookWorkerDeps): Promise<WebhookWorker> {
  const { database, clock, config, log } = deps;
  const sender = new WebhookSender({ timeoutMs: config.timeoutMs, allowPrivate: config.allowPrivate, ...(deps.resolve ? { resolve: deps.resolve } : {}) });
  const signer = new WebhookSigner(deps.secrets);
  // A worker holds at most 3 × concurrency claims: queued (claimed ahead), in flight, and sent but unrecorded.
  const recorder = new AttemptRecorder({
    database,
    clock,
    log,
    retryScheduleMs: config.retryScheduleMs,
    disableAfterMs: config.disableAfterMs,
    limit: config.concurrency,
    onRoom: () => loop.kick(),
  });

  async function deliver(claim: Claimed, batch: Batch): Promise<void> {
    const parts = partsOf(batch, claim);
    if (!parts) return;
    const { event, subscription, keys } = parts;
    let outcome: AttemptOutcome = SUBSCRIPTION_DISABLED;
    if (subscription.enabled) {
      const body = JSON.stringify(event);
      outcome = await sender.send(subscription.url, signer.headersFor(subscription, keys, event.id, body, clock()), body);
    }
    await recorder.record({ claim, outcome, attemptedAt: new Date(clock().getTime() - outcome.durationMs) });
    deps.metrics?.webhookAttempt(outcome.kind, outcome.durationMs / 1000);
    // One line per attempt, for operators following deliveries in the logs. Never the URL (it may carry a token in
    // its query) nor the body: ids, the outcome, the receiver's status or the reason it failed.
    log.info?.(
      {
        deliveryId: claim.id,
        eventId: claim.eventId,
        subscriptionId: claim.subscriptionId,
        attempt: claim.attempts + 1,
        outcome: outcome.kind,
        ...('status' in outcome ? { status: outcome.status } : {}),
        ...('reason' in outcome ? { reason: outcome.reason } : {}),
        durationMs: Math.round(outcome.durationMs),
      },
      'webhook delivery attempt',
    );
  }

  const loop: ClaimLoop = await startClaimLoop<Batch>({
    database,
    clock,
    log,
    concurrency: config.concurrency,
    // A claim outlives the slowest attempt by a margin (config: longer than timeoutMs); only then may another worker take it over.
    leaseMs: config.leaseMs,
    pollIntervalMs: deps.pollIntervalMs ?? 1000,
    load: (claimed, now) => loadBatch(database.db, claimed, now),
    deliver,
    holdBack: () => recorder.full,
  });

  return {
    kick: loop.kick,
    async stop() {
      // Past the grace, connections are cut (their attempts fail and are retried) and waiting successes recorded.
      await loop.stop(Math.min(config.timeoutMs, STOP_GRACE_MS), () => {
        sender.close();
        recorder.flush();
      });
      recorder.flush();
      await recorder.drain();
    },
  };
}
