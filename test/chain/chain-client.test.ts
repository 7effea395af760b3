import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serializeTransaction, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ChainClient, ChainRegistry } from '../../src/chain/chain-client.js';
import { RpcFailure } from '../../src/chain/rpc-failure.js';
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
    const wallet = await createCustodialWallet({ secrets }, walletId);
    await node.setBalance(wallet.address, wei);
    return { walletId, ...wallet, privateKeySealed: wallet.privateKeySealed! };
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

  it('preflight: balance and mined count in one HTTP request, refusing what the node would refuse at once', async () => {
    const bodies: unknown[] = [];
    const counting = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        bodies.push(JSON.parse(Buffer.concat(chunks).toString()));
        const answer = await fetch(base.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
      });
    });
    counting.listen(0, '127.0.0.1');
    await once(counting, 'listening');
    try {
      const client = new ChainClient(8453, `http://127.0.0.1:${(counting.address() as AddressInfo).port}`, 5_000);
      const wallet = await fundedWallet(base);
      await client.preflight(wallet.address as Hex, parseUnsignedTransaction(transfer(8453, 0)));
      assert.equal(bodies.length, 1, 'one request');
      assert.deepEqual(
        (bodies[0] as { method: string }[]).map((b) => b.method),
        ['eth_getBalance', 'eth_getTransactionCount'],
      );
      const hash = await client.broadcast(await signWithCustodyKey(secrets, wallet.privateKeySealed, wallet.walletId, parseUnsignedTransaction(transfer(8453, 0))));
      await eventually(() => client.receipt(hash), (r) => r !== null, 'the transfer mined');
      await assert.rejects(client.preflight(wallet.address as Hex, parseUnsignedTransaction(transfer(8453, 0))), (err: RpcFailure) => err instanceof RpcFailure && err.code === 'nonce_too_low');
      await client.preflight(wallet.address as Hex, parseUnsignedTransaction(transfer(8453, 1)));
      await assert.rejects(client.preflight(wallet.address as Hex, parseUnsignedTransaction(transfer(8453, 1, 2n * ETH))), (err: RpcFailure) => err instanceof RpcFailure && err.code === 'insufficient_funds');
    } finally {
      counting.close();
    }
  });

  it('preflight: a node’s error answers and nonsense are its failures, never a pass', async () => {
    let answer: (body: { id: number; method: string }[]) => unknown = () => null;
    const fake = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(JSON.parse(Buffer.concat(chunks).toString()) as { id: number; method: string }[]))));
    });
    fake.listen(0, '127.0.0.1');
    await once(fake, 'listening');
    try {
      const client = new ChainClient(8453, `http://127.0.0.1:${(fake.address() as AddressInfo).port}`, 2_000);
      const check = () => client.preflight(privateKeyToAccount(generatePrivateKey()).address, parseUnsignedTransaction(transfer(8453, 0)));
      const rejects = (code: string) => assert.rejects(check(), (err: RpcFailure) => err instanceof RpcFailure && err.code === code);
      // Answers in any order, matched by id.
      answer = (body) => body.map((b) => ({ jsonrpc: '2.0', id: b.id, result: b.method === 'eth_getBalance' ? '0xde0b6b3a7640000' : '0x0' })).reverse();
      await check();
      answer = (body) => body.map((b) => ({ jsonrpc: '2.0', id: b.id, result: b.method === 'eth_getBalance' ? '0x0' : '0x0' })).reverse();
      await rejects('insufficient_funds');
      answer = (body) => body.map((b, i) => (i === 1 ? { jsonrpc: '2.0', id: b.id, error: { code: -32000, message: 'header not found' } } : { jsonrpc: '2.0', id: b.id, result: '0x1' }));
      await rejects('rpc_error');
      answer = () => ({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch requests are not supported' } });
      await rejects('transaction_rejected');
      answer = (body) => body.map((b) => ({ jsonrpc: '2.0', id: b.id, result: 12 }));
      await rejects('rpc_error');
      answer = (body) => [{ jsonrpc: '2.0', id: body[0]!.id, result: '0x1' }];
      await rejects('rpc_error');
    } finally {
      fake.close();
    }
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
