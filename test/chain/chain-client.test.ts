import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { serializeTransaction, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ChainClient, ChainRegistry, RpcFailure } from '../../src/chain/chain-client.js';
import { parseUnsignedTransaction, signWithCustodyKey, UnsignedTransactionError } from '../../src/chain/custody-signer.js';
import { parseChainRpcUrls } from '../../src/chain/rpc-urls.js';
import { SecretBox } from '../../src/crypto/secret-box.js';
import { createCustodialWallet } from '../../src/domain/onboarding/users/custodial-wallet.js';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { eventually } from '../harness/eventually.js';

const ETH = 10n ** 18n;

describe('chain client against real anvil nodes (chain ids 1 and 8453)', () => {
  let mainnet: Anvil;
  let base: Anvil;
  let chains: ChainRegistry;
  const secrets = new SecretBox(randomBytes(32));

  before(async () => {
    [mainnet, base] = await Promise.all([startAnvil(1), startAnvil(8453)]);
    chains = new ChainRegistry(parseChainRpcUrls(`1=${mainnet.url},8453=${base.url}`), 5_000);
  });
  after(async () => {
    await Promise.all([mainnet?.stop(), base?.stop()]);
  });

  /** A custody wallet as onboarding makes one, funded on `node`. */
  const fundedWallet = async (node: Anvil, wei = ETH) => {
    const walletId = crypto.randomUUID();
    const wallet = createCustodialWallet(secrets, walletId);
    await node.setBalance(wallet.address, wei);
    return { walletId, ...wallet };
  };

  const transfer = (chainId: number, nonce: number, value = 10n ** 15n) =>
    serializeTransaction({ chainId, type: 'eip1559', nonce, to: privateKeyToAccount(generatePrivateKey()).address, value, gas: 21_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n });

  it('knows the configured chains and that each node is the chain it claims', async () => {
    assert.deepEqual(chains.chainIds(), [1, 8453]);
    assert.equal(await chains.get(1)!.chainIdOfNode(), 1);
    assert.equal(await chains.get(8453)!.chainIdOfNode(), 8453);
    assert.equal(chains.get(10), undefined);
  });

  it('signs an unsigned transaction with a sealed custody key, broadcasts it and reads the receipt in the spec’s shape', async () => {
    const wallet = await fundedWallet(base);
    const unsigned = parseUnsignedTransaction(transfer(8453, 0).slice(2)); // without 0x is accepted too
    const signed = await signWithCustodyKey(secrets, wallet.privateKeySealed, wallet.walletId, unsigned);
    const client = chains.get(8453)!;
    const hash = await client.broadcast(signed);
    // Anvil automines, but in the background: on a loaded machine the receipt can lag the broadcast a moment.
    const receipt = await eventually(() => client.receipt(hash), (r) => r !== null, 'the automined receipt');
    assert.ok(receipt);
    assert.equal(receipt.transactionHash, hash);
    assert.equal(receipt.from.toLowerCase(), wallet.address.toLowerCase());
    assert.equal(receipt.status, 'success');
    assert.equal(typeof receipt.transactionIndex, 'number');
    assert.equal(typeof receipt.blockNumber, 'number');
    for (const k of ['gasUsed', 'effectiveGasPrice', 'blobGasUsed', 'blobGasPrice'] as const) assert.match(receipt[k], /^\d+$/, k);
    assert.equal(receipt.gasUsed, '21000');
    assert.equal(receipt.contractAddress, '');
    assert.equal(await client.known(hash), true);
  });

  it('reads several receipts in one batch: mined ones in the spec’s shape, null for a hash the node does not know', async () => {
    const wallet = await fundedWallet(base);
    const client = chains.get(8453)!;
    const hashes: Hex[] = [];
    for (const nonce of [0, 1]) {
      await client.preflight(wallet.address as Hex, parseUnsignedTransaction(transfer(8453, nonce)));
      hashes.push(await client.broadcast(await signWithCustodyKey(secrets, wallet.privateKeySealed, wallet.walletId, parseUnsignedTransaction(transfer(8453, nonce)))));
    }
    const unknown = `0x${'ab'.repeat(32)}` as Hex;
    const answers = await eventually(() => client.receipts([...hashes, unknown]), (m) => hashes.every((h) => m.get(h) !== null), 'both transfers mined');
    assert.equal(answers.size, 3);
    for (const hash of hashes) {
      const receipt = answers.get(hash);
      assert.ok(receipt && !(receipt instanceof RpcFailure));
      assert.equal(receipt.transactionHash, hash);
      assert.equal(receipt.status, 'success');
      assert.deepEqual(receipt, await client.receipt(hash), 'the same view as one lookup gives');
    }
    assert.equal(answers.get(unknown), null);
  });

  it('maps node refusals to codes: insufficient funds, nonce too low', async () => {
    const poor = await fundedWallet(mainnet, 0n);
    const client = chains.get(1)!;
    const unfunded = await signWithCustodyKey(secrets, poor.privateKeySealed, poor.walletId, parseUnsignedTransaction(transfer(1, 0)));
    await assert.rejects(client.broadcast(unfunded), (err: RpcFailure) => err instanceof RpcFailure && err.code === 'insufficient_funds');

    const rich = await fundedWallet(mainnet);
    const first = await signWithCustodyKey(secrets, rich.privateKeySealed, rich.walletId, parseUnsignedTransaction(transfer(1, 0)));
    const firstHash = await client.broadcast(first);
    // Mined first (automine lags on a loaded machine): while still pending, the same nonce is a replacement, not too low.
    await eventually(() => client.receipt(firstHash), (r) => r !== null, 'the first transfer mined');
    const again = await signWithCustodyKey(secrets, rich.privateKeySealed, rich.walletId, parseUnsignedTransaction(transfer(1, 0, 2n)));
    await assert.rejects(client.broadcast(again), (err: RpcFailure) => err instanceof RpcFailure && err.code === 'nonce_too_low');
  });

  it('refuses malformed, signed and chain-less transactions before any signing', () => {
    for (const bad of ['zz', '0x0', '0x02', 'deadbeef']) assert.throws(() => parseUnsignedTransaction(bad), UnsignedTransactionError, bad);
    const legacyNoChain = serializeTransaction({ type: 'legacy', nonce: 0, to: privateKeyToAccount(generatePrivateKey()).address, value: 1n, gas: 21_000n, gasPrice: 1n });
    assert.throws(() => parseUnsignedTransaction(legacyNoChain), /no chain id/);
  });

  it('reports an unreachable node as rpc_unreachable', async () => {
    const node = await startAnvil(31337);
    const client = new ChainClient(31337, node.url, 2_000);
    assert.equal(await client.chainIdOfNode(), 31337);
    await node.stop();
    await assert.rejects(client.chainIdOfNode(), (err: RpcFailure) => err instanceof RpcFailure && err.code === 'rpc_unreachable');
    const anySigned = '0x02f86a82210580843b9aca0084773594008252089400000000000000000000000000000000000000000180c001a0' as Hex;
    await assert.rejects(client.broadcast(anySigned), (err: RpcFailure) => err instanceof RpcFailure && (err.code === 'rpc_unreachable' || err.code === 'transaction_rejected'));
  });

  it('parses CHAIN_RPC_URLS strictly', () => {
    assert.deepEqual([...parseChainRpcUrls(' 1=http://a:1 , 8453=https://b/x ').entries()], [
      [1, 'http://a:1'],
      [8453, 'https://b/x'],
    ]);
    for (const bad of ['x=http://a', '1=ftp://a', '1=', '1=http://a,1=http://b', '=http://a']) assert.throws(() => parseChainRpcUrls(bad), Error, bad);
  });
});
