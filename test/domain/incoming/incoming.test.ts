import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { getAddress, type Address, type Hash } from 'viem';
import type { ScannedRange } from '../../../src/chain/block-scan.js';
import { incomingKey, matchOwners, NATIVE_LOG_INDEX, recipients, seenTransfers } from '../../../src/domain/incoming/detect.js';
import { confirmationsFor, parseConfirmations, pollMsFor } from '../../../src/domain/incoming/incoming-config.js';
import { TokenRegistry } from '../../../src/domain/tokens/token-registry.js';

const CHAINS = new Set([1, 8453, 31337]);

describe('CHAIN_CONFIRMATIONS', () => {
  it('reads chainId=n pairs, and names every bad entry', () => {
    assert.deepEqual(parseConfirmations('8453=20, 1=64', CHAINS), { confirmations: new Map([[8453, 20], [1, 64]]), problems: [] });
    assert.deepEqual(parseConfirmations(undefined, CHAINS), { confirmations: new Map(), problems: [] });
    const { problems } = parseConfirmations('8453=0,1=1001,10=5,8453:3,1=2,1=3', CHAINS);
    assert.deepEqual(problems, [
      '"8453=0": the blocks must be from 1 to 1000',
      '"1=1001": the blocks must be from 1 to 1000',
      '"10=5": chain 10 is not in CHAIN_RPC_URLS',
      '"8453:3" is not chainId=blocks',
      '"1=3": chain 1 is named twice',
    ]);
  });

  it('any list of valid pairs reads back as given; the defaults fill the chains not named', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom(1, 8453, 31337)), fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 3, maxLength: 3 }), (ids, blocks) => {
        const raw = ids.map((id, i) => `${id}=${blocks[i]}`).join(',');
        const { confirmations, problems } = parseConfirmations(raw, CHAINS);
        assert.deepEqual(problems, []);
        for (const [i, id] of ids.entries()) assert.equal(confirmationsFor({ confirmations }, id), blocks[i]);
        if (!ids.includes(8453)) assert.equal(confirmationsFor({ confirmations }, 8453), 10);
        assert.equal(confirmationsFor({ confirmations }, 999_999), 12);
      }),
    );
  });

  it('polls at half the block time, from 250 ms to 5 s, unless INCOMING_POLL_MS says', () => {
    assert.equal(pollMsFor({ pollMs: undefined }, 1), 5_000);
    assert.equal(pollMsFor({ pollMs: undefined }, 8453), 1_000);
    assert.equal(pollMsFor({ pollMs: undefined }, 42161), 250);
    assert.equal(pollMsFor({ pollMs: 40 }, 1), 40);
  });
});

describe('transfers seen in a range, matched to wallets', () => {
  const usdc = getAddress('0x5fbdb2315678afecb367f032d93f642f64180aa3');
  const other = getAddress('0x' + 'ee'.repeat(20));
  const tokens = new TokenRegistry([{ chainId: 8453, symbol: 'USDC', address: usdc, decimals: 6 }]);
  const wallet = getAddress('0x' + 'aa'.repeat(20));
  const sender = getAddress('0x' + 'bb'.repeat(20));
  const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hash;
  const block = { number: 10, hash: hash(100), parentHash: hash(99) };
  const range: ScannedRange = {
    blocks: [{ ...block, transfers: [{ hash: hash(1), from: sender, to: wallet, value: 5n }, { hash: hash(2), from: sender, to: other, value: 7n }] }],
    logs: [
      { token: usdc, from: sender, to: wallet, value: 12_500_000n, blockNumber: 10, blockHash: block.hash, transactionHash: hash(3), logIndex: 4 },
      { token: usdc, from: sender, to: wallet, value: 0n, blockNumber: 10, blockHash: block.hash, transactionHash: hash(5), logIndex: 6 },
      { token: other, from: sender, to: wallet, value: 9n, blockNumber: 10, blockHash: block.hash, transactionHash: hash(7), logIndex: 8 },
    ],
  };

  it('native transfers and listed tokens’ logs; a log of 0 or of a token not listed is not a transfer', () => {
    const seen = seenTransfers(range, 8453, tokens);
    assert.deepEqual(
      seen.map((t) => [t.transactionHash, t.logIndex, t.token?.symbol ?? 'ETH', t.raw]),
      [
        [hash(1), NATIVE_LOG_INDEX, 'ETH', 5n],
        [hash(2), NATIVE_LOG_INDEX, 'ETH', 7n],
        [hash(3), 4, 'USDC', 12_500_000n],
      ],
    );
    assert.deepEqual(recipients(seen), [wallet.toLowerCase(), other.toLowerCase()]);
  });

  it('one record per transfer and owner; what an account’s own transaction moved is left out for that account only', () => {
    const seen = seenTransfers(range, 8453, tokens);
    const owner = (accountId: string) => ({ accountId, integratorId: 'i', walletId: null, address: wallet.toLowerCase() as Address });
    const matched = matchOwners(seen, [owner('a'), owner('b')], new Set([`a:${hash(3)}`]));
    assert.deepEqual(
      matched.map((t) => incomingKey(t.owner.accountId, t.transactionHash, t.logIndex)),
      [incomingKey('a', hash(1), -1), incomingKey('b', hash(1), -1), incomingKey('b', hash(3), 4)],
    );
  });
});
