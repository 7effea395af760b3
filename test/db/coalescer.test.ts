import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Coalescer } from '../../src/db/coalescer.js';

/*
 * The coalescer (src/db/coalescer.ts) on its own, with batches the test releases by hand: whatever the arrivals and
 * the order batches finish in, every item gets its own result, batches stay within their bounds, an item that finds
 * nothing in flight goes at once, and a failed batch fails only its own items.
 */
interface Batch {
  items: number[];
  finish(fail?: boolean): void;
}

function harness(maxBatch: number, maxInFlight: number) {
  const started: Batch[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const coalescer = new Coalescer<number, number>(
    (items) =>
      new Promise<number[]>((resolve, reject) => {
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        started.push({
          items,
          finish: (fail) => {
            inFlight--;
            if (fail) reject(new Error(`batch ${items.join(',')} failed`));
            else resolve(items.map((i) => i * 10));
          },
        });
      }),
    { maxBatch, maxInFlight },
  );
  return { coalescer, started, mostInFlight: () => mostInFlight };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('coalescer', () => {
  it('an item that finds nothing in flight goes at once, alone; those arriving meanwhile go together next', async () => {
    const { coalescer, started } = harness(100, 1);
    const first = coalescer.submit(1);
    assert.deepEqual(started.map((b) => b.items), [[1]]);
    const rest = [2, 3, 4].map((i) => coalescer.submit(i));
    assert.equal(started.length, 1, 'waiting while the first is in flight');
    started[0]!.finish();
    assert.equal(await first, 10);
    await settle();
    assert.deepEqual(started.map((b) => b.items), [[1], [2, 3, 4]]);
    started[1]!.finish();
    assert.deepEqual(await Promise.all(rest), [20, 30, 40]);
  });

  it('any arrivals, batch sizes and finishing orders: each item its own result, within the bounds; a failed batch fails its own items only', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 3 }),
        // Steps: submit n items, or finish the k-th batch in flight (failing it or not).
        fc.array(fc.oneof(fc.record({ submit: fc.integer({ min: 1, max: 7 }) }), fc.record({ finish: fc.nat(), fail: fc.boolean() })), { maxLength: 40 }),
        async (maxBatch, maxInFlight, steps) => {
          const { coalescer, started, mostInFlight } = harness(maxBatch, maxInFlight);
          const outcomes = new Map<number, Promise<number | 'failed'>>();
          const failedItems = new Set<number>();
          const open: Batch[] = [];
          let next = 0;
          let seen = 0;
          const track = () => {
            open.push(...started.slice(seen));
            seen = started.length;
          };
          const finish = async (batch: Batch, fail: boolean) => {
            open.splice(open.indexOf(batch), 1);
            if (fail) batch.items.forEach((i) => failedItems.add(i));
            batch.finish(fail);
            await settle();
            track();
          };
          for (const step of steps) {
            if ('submit' in step) {
              for (let n = 0; n < step.submit; n++) {
                const item = next++;
                outcomes.set(
                  item,
                  coalescer.submit(item).catch(() => 'failed' as const),
                );
              }
              track();
            } else if (open.length > 0) {
              await finish(open[step.finish % open.length]!, step.fail);
            }
          }
          while (open.length > 0) await finish(open[0]!, false);
          for (const [item, outcome] of outcomes) assert.equal(await outcome, failedItems.has(item) ? 'failed' : item * 10);
          assert.ok(started.every((b) => b.items.length >= 1 && b.items.length <= maxBatch));
          assert.deepEqual(
            started.flatMap((b) => b.items),
            [...outcomes.keys()],
            'every item sent once, in the order submitted',
          );
          assert.ok(mostInFlight() <= maxInFlight);
        },
      ),
      { numRuns: 150 },
    );
  });
});
