import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attemptFields, failureText, retryInput, SUBSCRIPTION_DISABLED, type AttemptOutcome } from '../../../src/domain/webhooks/attempt-outcome.js';

describe('attempt outcomes as recorded', () => {
  const cases: [AttemptOutcome, ReturnType<typeof attemptFields>, string, ReturnType<typeof retryInput>][] = [
    [{ kind: 'delivered', status: 204, body: '', durationMs: 3 }, { responseStatus: 204, responseBody: '', error: null }, 'HTTP 204', { status: 204 }],
    [
      { kind: 'http_error', status: 503, body: 'busy', retryAfter: '7', durationMs: 3 },
      { responseStatus: 503, responseBody: 'busy', error: null },
      'HTTP 503',
      { status: 503, retryAfter: '7' },
    ],
    [
      { kind: 'network_error', reason: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1', durationMs: 1 },
      { responseStatus: null, responseBody: null, error: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1' },
      'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1',
      { status: null },
    ],
    [
      { kind: 'refused_address', reason: 'blocked_address: 10.0.0.1 is a private address', durationMs: 0 },
      { responseStatus: null, responseBody: null, error: 'blocked_address: 10.0.0.1 is a private address' },
      'blocked_address: 10.0.0.1 is a private address',
      { status: null },
    ],
    [{ kind: 'refused_url', reason: 'invalid_url', durationMs: 0 }, { responseStatus: null, responseBody: null, error: 'invalid_url' }, 'invalid_url', { status: null }],
    [SUBSCRIPTION_DISABLED, { responseStatus: null, responseBody: null, error: 'subscription_disabled' }, 'subscription_disabled', { status: null }],
  ];

  for (const [outcome, fields, text, input] of cases) {
    it(`${outcome.kind}: the attempt's columns, the delivery's lastError and the retry policy's input`, () => {
      assert.deepEqual(attemptFields(outcome), fields);
      assert.equal(failureText(outcome), text);
      assert.deepEqual(retryInput(outcome), input);
    });
  }
});
