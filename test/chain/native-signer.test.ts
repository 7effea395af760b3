import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { bytesToHex, type Hex, type TransactionSerializable } from 'viem';
import { signTransaction } from 'viem/accounts';
import { signTransactionNatively } from '../../src/chain/native-signer.js';
import { nativeSecp256k1, secretKeyFromHexText } from '../../src/crypto/secp256k1.js';

/** The curve's order: a private key is in [1, n - 1]. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const privateKey = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map((bytes) => bytesToHex(bytes))
  .filter((hex) => BigInt(hex) > 0n && BigInt(hex) < N);
const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => bytesToHex(b));
const quantity = fc.bigInt({ min: 0n, max: 2n ** 96n });
const common = { chainId: fc.integer({ min: 1, max: 2 ** 31 }), nonce: fc.integer({ min: 0, max: 2 ** 31 }), to: address, value: quantity, gas: fc.bigInt({ min: 21_000n, max: 30_000_000n }), data: fc.uint8Array({ maxLength: 64 }).map((b) => (b.length ? bytesToHex(b) : undefined)) };
const transaction: fc.Arbitrary<TransactionSerializable> = fc.oneof(
  fc.record({ ...common, type: fc.constant('legacy' as const), gasPrice: quantity }),
  fc.record({ ...common, type: fc.constant('eip2930' as const), gasPrice: quantity, accessList: fc.array(fc.record({ address, storageKeys: fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => bytesToHex(b)), { maxLength: 2 }) }), { maxLength: 2 }) }),
  fc.record({ ...common, type: fc.constant('eip1559' as const), maxFeePerGas: quantity, maxPriorityFeePerGas: quantity }).map((tx) => ({ ...tx, maxPriorityFeePerGas: tx.maxPriorityFeePerGas > tx.maxFeePerGas ? tx.maxFeePerGas : tx.maxPriorityFeePerGas })),
);
const text = (hex: string) => Buffer.from(hex, 'utf8');

describe('custody signatures with libsecp256k1', () => {
  it('the addon loads where the package ships it prebuilt (here: linux-x64), so custody signing never falls back silently', { skip: !(process.platform === 'linux' && process.arch === 'x64') && 'no prebuilt addon for this platform' }, () => {
    assert.ok(nativeSecp256k1, 'secp256k1/bindings did not load');
  });

  it('signs every kind of transaction to the same bytes as viem (RFC 6979, low S), for any key', () => {
    const native = nativeSecp256k1;
    assert.ok(native);
    return fc.assert(
      fc.asyncProperty(privateKey, transaction, async (key, tx) => {
        assert.equal(signTransactionNatively(native, text(key), tx), await signTransaction({ privateKey: key as Hex, transaction: tx }));
      }),
      { numRuns: 200 },
    );
  });

  it('decodes a key text (0x or 0X, digits in either case) to its 32 bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.boolean(), fc.boolean(), (bytes, upperDigits, upperX) => {
        const hex = Buffer.from(bytes).toString('hex');
        const keyText = text(`0${upperX ? 'X' : 'x'}${upperDigits ? hex.toUpperCase() : hex}`);
        assert.deepEqual(secretKeyFromHexText(keyText), Buffer.from(bytes));
      }),
    );
  });

  it('refuses a key text that is not 0x and 64 hexadecimal digits', () => {
    const good = `0x${'ab'.repeat(32)}`;
    for (const bad of ['', '0x', `0x${'ab'.repeat(31)}`, `0x${'ab'.repeat(33)}`, `ab${'ab'.repeat(32)}`, `1x${'ab'.repeat(32)}`, `0x${'ab'.repeat(31)}g1`, `0x${'ab'.repeat(31)} 1`, `0x${'ab'.repeat(31)}é`]) {
      assert.throws(() => secretKeyFromHexText(text(bad)), /0x and 64 hexadecimal digits/, JSON.stringify(bad));
    }
    assert.equal(secretKeyFromHexText(text(good)).length, 32);
  });
});
