import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId, UUID_PATTERN } from '../../src/domain/ids.js';

// newId's random bytes come from a pool of 256 ids' worth, refilled when used up (src/domain/ids.ts): these runs cross
// dozens of refills.
describe('newId: UUIDv7 from a pooled random source', () => {
  it('gives RFC 9562 version 7 ids whose time field is the clock and that sort in the order they were made', () => {
    const before = Date.now();
    const ids = Array.from({ length: 20_000 }, () => newId());
    const after = Date.now();
    for (const id of ids) {
      assert.match(id, UUID_PATTERN);
      assert.equal(id[14], '7', `version 7: ${id}`);
      assert.match(id[19]!, /[89ab]/, `RFC variant: ${id}`);
      const msecs = Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
      // One more than the clock only when 2^32 ids were made in one millisecond.
      assert.ok(msecs >= before && msecs <= after, `time field ${msecs} within ${before}..${after}`);
    }
    for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1]! < ids[i]!, `${ids[i - 1]} sorts before ${ids[i]}`);
  });

  it('never reuses random bits: the 42 random bits after the sequence differ between all ids, across the pool refills', () => {
    const ids = Array.from({ length: 20_000 }, () => newId());
    const tails = new Set(ids.map((id) => id.slice(-11)));
    // Among 20,000 draws of 42 bits, a repeat has a chance of about 5e-5; a pool used twice repeats 256-id runs.
    assert.equal(tails.size, ids.length);
  });

  it('starts each millisecond at a random sequence, not at zero or one past where the last one stopped', () => {
    const runs: { first: number; last: number }[] = [];
    let msecs = '';
    while (runs.length < 64) {
      const id = newId();
      if (id.slice(0, 13) !== msecs) runs.push({ first: sequenceOf(id), last: sequenceOf(id) });
      else runs.at(-1)!.last = sequenceOf(id);
      msecs = id.slice(0, 13);
    }
    // A 32-bit start drawn at random: each coincidence below has a chance of 2^-31.
    assert.equal(new Set(runs.map((run) => run.first)).size, runs.length, 'distinct starts');
    for (let i = 1; i < runs.length; i++) assert.notEqual(runs[i]!.first, (runs[i - 1]!.last + 1) | 0, 'a start where the last millisecond stopped');
  });
});

/** The 32-bit sequence of a v7 id as newId lays it out: 4 bits after the version, 8, 6 after the variant, 8, 6. */
function sequenceOf(id: string): number {
  const byte = (k: number) => Number.parseInt(id.replaceAll('-', '').slice(2 * k, 2 * k + 2), 16);
  return (((byte(6) & 0x0f) << 28) | (byte(7) << 20) | ((byte(8) & 0x3f) << 14) | (byte(9) << 6) | (byte(10) >>> 2)) | 0;
}
