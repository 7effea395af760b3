import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { recoverTransactionAddress, serializeTransaction, type TransactionSerializable } from 'viem';
import { sealedCustodyKeys, tokenCustodyKeys, type CustodyKeys } from '../../src/chain/custody-keys.js';
import { CustodyUnavailableError } from '../../src/crypto/pkcs11/errors.js';
import { CustodyToken } from '../../src/crypto/pkcs11/token.js';
import { SecretBox } from '../../src/crypto/secret-box.js';
import { createTestToken, SOFTHSM_MODULE, softHsmMissing } from '../harness/softhsm.js';

const transfer: TransactionSerializable = { chainId: 8453, type: 'eip1559', nonce: 3, to: `0x${'11'.repeat(20)}`, value: 5n, gas: 21_000n, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n };
const recovered = (signed: `0x${string}`) => recoverTransactionAddress({ serializedTransaction: signed as never });

describe('custody keys: the sealed and the pkcs11 backends side by side', { skip: softHsmMissing('the custody backends test') ? `${SOFTHSM_MODULE} is missing` : false }, () => {
  const secrets = new SecretBox(randomBytes(32));
  const sealed = sealedCustodyKeys(secrets);
  let onToken: CustodyKeys;

  before(async () => {
    const testToken = await createTestToken();
    onToken = await tokenCustodyKeys(secrets, await CustodyToken.open({ module: SOFTHSM_MODULE, tokenLabel: testToken.label, pin: () => testToken.pin }));
  });
  after(() => onToken?.close());

  it('each makes a key its own way and signs for it; the signature recovers to the wallet’s address', async () => {
    const sealedWallet = { id: 'w-sealed', ...(await sealed.newWalletKey('w-sealed')) };
    assert.ok(sealedWallet.privateKeySealed && sealedWallet.keyLabel === null && sealedWallet.publicKey === null);
    const tokenWallet = { id: 'w-token', ...(await onToken.newWalletKey('w-token')) };
    assert.deepEqual([tokenWallet.privateKeySealed, tokenWallet.keyLabel], [null, 'wallet:w-token']);
    assert.equal(await recovered(await sealed.signForWallet(sealedWallet, transfer)), sealedWallet.address);
    assert.equal(await recovered(await onToken.signForWallet(tokenWallet, transfer)), tokenWallet.address);
  });

  it('under pkcs11 a wallet not yet moved signs from its sealed copy; under sealed a moved one is refused as unavailable', async () => {
    const notMoved = { id: 'w-old', ...(await sealed.newWalletKey('w-old')) };
    assert.equal(await recovered(await onToken.signForWallet(notMoved, transfer)), notMoved.address);
    const moved = { id: 'w-moved', ...(await onToken.newWalletKey('w-moved')) };
    await assert.rejects(sealed.signForWallet(moved, transfer), CustodyUnavailableError);
  });

  it('a wallet whose public key is not its token key’s is refused, never signed for another key', async () => {
    const a = { id: 'w-a', ...(await onToken.newWalletKey('w-a')) };
    const b = { id: 'w-b', ...(await onToken.newWalletKey('w-b')) };
    await assert.rejects(onToken.signForWallet({ ...a, publicKey: b.publicKey }, transfer), /does not recover/);
    assert.notEqual(serializeTransaction(transfer), await onToken.signForWallet(a, transfer));
  });
});
