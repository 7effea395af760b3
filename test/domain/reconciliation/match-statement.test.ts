import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCamt053 } from '../../../src/domain/reconciliation/camt053.js';
import { type ExpectedMovement, matchStatement } from '../../../src/domain/reconciliation/match-statement.js';
import { normalizeReference } from '../../../src/domain/reconciliation/reference-index.js';
import { fixture, line } from './helpers.js';

const deposit = (id: string, reference: string, amountMinor: bigint, date = '2024-05-01'): ExpectedMovement => ({ id, kind: 'deposit', reference, direction: 'credit', amountMinor, currency: 'EUR', date });
const payout = (id: string, reference: string, amountMinor: bigint, date = '2024-05-01'): ExpectedMovement => ({ id, kind: 'payout', reference, direction: 'debit', amountMinor, currency: 'EUR', date });
const payoutReturn = (id: string, reference: string, amountMinor: bigint, date = '2024-05-01'): ExpectedMovement => ({ id, kind: 'payout_return', reference, direction: 'credit', amountMinor, currency: 'EUR', date });

describe('matchStatement: the rules one at a time', () => {
  it('normalizes references: case, spaces, ASCII and Unicode dashes, full-width letters', () => {
    assert.equal(normalizeReference(' dep – 7k3m 9q2x\u00a0r4tb '), 'DEP7K3M9Q2XR4TB');
    assert.equal(normalizeReference('ＤＥＰ‐AB'), 'DEPAB');
  });

  it('matches a reference the bank reformatted or wrapped over two remittance lines, by direction and amount', () => {
    const result = matchStatement(
      [
        line({ lineId: 'L1', references: ['GUTSCHRIFT dep 7k3m 9q2x r4tb'], amountMinor: 125_050n }),
        line({ lineId: 'L2', references: ['REFERENCE DEP-HX4T', 'Q0N7PZ2M THANK YOU'], amountMinor: 100n }),
        line({ lineId: 'L3', direction: 'debit', references: ['WDR-5N8P2H6JZ1CA'], amountMinor: 30_000n }),
      ],
      [deposit('d1', 'DEP-7K3M9Q2XR4TB', 125_050n), deposit('d2', 'DEP-HX4TQ0N7PZ2M', 100n), payout('p1', 'WDR-5N8P2H6JZ1CA', 30_000n)],
    );
    assert.deepEqual(result, {
      matched: [
        { lineId: 'L1', expectedId: 'd1', kind: 'deposit' },
        { lineId: 'L2', expectedId: 'd2', kind: 'deposit' },
        { lineId: 'L3', expectedId: 'p1', kind: 'payout' },
      ],
      exceptions: [],
      unmatchedExpected: [],
      notBooked: [],
    });
  });

  it('an amount one cent off: one amount_mismatch, the movement left unmatched', () => {
    const result = matchStatement([line({ lineId: 'L1', references: ['DEP-A1B2C3D4E5F6'], amountMinor: 9_999n })], [deposit('d1', 'DEP-A1B2C3D4E5F6', 10_000n)]);
    assert.deepEqual(result.matched, []);
    assert.deepEqual(result.exceptions, [
      { type: 'amount_mismatch', lineId: 'L1', expectedId: 'd1', expectedAmountMinor: 10_000n, lineAmountMinor: 9_999n, detail: "the line's 99.99 EUR is not the 100.00 EUR of deposit DEP-A1B2C3D4E5F6" },
    ]);
    assert.deepEqual(result.unmatchedExpected, ['d1']);
  });

  it('a payout paid twice: the second line a duplicate, whichever the statement lists first a cent-off line is', () => {
    const paid = (id: string, amountMinor = 5_000n) => line({ lineId: id, direction: 'debit', references: ['WDR-Q3R4S5T6V7W8'], amountMinor });
    const twice = matchStatement([paid('L1'), paid('L2')], [payout('p1', 'WDR-Q3R4S5T6V7W8', 5_000n)]);
    assert.deepEqual(twice.matched, [{ lineId: 'L1', expectedId: 'p1', kind: 'payout' }]);
    assert.deepEqual(twice.exceptions.map((e) => [e.type, e.lineId, e.expectedId, e.detail]), [['duplicate', 'L2', 'p1', 'payout WDR-Q3R4S5T6V7W8 is matched already, by line L1']]);
    // The exact line wins even when listed second.
    const offFirst = matchStatement([paid('L1', 4_999n), paid('L2')], [payout('p1', 'WDR-Q3R4S5T6V7W8', 5_000n)]);
    assert.deepEqual(offFirst.matched, [{ lineId: 'L2', expectedId: 'p1', kind: 'payout' }]);
    assert.deepEqual(offFirst.exceptions.map((e) => [e.type, e.lineId]), [['duplicate', 'L1']]);
  });

  it('a line for a movement an earlier statement matched is a duplicate; that movement is not unmatched', () => {
    const result = matchStatement([line({ lineId: 'L1', references: ['DEP-A1B2C3D4E5F6'] })], [{ ...deposit('d1', 'DEP-A1B2C3D4E5F6', 10_000n), alreadyMatched: true }]);
    assert.deepEqual(result.exceptions.map((e) => [e.type, e.expectedId, e.detail]), [['duplicate', 'd1', 'deposit DEP-A1B2C3D4E5F6 is matched already, by an earlier statement']]);
    assert.deepEqual(result.unmatchedExpected, []);
  });

  it('the window: 5 days either way by default, the value date counting too, windowDays to change it', () => {
    const expected = [deposit('d1', 'DEP-A1B2C3D4E5F6', 10_000n, '2024-05-10')];
    const on = (bookingDate: string, valueDate?: string) => line({ lineId: 'L', references: ['DEP-A1B2C3D4E5F6'], bookingDate, ...(valueDate ? { valueDate } : {}) });
    assert.equal(matchStatement([on('2024-05-15')], expected).matched.length, 1);
    assert.equal(matchStatement([on('2024-05-05')], expected).matched.length, 1);
    assert.deepEqual(
      matchStatement([on('2024-05-16')], expected).exceptions.map((e) => [e.type, e.expectedId, e.detail]),
      [['date_outside_window', 'd1', 'the line (2024-05-16) is not within the window of deposit DEP-A1B2C3D4E5F6 (2024-05-10)']],
    );
    assert.equal(matchStatement([on('2024-05-16', '2024-05-14')], expected).matched.length, 1);
    assert.equal(matchStatement([on('2024-05-12')], expected, { windowDays: 1 }).exceptions[0]!.type, 'date_outside_window');
    assert.equal(matchStatement([on('2024-05-10')], expected, { windowDays: 0 }).matched.length, 1);
    assert.throws(() => matchStatement([], expected, { windowDays: -1 }), RangeError);
  });

  it('a currency that differs, and a line no reference of which names a movement', () => {
    const result = matchStatement(
      [line({ lineId: 'L1', currency: 'USD', references: ['DEP-A1B2C3D4E5F6'] }), line({ lineId: 'L2', references: ['Invoice 4711', 'FEE'] })],
      [deposit('d1', 'DEP-A1B2C3D4E5F6', 10_000n)],
    );
    assert.deepEqual(
      result.exceptions.map((e) => [e.type, e.lineId, e.expectedId]),
      [
        ['currency_mismatch', 'L1', 'd1'],
        ['unknown_line', 'L2', undefined],
      ],
    );
  });

  it("a returned payout matches the payout's payout_return, never the payout or a deposit; without one it is unknown", () => {
    const ret = line({ lineId: 'R', references: ['RETOURE WDR-Q3R4S5T6V7W8'], isReturn: true, amountMinor: 8_000n });
    const expected = [payout('p1', 'WDR-Q3R4S5T6V7W8', 8_000n), payoutReturn('r1', 'WDR-Q3R4S5T6V7W8', 8_000n)];
    assert.deepEqual(matchStatement([ret], expected).matched, [{ lineId: 'R', expectedId: 'r1', kind: 'payout_return' }]);
    const none = matchStatement([ret], [expected[0]!]);
    assert.deepEqual(none.exceptions.map((e) => [e.type, e.expectedId, e.detail]), [['unknown_line', 'p1', 'a returned credit naming payout WDR-Q3R4S5T6V7W8: a return matches only a payout_return, and none is expected for it']]);
    // A return naming a deposit is not that deposit arriving.
    const depositBack = line({ lineId: 'D', references: ['DEP-A1B2C3D4E5F6'], isReturn: true });
    assert.equal(matchStatement([depositBack], [deposit('d1', 'DEP-A1B2C3D4E5F6', 10_000n)]).exceptions[0]!.type, 'unknown_line');
  });

  it('pending and information lines are never matched: they are listed as notBooked', () => {
    const result = matchStatement([line({ lineId: 'P', booked: false, status: 'PDNG', references: ['DEP-A1B2C3D4E5F6'] })], [deposit('d1', 'DEP-A1B2C3D4E5F6', 10_000n)]);
    assert.deepEqual(result, { matched: [], exceptions: [], unmatchedExpected: ['d1'], notBooked: ['P'] });
  });
});

