import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { parseBuild, summarize, table } from '../../bench/lib/side-by-side.js';

// bench/side-by-side.ts's own arithmetic: the builds it is given, and the ratios it prints from their rounds.

describe('bench:side-by-side', () => {
  it('reads a build and its environment', () => {
    assert.deepEqual(parseBuild('/tmp/before'), { dir: '/tmp/before', env: {} });
    assert.deepEqual(parseBuild('rel@A=1,B=x=y'), { dir: resolve('rel'), env: { A: '1', B: 'x=y' } });
    assert.deepEqual(parseBuild('/tmp/t@URL=postgres://a@b/c'), { dir: '/tmp/t', env: { URL: 'postgres://a@b/c' } });
    assert.throws(() => parseBuild('/tmp/t@OFF'), /"OFF" in \/tmp\/t@OFF is not NAME=value/);
  });

  it('takes each build against the equivalent round by round, then the median', () => {
    // Round 2 is slow for every server (the machine drifted): the per-round ratios stay 1.5 and 1.2.
    const summaries = summarize(
      {
        a: [
          { eventLoopUs: 80, totalUs: 150 },
          { eventLoopUs: 160, totalUs: 300 },
          { eventLoopUs: 82, totalUs: 153 },
        ],
        b: [
          { eventLoopUs: 70, totalUs: 120 },
          { eventLoopUs: 140, totalUs: 240 },
          { eventLoopUs: 71, totalUs: 122.4 },
        ],
        eq: [
          { eventLoopUs: 50, totalUs: 100 },
          { eventLoopUs: 100, totalUs: 200 },
          { eventLoopUs: 51, totalUs: 102 },
        ],
      },
      'eq',
    );
    const by = Object.fromEntries(summaries.map((s) => [s.name, s]));
    assert.equal(by.a!.vsEquivalent, 1.5);
    assert.equal(by.b!.vsEquivalent, 1.2);
    assert.equal(by.eq!.vsEquivalent, undefined);
    assert.deepEqual(by.a!.eventLoop, { median: 82, min: 80, max: 160 });
    assert.equal(by.b!.totalMedian, 122.4);
    const text = table(summaries);
    assert.match(text, /^a +82\.0 \(80-160\) +153\.0 +1\.500$/m);
    assert.match(text, /^eq +51\.0 \(50-100\) +102\.0 +-$/m);
  });
});
