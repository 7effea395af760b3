import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeAbiParameters, encodeAbiParameters, type Hex } from 'viem';
import { decodeLensAnswer } from '../../src/chain/balance-lens.js';

// The balance lens's answer decoded by hand (it was viem's decodeAbiParameters, a stall of the event loop once a
// block for a thousand wallets: docs/benchmarks.md#balances): the same figures as viem for any answer, and a refusal
// for what viem refuses or what the lens never sends.

const ANSWER = [{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256[]' }, { type: 'bool[]' }] as const;
const MAX = 2n ** 256n - 1n;

function answer(balances: bigint[], ok: boolean[], head: [bigint, bigint] = [19_000_000n, 1_764_000_000n]): Hex {
  return encodeAbiParameters(ANSWER, [head[0], head[1], balances, ok]);
}

describe('decodeLensAnswer', () => {
  it('gives what viem gives: empty arrays, zero, the largest uint256, a thousand owners with a token each', () => {
    const many = Array.from({ length: 2_000 }, (_, i) => (BigInt(i) * 10n ** 18n + 7n) ** 3n % MAX);
    const cases: Hex[] = [
      answer([], []),
      answer([0n, MAX], [true, false], [0n, MAX]),
      answer(many, many.map((v) => v % 3n !== 0n)),
    ];
    for (const hex of cases) assert.deepEqual(decodeLensAnswer(hex), decodeAbiParameters(ANSWER, hex));
  });

  it('refuses an answer cut short, an array running past the answer, an offset out of it, a bool of 2', () => {
    const good = answer([5n, 6n], [true, true]);
    const words = good.slice(2).match(/.{64}/g)!;
    const withWord = (i: number, value: bigint) => `0x${words.map((w, j) => (j === i ? value.toString(16).padStart(64, '0') : w)).join('')}`;
    const refused = [
      '0x',
      good.slice(0, -64), // the last bool missing
      good.slice(0, -1), // half a byte short
      withWord(2, 32n * 1000n), // balances' offset beyond the answer
      withWord(2, 33n), // an offset inside a word
      withWord(3, 2n ** 200n), // an offset no answer can reach
      withWord(4, 1000n), // beyond the answer
      withWord(words.length - 1, 2n), // a bool of 2
    ];
    for (const hex of refused) assert.throws(() => decodeLensAnswer(hex), Error, hex);
  });
});