describe('matchStatement on the parsed fixtures', () => {
  it('camt.053.001.02: deposits (one batched), a payout, a returned payout; the pending deposit not booked', () => {
    const { lines } = parseCamt053(fixture('statement-001.02.xml')).statements[0]!;
    const expected: ExpectedMovement[] = [
      deposit('d1', 'DEP-7K3M9Q2XR4TB', 125_050n, '2024-01-14'),
      payout('p1', 'WDR-5N8P2H6JZ1CA', 30_000n, '2024-01-15'),
      deposit('d2', 'DEP-A1B2C3D4E5F6', 10_000n, '2024-01-13'),
      deposit('d3', 'DEP-G7H8J9K0M1N2', 5_001n, '2024-01-15'),
      { ...payout('p2', 'WDR-Q3R4S5T6V7W8', 8_000n, '2024-01-08'), alreadyMatched: true },
      payoutReturn('r2', 'WDR-Q3R4S5T6V7W8', 8_000n, '2024-01-15'),
      deposit('d4', 'DEP-HX4TQ0N7PZ2M', 4_200n, '2024-01-16'),
    ];
    const result = matchStatement(lines, expected);
    assert.deepEqual(result.matched, [
      { lineId: '2024011500001', expectedId: 'd1', kind: 'deposit' },
      { lineId: '2024011500002', expectedId: 'p1', kind: 'payout' },
      { lineId: '2024011500003/1', expectedId: 'd2', kind: 'deposit' },
      { lineId: '2024011500004', expectedId: 'r2', kind: 'payout_return' },
    ]);
    assert.deepEqual(result.exceptions.map((e) => [e.type, e.lineId, e.expectedId, e.expectedAmountMinor, e.lineAmountMinor]), [['amount_mismatch', '2024011500003/2', 'd3', 5_001n, 5_000n]]);
    assert.deepEqual(result.unmatchedExpected, ['d3', 'd4']);
    assert.deepEqual(result.notBooked, ['entry-5']);
  });

  it('camt.053.001.08: a wrapped reference, a reversed payout, a batch of payouts, a charge nobody expected', () => {
    const { lines } = parseCamt053(fixture('statement-001.08.xml')).statements[0]!;
    const usd = (e: ExpectedMovement): ExpectedMovement => ({ ...e, currency: 'USD' });
    const expected = [
      usd(deposit('d1', 'DEP-HX4TQ0N7PZ2M', 100_000n, '2024-03-02')),
      usd(payoutReturn('r1', 'WDR-M2K8D5FR9WQ1', 25_000n, '2024-03-04')),
      usd(payout('p1', 'WDR-3V7EZ0T9GCN5', 45_000n, '2024-03-03')),
      usd(payout('p2', 'WDR-9F2KYDP6RB3T', 25_000n, '2024-02-20')),
    ];
    const result = matchStatement(lines, expected);
    assert.deepEqual(
      result.matched.map((m) => [m.lineId, m.expectedId]),
      [
        ['FT24064QW81K', 'd1'],
        ['FT24064RV0093', 'r1'],
        ['entry-3/1', 'p1'],
      ],
    );
    assert.deepEqual(
      result.exceptions.map((e) => [e.type, e.lineId, e.expectedId]),
      [
        ['date_outside_window', 'entry-3/2', 'p2'],
        ['unknown_line', 'FEE-20240304', undefined],
      ],
    );
    assert.deepEqual(result.notBooked, ['FT24065INF001']);
    assert.deepEqual(result.unmatchedExpected, ['p2']);
  });
});
