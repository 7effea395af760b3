import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { deliveryAfter, MAX_RETRY_AFTER_MS, nextStep, parseRetryAfter, withJitter } from '../../../src/domain/webhooks/retry-policy.js';
import { isSubscribableType, patternsMatching } from '../../../src/domain/events/catalogue.js';

const SCHEDULE = [5_000, 300_000, 1_800_000];
const NOW = new Date('2026-11-22T12:00:00Z');

describe('webhook retry policy', () => {
  it('ends on any 2xx, whatever the step', () => {
    fc.assert(fc.property(fc.integer({ min: 200, max: 299 }), fc.nat(10), (status, step) => assert.deepEqual(nextStep({ status }, step, SCHEDULE, NOW), { kind: 'succeeded' })));
  });

  it('treats 410 as gone, and every other status or no response as a failure to retry until the schedule is used up', () => {
    assert.deepEqual(nextStep({ status: 410 }, 0, SCHEDULE, NOW), { kind: 'gone' });
    fc.assert(
      fc.property(fc.oneof(fc.constant(null), fc.integer({ min: 100, max: 199 }), fc.integer({ min: 300, max: 599 }).filter((s) => s !== 410)), fc.nat(5), (status, step) => {
        const next = nextStep({ status }, step, SCHEDULE, NOW, () => 0.5);
        if (step >= SCHEDULE.length) assert.deepEqual(next, { kind: 'failed' });
        else assert.deepEqual(next, { kind: 'retry', delayMs: SCHEDULE[step], scheduleStep: step + 1 });
      }),
    );
  });

  it('keeps jitter within ±10 % of the scheduled delay', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 86_400_000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (delay, r) => {
        const jittered = withJitter(delay, () => r);
        assert.ok(jittered >= Math.floor(delay * 0.9) && jittered <= Math.ceil(delay * 1.1), `${delay} → ${jittered}`);
      }),
    );
  });

  it('honours Retry-After (seconds or HTTP date) on 429 and 503 only, capped at 24 h', () => {
    assert.deepEqual(nextStep({ status: 503, retryAfter: '120' }, 0, SCHEDULE, NOW), { kind: 'retry', delayMs: 120_000, scheduleStep: 1 });
    assert.deepEqual(nextStep({ status: 429, retryAfter: 'Sun, 22 Nov 2026 12:01:00 GMT' }, 1, SCHEDULE, NOW), { kind: 'retry', delayMs: 60_000, scheduleStep: 2 });
    assert.deepEqual(nextStep({ status: 500, retryAfter: '120' }, 0, SCHEDULE, NOW, () => 0.5), { kind: 'retry', delayMs: 5_000, scheduleStep: 1 });
    assert.equal(parseRetryAfter('999999999', NOW), MAX_RETRY_AFTER_MS);
    assert.equal(parseRetryAfter('Sat, 21 Nov 2026 12:00:00 GMT', NOW), 0, 'a date in the past means now');
    assert.equal(parseRetryAfter('soon', NOW), undefined);
    assert.equal(parseRetryAfter('-5', NOW), undefined);
    assert.equal(parseRetryAfter('Sun Nov 22 12:00:30 2026', NOW), 30_000, 'asctime');
    assert.equal(parseRetryAfter('Sunday, 22-Nov-26 12:00:30 GMT', NOW), 30_000, 'RFC 850');
    // An unreadable Retry-After falls back to the schedule.
    assert.deepEqual(nextStep({ status: 503, retryAfter: 'soon' }, 0, SCHEDULE, NOW, () => 0.5), { kind: 'retry', delayMs: 5_000, scheduleStep: 1 });
  });
});

describe('event type patterns', () => {
  it('matches a type by itself, by each prefix wildcard and by *', () => {
    assert.deepEqual(patternsMatching('user.verification_status.changed').sort(), ['*', 'user.*', 'user.verification_status.*', 'user.verification_status.changed'].sort());
  });

  it('accepts catalogue types, their prefixes with .* and *; nothing else', () => {
    for (const ok of ['*', 'user.*', 'user.created', 'entity.verification_status.*', 'webhook_subscription.*', 'transaction.*', 'transaction.status.*']) assert.ok(isSubscribableType(ok), ok);
    for (const bad of ['user', 'users.*', 'user.created.*', '*.created', 'user.*.changed', '', 'deposit.*']) assert.ok(!isSubscribableType(bad), bad);
  });
});

describe('deliveryAfter', () => {
  const now = new Date(Date.UTC(2026, 0, 1));
  it('a retry stays pending until its delay has passed, one step further on the schedule', () => {
    assert.deepEqual(deliveryAfter({ kind: 'retry', delayMs: 1500, scheduleStep: 3 }, 2, now), { status: 'pending', nextAttemptAt: new Date(now.getTime() + 1500), scheduleStep: 3 });
  });
  it('anything else ends the delivery where the schedule stood', () => {
    assert.deepEqual(deliveryAfter({ kind: 'succeeded' }, 2, now), { status: 'succeeded', nextAttemptAt: now, scheduleStep: 2 });
    assert.deepEqual(deliveryAfter({ kind: 'failed' }, 4, now), { status: 'failed', nextAttemptAt: now, scheduleStep: 4 });
    assert.deepEqual(deliveryAfter({ kind: 'gone' }, 0, now), { status: 'failed', nextAttemptAt: now, scheduleStep: 0 });
  });
});
