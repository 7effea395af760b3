import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeFunctionData, erc20Abi, getAddress, type Address, type TransactionSerializable } from 'viem';
import { encodeTransfer } from '../../../src/chain/erc20.js';
import { TokenRegistry } from '../../../src/domain/tokens/token-registry.js';
import { tokenTransferColumn } from '../../../src/domain/tokens/token-transfer.js';

// Which calls are a listed token's transfer (docs/tokens.md#transfers): exactly transfer(to, amount) to a token of
// TOKENS on the transaction's own chain, sending no coin. Everything else is a contract call like any other.

const USDC = getAddress(`0x${'5f'.repeat(20)}`);
const tokens = new TokenRegistry([{ chainId: 8453, symbol: 'USDC', address: USDC, decimals: 6 }]);
const alice = getAddress(`0x${'a1'.repeat(20)}`);
const call = (over: Partial<TransactionSerializable>): TransactionSerializable => ({ chainId: 8453, to: USDC, value: 0n, data: encodeTransfer(alice, 12_500_000n), ...over }) as TransactionSerializable;

describe('a listed token’s transfer, decoded', () => {
  it('shows the amount in the token’s units beside its base units; the token address in any case', () => {
    const expected = { symbol: 'USDC', tokenAddress: USDC, to: alice, amount: '12.5', amountRaw: '12500000' };
    assert.deepEqual(tokenTransferColumn(tokens, call({})), expected);
    assert.deepEqual(tokenTransferColumn(tokens, call({ to: USDC.toLowerCase() as Address, value: undefined })), expected);
    assert.deepEqual(tokenTransferColumn(tokens, call({ data: encodeTransfer(alice, 1n) }))?.amount, '0.000001');
  });

  it('is nothing for another chain, another contract, another function, a call sending coin, or calldata that does not decode', () => {
    assert.equal(tokenTransferColumn(tokens, call({ chainId: 1 })), null);
    assert.equal(tokenTransferColumn(tokens, call({ to: alice })), null);
    assert.equal(tokenTransferColumn(tokens, call({ data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [alice, 1n] }) })), null);
    assert.equal(tokenTransferColumn(tokens, call({ value: 1n })), null);
    assert.equal(tokenTransferColumn(tokens, call({ data: '0xa9059cbb' })), null);
    assert.equal(tokenTransferColumn(tokens, call({ data: undefined })), null);
  });
});
