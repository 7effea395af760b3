import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { combineRounds, ratiosOf, roundRatiosOf, type BackendRun, type ScenarioResult } from '../../bench/lib/report.js';

/** The bench's arithmetic over alternating rounds (docs/benchmarks.md): ratios per round, then their median. */
const round = (reqPerSec: number, p99 = 10, statusCodes: Record<string, number> = { 200: reqPerSec }): ScenarioResult => ({
  connections: 50,
  reqPerSec,
  latencyP50Ms: p99 / 2,
  latencyP99Ms: p99,
  requests: reqPerSec,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  statusCodes,
  serverCpuPct: 100,
});

describe('bench report: alternating rounds', () => {
  it('a ratio is the median of the per-round ratios, with its spread, not the ratio of the medians', () => {
    // The machine slows down in round 2 for both scenarios alike: the per-round ratio stays 0.5.
    const run: BackendRun = {
      backend: 'postgres',
      idleRssMb: 100,
      scenarios: {},
      rounds: [
        { bare: round(1000), whoami: round(500), 'get-associated-person-details': round(400) },
        { bare: round(400), whoami: round(200), 'get-associated-person-details': round(100) },
        { bare: round(1000), whoami: round(600), 'get-associated-person-details': round(300) },
      ],
    };
    const spread = roundRatiosOf(run);
    assert.deepEqual(spread.whoamiVsBare, { median: 0.5, min: 0.5, max: 0.6, values: [0.5, 0.5, 0.6] });
    assert.deepEqual(spread.personDetailsVsWhoami?.values, [0.8, 0.5, 0.5]);
    assert.equal(ratiosOf(run).whoamiVsBare, 0.5);
    assert.equal(ratiosOf(run).personDetailsVsWhoami, 0.5);
  });

  it('a row combines its rounds: medians of req/s and latencies, summed counts, the RSS peak', () => {
    const combined = combineRounds([round(100, 30, { 200: 100 }), round(300, 10, { 200: 300 }), round(200, 20, { 200: 199, 503: 1 })], 250);
    assert.equal(combined.reqPerSec, 200);
    assert.equal(combined.latencyP99Ms, 20);
    assert.equal(combined.requests, 600);
    assert.deepEqual(combined.statusCodes, { 200: 599, 503: 1 });
    assert.equal(combined.maxRssMb, 250);
    assert.equal(combineRounds([round(100), round(300)], undefined).reqPerSec, 200, 'an even count: the mean of the middle two');
  });
});
