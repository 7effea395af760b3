import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { finishAttempt, finishSuccesses, type Claimed, type SuccessRecord } from '../db/repositories/webhook-deliveries.js';
import { lockSubscriptionsBeforeDeliveries } from '../db/repositories/webhook-subscriptions.js';
import { newId } from '../domain/ids.js';
import { attemptFields, failureText, retryInput, type AttemptOutcome } from '../domain/webhooks/attempt-outcome.js';
import { deliveryAfter, nextStep, type NextStep } from '../domain/webhooks/retry-policy.js';
import { noteFailure, noteSuccesses } from '../domain/webhooks/subscription-health.js';
import type { Log } from '../log.js';

/** Successful attempts are recorded together: up to this many per transaction, or after FLUSH_DELAY_MS. */
const SUCCESS_BATCH = 32;
const FLUSH_DELAY_MS = 2;

export interface RecorderDeps {
  database: Database;
  clock: Clock;
  log: Log;
  retryScheduleMs: readonly number[];
  disableAfterMs: number;
  /** How many successes may wait to be recorded before `full` says to stop claiming. */
  limit: number;
  /** Called when the backlog drops below the limit again. */
  onRoom: () => void;
  /** The retry delays' jitter (tests pin it). */
  random?: () => number;
}

/** One attempt, ready to be recorded. */
export interface Attempt {
  claim: Claimed;
  outcome: AttemptOutcome;
  /** When the request started: the clock once it ended, less its duration. */
  attemptedAt: Date;
}

interface QueuedSuccess {
  record: SuccessRecord;
  done: () => void;
  failed: (err: unknown) => void;
}

/**
 * Records attempts' outcomes, each guarded by its claim token (a claim lost to another worker records nothing):
 * the attempt row, the delivery's next state (done, or its retry on the schedule), and the subscription's health.
 */
export class AttemptRecorder {
  private successes: QueuedSuccess[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  /** Successes sent but not yet recorded (their group's transaction has not committed). */
  private readonly unrecorded = new Set<Promise<void>>();

  constructor(private readonly deps: RecorderDeps) {}

  /** Back-pressure: the database is not keeping up with recording successes. */
  get full(): boolean {
    return this.unrecorded.size >= this.deps.limit;
  }

  /**
   * A success joins the next group and resolves at once: the caller's slot is free once the receiver answered
   * (the claim's lease keeps the delivery from being taken meanwhile). Anything else is recorded in its own
   * transaction before this resolves.
   */
  record(attempt: Attempt): Promise<void> {
    const { claim, outcome, attemptedAt } = attempt;
    if (outcome.kind !== 'delivered') return this.recordFailure(attempt);
    const record: SuccessRecord = {
      claim: { id: claim.id, token: claim.token },
      subscriptionId: claim.subscriptionId,
      attemptedAt,
      durationMs: outcome.durationMs,
      responseStatus: outcome.status,
      responseBody: outcome.body,
      now: this.deps.clock(),
    };
    const recording = this.queueSuccess(record)
      .catch((err: unknown) => this.deps.log.error({ err, deliveryId: claim.id }, 'webhook success not recorded; the delivery will be retried after its lease'))
      .finally(() => {
        this.unrecorded.delete(recording);
        if (this.unrecorded.size === this.deps.limit - 1) this.deps.onRoom();
      });
    this.unrecorded.add(recording);
    return Promise.resolve();
  }

  /** Records the successes waiting now, without waiting for the group to fill. */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const group = this.successes;
    this.successes = [];
    if (group.length > 0) this.recordSuccesses(group);
  }

  /** Resolves once every success handed over so far is recorded (or has failed to be); call flush() first. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.unrecorded]);
  }

  private queueSuccess(record: SuccessRecord): Promise<void> {
    return new Promise<void>((done, failed) => {
      this.successes.push({ record, done, failed });
      if (this.successes.length >= SUCCESS_BATCH) this.flush();
      else this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_DELAY_MS);
    });
  }

  /**
   * One transaction records a group of successes: their subscriptions locked first (the API's lock order), then
   * one statement. Failing streaks end after the commit, so the worker never waits for a subscription while
   * holding deliveries that another worker disabling it needs.
   */
  private recordSuccesses(group: QueuedSuccess[]): void {
    const { database, log } = this.deps;
    const records = group.map((g) => g.record);
    database.db
      .transaction(async (tx) => {
        await lockSubscriptionsBeforeDeliveries(tx, records.map((r) => r.subscriptionId), 'share');
        return finishSuccesses(tx, records);
      })
      .then(async ({ recorded, failingSubscriptions }) => {
        if (recorded.size < group.length) log.warn({ lost: group.length - recorded.size }, 'webhook claims lost before their attempts were recorded (lease expired)');
        // Recorded either way: a streak left open ends with the next success.
        await noteSuccesses(database.db, failingSubscriptions).catch((err: unknown) => log.error({ err, subscriptionIds: failingSubscriptions }, 'failing streak not ended'));
      })
      .then(
        () => group.forEach((g) => g.done()),
        (err: unknown) => group.forEach((g) => g.failed(err)),
      );
  }

  private async recordFailure({ claim, outcome, attemptedAt }: Attempt): Promise<void> {
    const { database, clock, log } = this.deps;
    const attempt = { attemptId: newId(), attemptedAt, durationMs: outcome.durationMs, ...attemptFields(outcome) };
    const lastError = failureText(outcome);
    // Nothing was sent to a subscription disabled after the claim: the delivery fails, its health is not at stake.
    const sent = outcome.kind !== 'subscription_disabled';
    await database.db.transaction(async (tx) => {
      await lockSubscriptionsBeforeDeliveries(tx, [claim.subscriptionId], 'update');
      const now = clock();
      const step: NextStep = sent ? nextStep(retryInput(outcome), claim.scheduleStep, this.deps.retryScheduleMs, now, this.deps.random) : { kind: 'failed' };
      const success = step.kind === 'succeeded';
      const next = { ...deliveryAfter(step, claim.scheduleStep, now), lastError: success ? null : lastError };
      if (!(await finishAttempt(tx, claim, { ...attempt, success }, next, now))) {
        log.warn({ deliveryId: claim.id }, 'webhook claim lost before the attempt was recorded (lease expired); another worker owns it');
        return;
      }
      if (sent) await noteFailure(tx, claim.subscriptionId, step.kind, lastError, now, this.deps.disableAfterMs);
    });
  }
}
