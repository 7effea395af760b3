import type { AttemptResult } from './retry-policy.js';

/**
 * What one POST to a receiver came to. `reason` is the text recorded as the attempt's error (and the delivery's
 * lastError), exactly as the API shows it: `timeout: …`, `ECONNREFUSED: …`, `blocked_address: …`, `invalid_url`…
 */
export type SendOutcome =
  /** A 2xx answer. */
  | { kind: 'delivered'; status: number; body: string; durationMs: number }
  /** Any other answer (3xx is not followed, so it is one too). */
  | { kind: 'http_error'; status: number; body: string; retryAfter: string | undefined; durationMs: number }
  /** No answer: DNS, connection, TLS, or the deadline. */
  | { kind: 'network_error'; reason: string; durationMs: number }
  /** The host is, or resolved to, a non-public address (checked before and at connect time). */
  | { kind: 'refused_address'; reason: string; durationMs: number }
  /** Nothing was sent: the URL does not parse, or its scheme is not allowed here. */
  | { kind: 'refused_url'; reason: string; durationMs: number };

/** An attempt as recorded: a send, or none because the subscription was disabled after the claim. */
export type AttemptOutcome = SendOutcome | { kind: 'subscription_disabled'; durationMs: 0 };

export const SUBSCRIPTION_DISABLED: AttemptOutcome = { kind: 'subscription_disabled', durationMs: 0 };

/** The webhook_attempts columns an outcome fills. */
export interface AttemptFields {
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}

export function attemptFields(outcome: AttemptOutcome): AttemptFields {
  switch (outcome.kind) {
    case 'delivered':
    case 'http_error':
      return { responseStatus: outcome.status, responseBody: outcome.body, error: null };
    case 'subscription_disabled':
      return { responseStatus: null, responseBody: null, error: 'subscription_disabled' };
    default:
      return { responseStatus: null, responseBody: null, error: outcome.reason };
  }
}

/** The delivery's lastError after a failed attempt: the error, else the status the receiver answered. */
export function failureText(outcome: AttemptOutcome): string {
  const { error, responseStatus } = attemptFields(outcome);
  return error ?? `HTTP ${responseStatus}`;
}

/** What the retry policy looks at. */
export function retryInput(outcome: AttemptOutcome): AttemptResult {
  if (outcome.kind === 'delivered') return { status: outcome.status };
  if (outcome.kind === 'http_error') return { status: outcome.status, retryAfter: outcome.retryAfter };
  return { status: null };
}
