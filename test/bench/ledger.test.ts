import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SIDES, runLedgerBench } from '../../bench/lib/ledger-run.js';
import { postgresUrl } from '../harness/backends.js';

/**
 * The ledger bench (npm run bench:ledger, docs/benchmarks.md#ledger) at its smallest, as a guard that it measures what
 * it says: every side posts every transfer it counts, once, and its books balance. No timing is judged here.
 */
describe('bench:ledger at its smallest', { skip: postgresUrl() ? false : 'needs PostgreSQL (set TEST_DATABASE_URL): the bare equivalents use the pg driver' }, () => {
  it('the engine and both bare equivalents post every transfer, and each side balances', async () => {
    const writers = 4;
    const perWriter = 3;
    const result = await runLedgerBench({
      postgresUrl: postgresUrl()!,
      writers,
      customers: 5,
      rounds: 2,
      roundSeconds: 1,
      transfersPerWriter: perWriter,
      warmupSeconds: 0,
      probeTransfers: 2,
      reads: 3,
      quietWaitSeconds: 0,
    });
    assert.deepEqual(
      result.sides.map((s) => s.side),
      [...SIDES],
    );
    for (const side of result.sides) {
      assert.equal(side.failures, 0, side.side);
      // Two rounds of every writer's count, after the probe's transfers.
      assert.equal(side.transfers, 2 * writers * perWriter, side.side);
      assert.equal(side.books.committed, side.transfers + 2, side.side);
      assert.deepEqual(side.books.problems, [], `${side.side}'s books`);
      assert.equal(side.books.transactions, side.books.committed, side.side);
      assert.equal(side.books.entries, 2 * side.books.committed, side.side);
      assert.equal(BigInt(side.books.treasuryPosted) + BigInt(side.books.customersPosted), 0n, `${side.side}: treasury and customers sum to zero`);
      assert.ok(BigInt(side.books.customersPosted) > 0n, side.side);
      assert.ok(side.probe.roundTripsPerTransfer >= 3, `${side.side}: ${side.probe.roundTripsPerTransfer} round trips`);
      assert.ok(side.perSecond > 0 && side.latency.count === side.transfers, side.side);
    }
    assert.equal(result.reads.customerLedgerBalances.count, 3);
    assert.ok(result.ok);
  });
});
