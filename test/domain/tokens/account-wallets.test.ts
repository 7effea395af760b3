import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AccountWallets } from '../../../src/domain/tokens/balances.js';

// The accounts' wallets get-account-balances keeps so that a balance read makes no database statement for an account
// seen before (docs/benchmarks.md#balances): one integrator's entry never answers for another, and the least
// recently asked go first beyond the capacity.

describe('AccountWallets', () => {
  const wallet = (n: number) => ({ id: `account-${n}`, walletAddress: `0x${String(n).padStart(40, '0')}` });

  it("is keyed by integrator and account: another integrator's request for the same account finds nothing", () => {
    const wallets = new AccountWallets();
    wallets.set('acme', 'account-1', wallet(1));
    assert.deepEqual(wallets.get('acme', 'account-1'), wallet(1));
    assert.equal(wallets.get('globex', 'account-1'), undefined);
    assert.equal(wallets.get('acme', 'account-2'), undefined);
  });

  it('keeps at most its capacity, dropping the least recently asked', () => {
    const wallets = new AccountWallets(3);
    for (const n of [1, 2, 3]) wallets.set('acme', `account-${n}`, wallet(n));
    wallets.get('acme', 'account-1'); // asked again: account-2 is now the oldest
    wallets.set('acme', 'account-4', wallet(4));
    assert.equal(wallets.size, 3);
    assert.equal(wallets.get('acme', 'account-2'), undefined);
    for (const n of [1, 3, 4]) assert.deepEqual(wallets.get('acme', `account-${n}`), wallet(n));
  });
});
