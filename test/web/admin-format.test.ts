import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatUnits } from 'viem';
import { ROOT_URL } from '../harness/root.js';

// The console's amount helpers (web/admin/src/format.ts), run here under Node: they touch no DOM. Amounts stay the
// API's decimal strings throughout, so an 18-decimal figure is never rounded through a float.

/** What is tested, declared here: the console is type-checked as browser code by its own project (web/admin/tsconfig.json,
 * bundler resolution), which the server's NodeNext project must not pull in, so the module is loaded by a path tsc does not follow. */
interface Format {
  money(amount: string, currency: string): string;
  chainName(chainId: number): string;
  nativeSymbol(chainId: number): string;
  unitsAmount(amount: string): string;
  fromBaseUnits(raw: string, decimals: number): string;
  cryptoAmount(amount: string, asset: string, chainId: number): string;
  depositPayoutState(status: string, payoutError?: string, failureReason?: string): string;
  dateTime(iso: string): string;
  timeOfDay(date?: Date): string;
}
const formatModule = new URL('web/admin/src/format.ts', ROOT_URL).href;
const { money, chainName, nativeSymbol, unitsAmount, fromBaseUnits, cryptoAmount, depositPayoutState, dateTime, timeOfDay } = (await import(formatModule)) as Format;

/** An exact decimal as an integer count of 10^-SCALE: enough for any token's decimals (at most 36). */
const SCALE = 40;
function scaled(decimal: string): bigint {
  const [whole = '', fraction = ''] = decimal.split('.');
  assert.ok(fraction.length <= SCALE, decimal);
  return BigInt(whole) * 10n ** BigInt(SCALE) + BigInt(fraction.padEnd(SCALE, '0') || '0');
}

describe('admin console format: amounts in the asset’s units with the chain’s name', () => {
  it('groups the whole part and keeps every significant fraction digit, as many as the asset has, at least two', () => {
    assert.equal(money('1234567.5', 'USD'), '1,234,567.5 USD');
    assert.equal(cryptoAmount('1000000', 'USDC', 8453), '1,000,000.00 USDC on Base');
    assert.equal(cryptoAmount('100.5', 'USDC', 8453), '100.50 USDC on Base');
    assert.equal(cryptoAmount('1.25', 'ETH', 31337), '1.25 ETH on Anvil (local)');
    assert.equal(cryptoAmount('999.999978123456789012', 'ETH', 1), '999.999978123456789012 ETH on Ethereum');
    assert.equal(cryptoAmount('0', 'USDC', 8453), '0.00 USDC on Base');
    // The smallest unit of each: never rounded to 0.00.
    assert.equal(cryptoAmount('0.000001', 'USDC', 8453), '0.000001 USDC on Base');
    assert.equal(cryptoAmount('0.000000000000000001', 'ETH', 8453), '0.000000000000000001 ETH on Base');
  });

  it('drops trailing zeros (a figure written with all its decimals) but never a significant digit', () => {
    assert.equal(unitsAmount('100.500000'), '100.50');
    assert.equal(unitsAmount('2.000000000000000000'), '2.00');
    assert.equal(unitsAmount('1234567.000100'), '1,234,567.0001');
    assert.equal(unitsAmount('007.10'), '7.10');
    assert.equal(unitsAmount('0.0'), '0.00');
    assert.equal(unitsAmount('12.'), '12.00');
    // Not a plain decimal: shown as it came rather than made up.
    assert.equal(unitsAmount('-1'), '-1');
    assert.equal(unitsAmount('1e6'), '1e6');
  });

  it('moves base units into the asset’s units exactly', () => {
    assert.equal(fromBaseUnits('1500000', 6), '1.500000');
    assert.equal(fromBaseUnits('1', 18), '0.000000000000000001');
    assert.equal(fromBaseUnits('250000000000000000', 18), '0.250000000000000000');
    assert.equal(fromBaseUnits('42', 0), '42');
    assert.equal(cryptoAmount(fromBaseUnits('250000000000000000', 18), 'ETH', 8453), '0.25 ETH on Base');
  });

  it('reads back as the very amount it was given, for any amount and any decimals (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 42n }), fc.integer({ min: 0, max: 36 }), fc.boolean(), (raw, decimals, allDigits) => {
        // As the API writes it (viem's formatUnits, src/domain/tokens/amounts.ts), or with every decimal written out.
        const amount = allDigits ? fromBaseUnits(raw.toString(), decimals) : formatUnits(raw, decimals);
        const shown = cryptoAmount(amount, 'TKN', 8453);
        const match = /^(\d{1,3}(?:,\d{3})*)\.(\d+) TKN on Base$/.exec(shown);
        assert.ok(match, shown);
        const [, whole, fraction] = match as unknown as [string, string, string];
        assert.equal(scaled(`${whole.replaceAll(',', '')}.${fraction}`), raw * 10n ** BigInt(SCALE - decimals), `${amount} shown as ${shown}`);
        // At least two decimals, no more than the asset has beyond those, and no trailing zero past the second.
        assert.ok(fraction.length >= 2 && fraction.length <= Math.max(2, decimals), shown);
        if (fraction.length > 2) assert.ok(!fraction.endsWith('0'), shown);
        if (whole !== '0') assert.ok(!whole.startsWith('0'), shown);
      }),
      { numRuns: 2000 },
    );
  });

  it('names the chains it knows, and any other by its id', () => {
    assert.equal(chainName(8453), 'Base');
    assert.equal(chainName(31337), 'Anvil (local)');
    assert.equal(chainName(7777), 'chain 7777');
    assert.equal(cryptoAmount('999.9', 'ETH', 7777), '999.90 ETH on chain 7777');
    assert.deepEqual([nativeSymbol(8453), nativeSymbol(31337), nativeSymbol(137)], ['ETH', 'ETH', 'POL']);
  });
});

describe('admin console format: where a deposit’s payout stands', () => {
  const short = 'insufficient_funds: the treasury 0xabc holds 1000 USDC on chain 8453; this payout needs 2000 USDC';

  it('says what the operator can act on at each status', () => {
    assert.equal(depositPayoutState('waiting_for_funds'), 'Not due: the bank transfer has not arrived');
    assert.equal(depositPayoutState('funds_in_transfer'), 'Due: being signed and sent');
    assert.equal(depositPayoutState('funds_in_transfer', short), `Waiting, tried again later: ${short}`);
    assert.equal(depositPayoutState('processing'), 'Sent: waiting for the chain to confirm it');
    assert.equal(depositPayoutState('processing', 'rpc_error: timeout'), 'Sent: waiting for the chain to confirm it; the last attempt failed: rpc_error: timeout');
    assert.equal(depositPayoutState('completed'), 'Paid');
    assert.equal(depositPayoutState('failed', undefined, 'expired'), 'Not paid: expired');
    assert.equal(depositPayoutState('failed'), 'Not paid: failed');
  });
});

describe('admin console format: one time rule, UTC and labelled (issue 51)', () => {
  it('shows every time in UTC with its zone, whatever the zone of the machine', () => {
    const was = process.env.TZ;
    try {
      for (const zone of ['UTC', 'Asia/Kolkata', 'America/Los_Angeles']) {
        process.env.TZ = zone;
        assert.equal(dateTime('2026-07-21T23:45:00.000Z'), '21 Jul 2026, 23:45 UTC', zone);
        assert.equal(timeOfDay(new Date('2026-07-21T23:45:06.000Z')), '23:45:06 UTC', zone);
      }
    } finally {
      if (was === undefined) delete process.env.TZ;
      else process.env.TZ = was;
    }
    assert.equal(dateTime('not a time'), 'not a time');
  });
});
