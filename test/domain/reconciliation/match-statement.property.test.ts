import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type ExpectedMovement, matchStatement, type StatementExceptionType } from '../../../src/domain/reconciliation/match-statement.js';
import type { StatementLine } from '../../../src/domain/reconciliation/statement.js';

/**
 * Statements made from the expected movements themselves, each line as a bank might write it (reference in another
 * case, spaced, without its dash, wrapped over two texts, among other remittance text; booked within the window),
 * then differences injected on purpose: an unknown credit, a payout paid twice, an amount a cent off, a returned
 * payout nobody expects back, a date out of the window, another currency, a line for a movement an earlier
 * statement matched, a pending copy. The matcher must report exactly the injected differences, nothing else.
 */

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const BASE_DAY = Date.parse('2024-01-01T00:00:00Z') / 86_400_000;
const day = (n: number) => new Date((BASE_DAY + n) * 86_400_000).toISOString().slice(0, 10);
/** Remittance text around references: none of it contains DEP or WDR, so it names nothing by itself. */
const NOISE = ['', 'SEPA CREDIT', 'THANK YOU', 'INVOICE 4711', 'ORDER 99 / 2024'];

type Injection = 'none' | 'twice' | 'cent' | 'date' | 'currency' | 'returned' | 'pending';

const form = fc.record({ lower: fc.boolean(), spaced: fc.boolean(), dashless: fc.boolean(), splitAt: fc.integer({ min: 0, max: 16 }), before: fc.constantFrom(...NOISE), after: fc.constantFrom(...NOISE) });
type Form = typeof form extends fc.Arbitrary<infer T> ? T : never;

const movement = fc.record({
  body: fc.string({ unit: fc.constantFrom(...CROCKFORD), minLength: 12, maxLength: 12 }),
  kind: fc.constantFrom<'deposit' | 'payout'>('deposit', 'payout'),
  amountMinor: fc.bigInt({ min: 2n, max: 10n ** 12n }),
  currency: fc.constantFrom('EUR', 'USD'),
  dayOffset: fc.integer({ min: 0, max: 300 }),
  lineOffset: fc.integer({ min: -5, max: 5 }),
  alreadyMatched: fc.constantFrom(false, false, false, false, true),
  withReturn: fc.boolean(),
  inStatement: fc.constantFrom(true, true, true, false),
  injection: fc.constantFrom<Injection>('none', 'none', 'none', 'twice', 'cent', 'date', 'currency', 'returned', 'pending'),
  form,
  returnForm: form,
});

/** What a line is there for: the match or the exception it must come out as. `twice` lines are settled by order. */
type Intent = { match: string } | { exception: StatementExceptionType; expectedId?: string } | { twice: string } | { pending: true };

/** The reference as a bank might have rewritten it, in one or two texts among others. */
function written(reference: string, f: Form): string[] {
  let text = f.dashless ? reference.replace('-', '') : reference;
  if (f.lower) text = text.toLowerCase();
  if (f.spaced) text = text.replace(/(.{4})/g, '$1 ');
  const cut = Math.min(f.splitAt, text.length);
  return [f.before, text.slice(0, cut), text.slice(cut), f.after].filter((t) => t !== '');
}

type Movement = typeof movement extends fc.Arbitrary<infer T> ? T : never;

