/**
 * What happens after a delivery attempt, as a pure function of its outcome: success ends it; a failure waits
 * the schedule's next delay (with jitter, or the receiver's Retry-After on 429/503) or, once the schedule is
 * used up, fails it; 410 Gone ends it and disables the subscription.
 */

export interface AttemptResult {
  status: number | null;
  retryAfter?: string | undefined;
}

export type NextStep =
  | { kind: 'succeeded' }
  | { kind: 'retry'; delayMs: number; scheduleStep: number }
  | { kind: 'failed' }
  | { kind: 'gone' };

/** The longest Retry-After honoured: a receiver cannot park a delivery for longer than the schedule's last step. */
export const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;

export function isSuccess(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}

/** Retry-After as delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  // HTTP dates only (IMF-fixdate, RFC 850, asctime): Date.parse alone would take "-5" as the year -5.
  if (!/ GMT$/.test(text) && !/^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/.test(text)) return undefined;
  const at = Date.parse(/ GMT$/.test(text) ? text : `${text} GMT`);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(at - now.getTime(), 0), MAX_RETRY_AFTER_MS);
}

/** ±10 % so that deliveries failing together do not all come back at the same instant. */
export function withJitter(delayMs: number, random: () => number = Math.random): number {
  return Math.round(delayMs * (0.9 + 0.2 * random()));
}

export function nextStep(result: AttemptResult, scheduleStep: number, scheduleMs: readonly number[], now: Date, random: () => number = Math.random): NextStep {
  if (isSuccess(result.status)) return { kind: 'succeeded' };
  if (result.status === 410) return { kind: 'gone' };
  if (scheduleStep >= scheduleMs.length) return { kind: 'failed' };
  const retryAfter = result.status === 429 || result.status === 503 ? parseRetryAfter(result.retryAfter, now) : undefined;
  const delayMs = retryAfter ?? withJitter(scheduleMs[scheduleStep]!, random);
  return { kind: 'retry', delayMs, scheduleStep: scheduleStep + 1 };
}

/** Where a delivery stands after an attempt whose next step is `step`. */
export interface DeliveryState {
  status: 'pending' | 'succeeded' | 'failed';
  nextAttemptAt: Date;
  scheduleStep: number;
}

export function deliveryAfter(step: NextStep, scheduleStep: number, now: Date): DeliveryState {
  if (step.kind === 'retry') return { status: 'pending', nextAttemptAt: new Date(now.getTime() + step.delayMs), scheduleStep: step.scheduleStep };
  // Finished either way; nextAttemptAt no longer matters (now, as before).
  return { status: step.kind === 'succeeded' ? 'succeeded' : 'failed', nextAttemptAt: now, scheduleStep };
}
