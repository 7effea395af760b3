import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

// The console's amount helpers (web/admin/src/format.ts), run here under Node: they touch no DOM. Amounts stay the
// API's decimal strings throughout, so an 18-decimal figure is never rounded through a float.

/** What is tested, declared here: the console is type-checked as browser code by its own project (web/admin/tsconfig.json,
 * bundler resolution), which the server's NodeNext project must not pull in, so the module is loaded by a path tsc does not follow. */
interface Format {
  money(amount: string, currency: string): string;
  chainName(chainId: number): string;
  cryptoAmount(amount: string, asset: string, chainId: number): string;
  depositPayoutState(status: string, payoutError?: string, failureReason?: string): string;
}
const formatModule = new URL('../../web/admin/src/format.ts', import.meta.url).href;
const { money, chainName, cryptoAmount, depositPayoutState } = (await import(formatModule)) as Format;

describe('admin console format: amounts in the asset’s units with the chain’s name', () => {
  it('groups the whole part and keeps every fraction digit the API sent, at least two', () => {
    assert.equal(money('1234567.5', 'USD'), '1,234,567.5 USD');
    assert.equal(cryptoAmount('1000000', 'USDC', 8453), '1,000,000.00 USDC on Base');
    assert.equal(cryptoAmount('100.5', 'USDC', 8453), '100.50 USDC on Base');
    assert.equal(cryptoAmount('999.999978123456789012', 'ETH', 1), '999.999978123456789012 ETH on Ethereum');
    assert.equal(cryptoAmount('0', 'USDC', 8453), '0.00 USDC on Base');
  });

  it('names the chains it knows, and any other by its id', () => {
    assert.equal(chainName(8453), 'Base');
    assert.equal(chainName(31337), 'Local chain');
    assert.equal(chainName(7777), 'chain 7777');
    assert.equal(cryptoAmount('999.9', 'ETH', 7777), '999.90 ETH on chain 7777');
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
