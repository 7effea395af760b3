import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { getAddress, type Address } from 'viem';
import { ChainClient } from '../../../src/chain/chain-client.js';
import { RpcFailure } from '../../../src/chain/rpc-failure.js';
import { ChainBalanceBook } from '../../../src/domain/tokens/balance-book.js';
import { startAnvil, type Anvil } from '../../harness/anvil.js';
import { startRpcProxy, type RpcProxy } from '../../harness/rpc-proxy.js';
import { deployTestToken, type TestToken } from '../../harness/tokens.js';

// The per-chain book behind get-account-balances (docs/tokens.md#balances), on a real anvil (chain 31337: a block
// time of 1 s) behind a proxy counting the node's round trips, with the book's clock in the test's hands.

const wallet = (): Address => getAddress(`0x${randomBytes(20).toString('hex')}`);

describe('ChainBalanceBook', () => {
  let node: Anvil;
  let proxy: RpcProxy;
  let token: TestToken;
  let now = 0;
  let book: ChainBalanceBook;

  before(async () => {
    node = await startAnvil(31337);
    token = await deployTestToken(node);
    proxy = await startRpcProxy(node.url);
    book = new ChainBalanceBook(new ChainClient(31337, proxy.url, 5_000), [token.address], () => now);
  });
  after(async () => {
    await proxy?.close();
    await node?.stop();
  });

  const wallets = Array.from({ length: 50 }, wallet);

  it('50 wallets asked at once: at most two round trips (the first read, then every wallet that came meanwhile); again in the block: none', async () => {
    const before = proxy.requests;
    const readings = await Promise.all(wallets.map((w) => book.get(w)));
    assert.ok(proxy.requests - before <= 2, `${proxy.requests - before} round trips`);
    assert.ok(readings.every((r) => r.native === 0n && r.tokens[0] === 0n));
    const again = await Promise.all(wallets.map((w) => book.get(w)));
    assert.deepEqual(again, readings);
    assert.ok(proxy.requests - before <= 2, 'served from memory');
  });

  it('after a block time, one read refreshes every watched wallet while the figure read before is still served; expired, a wallet waits for it', async () => {
    await token.mint(wallets[0]!, 7_000_000n);
    const head = BigInt(await node.rpc<string>('eth_blockNumber'));
    const before = proxy.requests;
    const calls = proxy.calls.length;
    now += 1_000;
    const served = await book.get(wallets[0]!);
    assert.equal(served.tokens[0], 0n, 'the figure read a block time ago, still current for half a block time more');
    now += 600;
    const fresh = await book.get(wallets[0]!);
    assert.deepEqual([fresh.tokens[0], fresh.blockNumber >= head], [7_000_000n, true]);
    assert.equal(proxy.requests - before, 1, 'one round trip');
    assert.deepEqual(
      proxy.calls.slice(calls).map((c) => c.method),
      ['eth_call'],
      'all 50 wallets in one call',
    );
    const others = await Promise.all(wallets.slice(1).map((w) => book.get(w)));
    assert.ok(others.every((r) => r.blockNumber === fresh.blockNumber));
    assert.equal(proxy.requests - before, 1, 'the others came with it');
  });

  it('a node that does not answer: the read fails, and an expired figure is never served in its place', async () => {
    proxy.down = true;
    try {
      now += 400; // a block time after the last read
      await book.get(wallets[1]!); // still current: served, and the refresh it starts fails
      now += 600;
      await assert.rejects(book.get(wallets[1]!), (err: unknown) => err instanceof RpcFailure && err.code === 'rpc_unreachable');
    } finally {
      proxy.down = false;
    }
    const back = await book.get(wallets[1]!);
    assert.equal(back.native, 0n);
  });
});