function scenario(movements: Movement[], unknown: { amountMinor: bigint; dayOffset: number }[], order: number[]) {
  const expected: ExpectedMovement[] = [];
  const lines: { line: StatementLine; intent: Intent }[] = [];
  const add = (line: Omit<StatementLine, 'lineId' | 'amount' | 'booked'> & { booked?: boolean }, intent: Intent) =>
    lines.push({ line: { lineId: `L${lines.length + 1}`, amount: 'n/a', booked: true, ...line }, intent });

  movements.forEach((m, n) => {
    const reference = `${m.kind === 'deposit' ? 'DEP' : 'WDR'}-${m.body}`;
    const e: ExpectedMovement = { id: `m${n}`, kind: m.kind, reference, direction: m.kind === 'deposit' ? 'credit' : 'debit', amountMinor: m.amountMinor, currency: m.currency, date: day(m.dayOffset), ...(m.alreadyMatched ? { alreadyMatched: true } : {}) };
    expected.push(e);
    const expectsReturn = m.kind === 'payout' && m.withReturn && !m.alreadyMatched;
    if (expectsReturn) {
      expected.push({ ...e, id: `m${n}-return`, kind: 'payout_return', direction: 'credit', date: day(m.dayOffset + 3) });
      if (m.inStatement) {
        add({ direction: 'credit', amountMinor: m.amountMinor, currency: m.currency, bookingDate: day(m.dayOffset + 3 + m.lineOffset), references: written(reference, m.returnForm), isReturn: true }, { match: `m${n}-return` });
      }
    }
    if (!m.inStatement) return;
    const own = { direction: e.direction, amountMinor: m.amountMinor, currency: m.currency, bookingDate: day(m.dayOffset + m.lineOffset), references: written(reference, m.form), isReturn: false };
    if (m.alreadyMatched) return add(own, { exception: 'duplicate', expectedId: e.id });
    switch (m.injection) {
      case 'cent':
        return add({ ...own, amountMinor: m.amountMinor + (m.lineOffset % 2 === 0 ? 1n : -1n) }, { exception: 'amount_mismatch', expectedId: e.id });
      case 'date':
        return add({ ...own, bookingDate: day(m.dayOffset + (m.lineOffset < 0 ? -6 : 6) + m.lineOffset) }, { exception: 'date_outside_window', expectedId: e.id });
      case 'currency':
        return add({ ...own, currency: 'GBP' }, { exception: 'currency_mismatch', expectedId: e.id });
      case 'twice':
        if (m.kind !== 'payout') return add(own, { match: e.id });
        add(own, { twice: e.id });
        return add({ ...own, references: written(reference, m.returnForm) }, { twice: e.id });
      case 'returned':
        add(own, { match: e.id });
        if (m.kind === 'payout' && !expectsReturn) add({ ...own, direction: 'credit', isReturn: true }, { exception: 'unknown_line', expectedId: e.id });
        return;
      case 'pending':
        add(own, { match: e.id });
        return add({ ...own, booked: false }, { pending: true });
      default:
        return add(own, { match: e.id });
    }
  });
  for (const u of unknown) add({ direction: 'credit', amountMinor: u.amountMinor, currency: 'EUR', bookingDate: day(u.dayOffset), references: ['SEPA CREDIT', `UNKNOWN PAYER ${u.dayOffset}`], isReturn: false }, { exception: 'unknown_line' });

  // The statement's order is the bank's: any.
  const ordered = lines.map((l, i) => ({ ...l, key: order[i % order.length]! * 1000 + i })).sort((a, b) => a.key - b.key);
  return { expected, lines: ordered.map((l) => l.line), intents: ordered.map((l) => l.intent) };
}

describe('matchStatement reports exactly the injected differences', () => {
  it('for random movements and statements made from them', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(movement, { selector: (m) => m.body, minLength: 1, maxLength: 14 }),
        fc.array(fc.record({ amountMinor: fc.bigInt({ min: 1n, max: 10n ** 9n }), dayOffset: fc.integer({ min: 0, max: 300 }) }), { maxLength: 3 }),
        fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 40 }),
        (movements, unknown, order) => {
          const { expected, lines, intents } = scenario(movements, unknown, order);
          const result = matchStatement(lines, expected);

          const wantMatched: [string, string][] = [];
          const wantExceptions: [string, string, string | undefined][] = [];
          const wantNotBooked: string[] = [];
          const seenTwice = new Set<string>();
          intents.forEach((intent, i) => {
            const { lineId } = lines[i]!;
            if ('match' in intent) wantMatched.push([lineId, intent.match]);
            else if ('exception' in intent) wantExceptions.push([intent.exception, lineId, intent.expectedId]);
            else if ('pending' in intent) wantNotBooked.push(lineId);
            else if (seenTwice.has(intent.twice)) wantExceptions.push(['duplicate', lineId, intent.twice]);
            else {
              // The first of the two lines in the statement's order is the payout, the second the duplicate.
              seenTwice.add(intent.twice);
              wantMatched.push([lineId, intent.twice]);
            }
          });
          assert.deepEqual(result.matched.map((m) => [m.lineId, m.expectedId]), wantMatched);
          assert.deepEqual(result.exceptions.map((e) => [e.type, e.lineId, e.expectedId]), wantExceptions);
          assert.deepEqual(result.notBooked, wantNotBooked);

          // Every line in exactly one bucket; no movement matched twice, none matched again; kinds and amounts carried.
          const buckets = [...result.matched.map((m) => m.lineId), ...result.exceptions.map((e) => e.lineId), ...result.notBooked];
          assert.deepEqual([...buckets].sort(), lines.map((l) => l.lineId).sort());
          const matchedIds = result.matched.map((m) => m.expectedId);
          assert.equal(new Set(matchedIds).size, matchedIds.length);
          const byId = new Map(expected.map((e) => [e.id, e]));
          for (const m of result.matched) {
            assert.equal(byId.get(m.expectedId)!.alreadyMatched, undefined);
            assert.equal(byId.get(m.expectedId)!.kind, m.kind);
          }
          for (const e of result.exceptions) {
            assert.equal(e.lineAmountMinor, lines.find((l) => l.lineId === e.lineId)!.amountMinor);
            if (e.expectedId) assert.equal(e.expectedAmountMinor, byId.get(e.expectedId)!.amountMinor);
          }
          assert.deepEqual(result.unmatchedExpected, expected.filter((e) => !e.alreadyMatched && !matchedIds.includes(e.id)).map((e) => e.id));
          // Deterministic: the same input, the same result.
          assert.deepEqual(matchStatement(lines, expected), result);
        },
      ),
      { numRuns: 400 },
    );
  });
});
