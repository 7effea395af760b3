import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { hexToBytes, keccak256, parseTransaction, recoverTransactionAddress, type Hex, type TransactionSerializable } from 'viem';
import { generatePrivateKey, privateKeyToAccount, sign, signTransaction } from 'viem/accounts';
import { signTransactionWith, toRecoverableSignature } from '../../src/chain/token-signature.js';
import { CustodyToken } from '../../src/crypto/pkcs11/token.js';
import { createTestToken, SOFTHSM_MODULE, softHsmMissing } from '../harness/softhsm.js';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const to32 = (value: bigint) => hexToBytes(`0x${value.toString(16).padStart(64, '0')}`);

/** Transactions of the kinds custody signs (legacy with EIP-155, 2930, 1559), with arbitrary fields. */
const transactions = fc.record({
  type: fc.constantFrom('legacy', 'eip2930', 'eip1559'),
  chainId: fc.integer({ min: 1, max: 2 ** 31 }),
  nonce: fc.integer({ min: 0, max: 2 ** 32 }),
  to: fc.uint8Array({ minLength: 20, maxLength: 20 }),
  value: fc.bigInt({ min: 0n, max: 10n ** 24n }),
  gas: fc.bigInt({ min: 21_000n, max: 30_000_000n }),
  fee: fc.bigInt({ min: 1n, max: 10n ** 12n }),
  data: fc.uint8Array({ maxLength: 64 }),
}).map(({ type, chainId, nonce, to, value, gas, fee, data }): TransactionSerializable => {
  const common = { chainId, nonce, to: `0x${Buffer.from(to).toString('hex')}` as Hex, value, gas, data: `0x${Buffer.from(data).toString('hex')}` as Hex };
  if (type === 'eip1559') return { ...common, type, maxFeePerGas: fee * 2n, maxPriorityFeePerGas: fee };
  if (type === 'eip2930') return { ...common, type, gasPrice: fee, accessList: [] };
  return { ...common, type: 'legacy', gasPrice: fee };
});

/** The fields a signer must not change: everything but the signature. */
function unsignedFields(signed: Hex) {
  const { r: _r, s: _s, v: _v, yParity: _y, ...rest } = parseTransaction(signed) as Record<string, unknown>;
  return rest;
}

describe('Ethereum signatures from a raw ECDSA signature (r ‖ s)', () => {
  it('gives viem’s exact bytes from viem’s own r and s, and the same after s is made high (low-s enforced, recovery id found)', async () => {
    const privateKey = generatePrivateKey();
    const account = privateKeyToAccount(privateKey);
    const publicKey = hexToBytes(account.publicKey);
    await fc.assert(
      fc.asyncProperty(transactions, fc.boolean(), async (tx, flip) => {
        const expected = await signTransaction({ privateKey, transaction: tx });
        // The token's answer: viem's r and s, or the same signature with s replaced by n − s (equally valid ECDSA).
        const signer = async (digest: Uint8Array) => {
          const { r, s } = await sign({ hash: `0x${Buffer.from(digest).toString('hex')}`, privateKey });
          return new Uint8Array([...hexToBytes(r), ...to32(flip ? N - BigInt(s) : BigInt(s))]);
        };
        assert.equal(await signTransactionWith(signer, publicKey, tx), expected);
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a signature that recovers to another key, and one out of range', async () => {
    const digest = keccak256('0x01', 'bytes');
    const other = await sign({ hash: keccak256('0x01'), privateKey: generatePrivateKey() });
    const raw = new Uint8Array([...hexToBytes(other.r), ...hexToBytes(other.s)]);
    await assert.rejects(toRecoverableSignature(raw, digest, hexToBytes(privateKeyToAccount(generatePrivateKey()).publicKey)), /does not recover/);
    await assert.rejects(toRecoverableSignature(new Uint8Array(64), digest, hexToBytes(privateKeyToAccount(generatePrivateKey()).publicKey)), /out of range/);
  });

  describe('on SoftHSM2, against viem with the same key', { skip: softHsmMissing('the SoftHSM2 signature comparison') ? `${SOFTHSM_MODULE} is missing` : false }, () => {
    let token: CustodyToken;
    const privateKey = generatePrivateKey();
    const account = privateKeyToAccount(privateKey);

    before(async () => {
      const testToken = await createTestToken();
      token = await CustodyToken.open({ module: SOFTHSM_MODULE, tokenLabel: testToken.label, pin: () => testToken.pin });
      await token.importKey('wallet:compared', hexToBytes(privateKey), hexToBytes(account.publicKey));
    });
    after(() => token?.close());

    it('the token’s signed transaction has viem’s unsigned fields and recovers to the same address (r and s differ: the token’s nonces are random)', async () => {
      const publicKey = hexToBytes(account.publicKey);
      await fc.assert(
        fc.asyncProperty(transactions, async (tx) => {
          const fromToken = await signTransactionWith((digest) => token.sign('wallet:compared', digest), publicKey, tx);
          const fromViem = await signTransaction({ privateKey, transaction: tx });
          assert.deepEqual(unsignedFields(fromToken), unsignedFields(fromViem));
          assert.equal(await recoverTransactionAddress({ serializedTransaction: fromToken as never }), account.address);
          assert.equal(await recoverTransactionAddress({ serializedTransaction: fromViem as never }), account.address);
          // Low s, as Ethereum requires of a transaction (EIP-2).
          assert.ok(BigInt(parseTransaction(fromToken).s!) <= N / 2n);
        }),
        { numRuns: 40 },
      );
    });
  });
});
