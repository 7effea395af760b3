import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TransactionSerializable } from 'viem';
import { generatePrivateKey, signTransaction } from 'viem/accounts';
import { signOffThread } from '../../src/chain/signing-thread/client.js';
import { recipient } from '../harness/customers.js';

describe('the signing thread', () => {
  const transfer = (nonce: number): TransactionSerializable => ({ chainId: 8453, type: 'eip1559', nonce, to: recipient() as `0x${string}`, value: 10n ** 15n, gas: 21_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n });

  it('signs exactly as viem on the request thread would (RFC 6979: the same bytes), many at once', async () => {
    const cases = Array.from({ length: 20 }, (_, i) => ({ key: generatePrivateKey(), tx: transfer(i) }));
    const offThread = await Promise.all(cases.map(({ key, tx }) => signOffThread(Buffer.from(key), tx)));
    const here = await Promise.all(cases.map(({ key, tx }) => signTransaction({ privateKey: key, transaction: tx })));
    assert.deepEqual(offThread, here);
  });

  it('a key viem refuses fails that signature only; the thread goes on', async () => {
    await assert.rejects(signOffThread(Buffer.from('0x1234'), transfer(0)), /signing failed/);
    const key = generatePrivateKey();
    const tx = transfer(1);
    assert.equal(await signOffThread(Buffer.from(key), tx), await signTransaction({ privateKey: key, transaction: tx }));
  });
});
