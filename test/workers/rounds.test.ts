import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Rounds } from '../../src/workers/rounds.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('worker rounds', () => {
  it('runs one round at a time; kicks during a round become exactly one more round; nothing runs after stop', async () => {
    const ends: (() => void)[] = [];
    const errors: unknown[] = [];
    const rounds = new Rounds(
      () => new Promise<void>((resolve) => ends.push(resolve)),
      (err) => errors.push(err),
      60_000,
    );
    rounds.kick();
    rounds.kick();
    rounds.kick();
    assert.equal(ends.length, 1, 'no second round while the first runs');
    ends[0]!();
    await tick();
    assert.equal(ends.length, 2, 'the kicks it missed make one more round');
    ends[1]!();
    await tick();
    assert.equal(ends.length, 2, 'and only one');

    rounds.kick();
    const stopped = rounds.stop();
    rounds.kick();
    ends[2]!();
    await stopped;
    await tick();
    assert.equal(ends.length, 3, 'no round after stop');
    assert.deepEqual(errors, []);
  });

  it('reports a failed round and keeps running', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const rounds = new Rounds(
      async () => {
        runs++;
        if (runs === 1) throw new Error('boom');
      },
      (err) => errors.push(err),
      60_000,
    );
    rounds.kick();
    await tick();
    rounds.kick();
    await tick();
    assert.equal(runs, 2);
    assert.equal(errors.length, 1);
    await rounds.stop();
  });

  it('with a gap, kicks soon after a round share one later round; now() does not wait for the gap', async () => {
    let runs = 0;
    let ran: () => void = () => {};
    const rounds = new Rounds(
      async () => {
        runs++;
        ran();
      },
      (err) => assert.fail(String(err)),
      60_000,
      60_000,
    );
    rounds.kick();
    await tick();
    assert.equal(runs, 1, 'the first kick runs at once');
    rounds.kick();
    rounds.kick();
    await tick();
    assert.equal(runs, 1, 'kicks inside the gap wait for it');
    rounds.now();
    await tick();
    assert.equal(runs, 2, 'now() runs at once and takes the waiting kicks with it');
    rounds.kick();
    await tick();
    assert.equal(runs, 2);
    await rounds.stop();
    await tick();
    assert.equal(runs, 2, 'a deferred kick does not run after stop');

    // A short gap: the deferred kick runs by itself once the gap has passed.
    const short = new Rounds(async () => { runs++; ran(); }, (err) => assert.fail(String(err)), 60_000, 20);
    short.kick();
    await tick();
    const later = new Promise<void>((resolve) => (ran = resolve));
    short.kick();
    assert.equal(runs, 3);
    await later;
    assert.equal(runs, 4);
    await short.stop();
  });
});
