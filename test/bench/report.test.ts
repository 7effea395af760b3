import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cpuChecks, threadSplitNote, type BareEquivalentFigures } from '../../bench/lib/cpu-goals.js';
import { watchCpu, type ThreadSplit } from '../../bench/lib/cpu.js';
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

describe('bench report: CPU by thread', () => {
  it('counts the server process by thread from /proc: work on the event loop shows on the event loop', { skip: process.platform !== 'linux' }, () => {
    const watch = watchCpu({ serverPid: process.pid, pids: [] });
    // 300 ms of CPU on this thread (measured by the process's own counter, not by a clock).
    const start = process.cpuUsage().user;
    let spin = 0;
    while (process.cpuUsage().user - start < 300_000) spin++;
    const { serverCpuPct, serverThreadsPct } = watch.stop();
    assert.ok(spin > 0 && serverThreadsPct && serverCpuPct !== undefined);
    assert.ok(serverThreadsPct.eventLoop > 0, `event loop ${serverThreadsPct.eventLoop}`);
    assert.ok(serverThreadsPct.eventLoop >= serverThreadsPct.pool + serverThreadsPct.v8 + serverThreadsPct.other, JSON.stringify(serverThreadsPct));
  });

  it('the CPU goal note gives both servers their medians by thread, in µs per request', () => {
    const split = (eventLoop: number): ThreadSplit => ({ eventLoop, pool: 0.06, v8: 0.001, other: 0 });
    const apiRound = (eventLoop: number, bare: number): ScenarioResult & BareEquivalentFigures => ({
      ...round(100),
      cpuMsPerRequest: eventLoop + 0.061,
      cpuMsPerRequestByThread: split(eventLoop),
      bareEquivalentCpuMsPerRequest: bare + 0.061,
      bareEquivalent: { ...round(120), cpuMsPerRequest: bare + 0.061, cpuMsPerRequestByThread: split(bare) },
    });
    const rounds = [{ whoami: apiRound(0.07, 0.05) }, { whoami: apiRound(0.08, 0.045) }, { whoami: apiRound(0.075, 0.055) }];
    assert.equal(threadSplitNote(rounds, 'whoami'), 'µs/req by thread (event loop/pool/V8/other): API 75.0/60.0/1.0/0.0, bare 50.0/60.0/1.0/0.0');
    assert.match(cpuChecks('postgres', rounds)[0]!.note!, /^median of 3 rounds, .*; µs\/req by thread/);
    assert.equal(threadSplitNote([{ whoami: round(100) }], 'whoami'), undefined, 'rounds without the split: no note');
  });
});
