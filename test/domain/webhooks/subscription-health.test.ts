import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { verdictAfterFailure } from '../../../src/domain/webhooks/subscription-health.js';
import type { NextStep } from '../../../src/domain/webhooks/retry-policy.js';

const DAY_MS = 86_400_000;
const steps: NextStep['kind'][] = ['retry', 'failed', 'gone', 'succeeded'];

describe('subscription health after a failed attempt', () => {
  it('disables exactly when enabled and either gone or failing for disableAfterMs or longer', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.option(fc.integer({ min: 0, max: 30 * DAY_MS }), { nil: null }),
        fc.constantFrom(...steps),
        fc.integer({ min: 1, max: 10 * DAY_MS }),
        (enabled, streakMs, step, disableAfterMs) => {
          const now = new Date(Date.UTC(2026, 5, 1));
          const failingSince = streakMs === null ? null : new Date(now.getTime() - streakMs);
          const verdict = verdictAfterFailure({ enabled, failingSince }, step, 'HTTP 500', now, disableAfterMs);
          const tooLong = streakMs !== null && streakMs >= disableAfterMs;
          if (!enabled || (step !== 'gone' && !tooLong)) return assert.deepEqual(verdict, { kind: 'keep' });
          assert.equal(verdict.kind, 'disable');
          // 410 wins over a long streak: the endpoint said it is gone.
          assert.equal(verdict.kind === 'disable' && verdict.reason, step === 'gone' ? 'gone' : 'failing');
        },
      ),
    );
  });

  it('says why, in the words the disabled event carries', () => {
    const now = new Date(Date.UTC(2026, 5, 6));
    const since = new Date(Date.UTC(2026, 5, 1));
    assert.deepEqual(verdictAfterFailure({ enabled: true, failingSince: null }, 'gone', 'HTTP 410', now, DAY_MS), {
      kind: 'disable',
      reason: 'gone',
      detail: 'the endpoint answered 410 Gone',
    });
    assert.deepEqual(verdictAfterFailure({ enabled: true, failingSince: since }, 'retry', 'timeout: no complete response within 100 ms', now, 5 * DAY_MS), {
      kind: 'disable',
      reason: 'failing',
      detail: 'no successful delivery since 2026-06-01T00:00:00.000Z (last: timeout: no complete response within 100 ms)',
    });
    // One millisecond short of the limit keeps it.
    assert.deepEqual(verdictAfterFailure({ enabled: true, failingSince: new Date(since.getTime() + 1) }, 'retry', 'HTTP 500', now, 5 * DAY_MS), { kind: 'keep' });
  });
});
