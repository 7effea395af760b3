import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createWalletClient, defineChain, encodeFunctionData, erc20Abi, getAddress, http, parseEther, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ChainClient } from '../../src/chain/chain-client.js';
import { RpcFailure } from '../../src/chain/rpc-failure.js';
import {
  allowance,
  convertToAssets,
  decodeVaultCall,
  encodeApprove,
  encodeDeposit,
  encodeRedeem,
  encodeWithdraw,
  maxRedeem,
  maxWithdraw,
  previewDeposit,
  previewRedeem,
  previewWithdraw,
  readVaultMetadata,
  readVaultState,
  tokenBalance,
  VaultReadCache,
  VaultReadError,
} from '../../src/chain/erc4626.js';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { deployVault, type DeployedVault } from '../harness/vaults.js';

describe('ERC-4626 reads against a real vault on anvil', () => {
  let anvil: Anvil;
  let chain: ChainClient;
  let demo: DeployedVault;
  /** The same chain id through a node that was running and has stopped: its port refuses connections. */
  let gone: ChainClient;

  before(async () => {
    const [node, stopped] = await Promise.all([startAnvil(31337), startAnvil(31337)]);
    anvil = node;
    await stopped.stop();
    gone = new ChainClient(31337, stopped.url, 2_000);
    chain = new ChainClient(31337, anvil.url, 5_000);
    demo = await deployVault(anvil);
  });
  after(() => anvil?.stop());

  it('reads the vault’s metadata and its asset’s', async () => {
    const metadata = await readVaultMetadata(chain, demo.vault);
    assert.deepEqual({ ...metadata, address: metadata.address.toLowerCase(), asset: { ...metadata.asset, address: metadata.asset.address.toLowerCase() } }, {
      address: demo.vault.toLowerCase(),
      name: 'Demo USD Vault',
      symbol: 'dvUSD',
      decimals: 6,
      asset: { address: demo.token.toLowerCase(), name: 'Demo USD', symbol: 'dUSD', decimals: 6 },
    });
  });

  it('an address without code and a plain ERC-20 are not vaults (VaultReadError); a node out of reach is RpcFailure', async () => {
    await assert.rejects(readVaultMetadata(chain, '0x000000000000000000000000000000000000dEaD'), VaultReadError);
    await assert.rejects(readVaultMetadata(chain, demo.token), VaultReadError);
    await assert.rejects(readVaultState(chain, demo.token, 6), VaultReadError);
    const unreachable = (err: unknown) => err instanceof RpcFailure && err.code === 'rpc_unreachable';
    await assert.rejects(readVaultMetadata(gone, demo.vault), unreachable);
    await assert.rejects(readVaultState(gone, demo.vault, 6), unreachable);
    await assert.rejects(tokenBalance(gone, demo.token, demo.vault), unreachable);
  });

  it('a user approves and deposits, yield is minted into the vault, and withdraw plus redeem return principal and yield', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const user = account.address;
    await anvil.setBalance(user, parseEther('1'));
    const wallet = createWalletClient({
      account,
      chain: defineChain({ id: 31337, name: 'anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [anvil.url] } } }),
      transport: http(anvil.url, { retryCount: 0 }),
    });
    // What a user's wallet does with a prepared call: the ChainClient's gas and fees, signed by the wallet client.
    const send = async (to: Address, data: Hex) => {
      const { gas, maxFeePerGas, maxPriorityFeePerGas } = await chain.callParameters(user, to, data);
      const hash = await wallet.sendTransaction({ to, data, gas, maxFeePerGas, maxPriorityFeePerGas, nonce: await chain.pendingNonce(user) });
      await anvil.mined(hash);
      const receipt = await chain.receipt(hash);
      assert.equal(receipt?.status, 'success', `${decodeVaultCall(data)?.functionName} mined`);
    };
    const principal = 1_000_000_000n; // 1,000 dUSD
    const yieldAmount = 50_000_000n; // 50 dUSD
    await demo.mint(user, principal);
    const before = await readVaultState(chain, demo.vault, 6);
    assert.equal(before.assetsPerShare, 1_000_000n, 'one share is one dUSD while the vault has earned nothing');

    assert.equal(await allowance(chain, demo.token, user, demo.vault), 0n);
    await send(demo.token, encodeApprove(demo.vault, principal));
    assert.equal(await allowance(chain, demo.token, user, demo.vault), principal);

    const expectedShares = await previewDeposit(chain, demo.vault, principal);
    await send(demo.vault, encodeDeposit(principal, user));
    assert.equal(await tokenBalance(chain, demo.vault, user), expectedShares, 'previewDeposit is what deposit minted');
    assert.equal(await tokenBalance(chain, demo.token, user), 0n);
    assert.equal(await allowance(chain, demo.token, user, demo.vault), 0n, 'the deposit spent the allowance');
    assert.equal(await convertToAssets(chain, demo.vault, expectedShares), principal);
    assert.equal(await previewRedeem(chain, demo.vault, expectedShares), principal);
    assert.equal(await maxWithdraw(chain, demo.vault, user), principal);
    assert.equal(await maxRedeem(chain, demo.vault, user), expectedShares);
    // A call that would revert (redeeming shares the user does not hold) fails its gas estimate.
    await assert.rejects(chain.callParameters(user, demo.vault, encodeRedeem(expectedShares + 1n, user, user)), RpcFailure);

    await demo.mint(demo.vault, yieldAmount);
    const after = await readVaultState(chain, demo.vault, 6);
    assert.equal(after.totalAssets, before.totalAssets + principal + yieldAmount);
    assert.equal(after.totalSupply, before.totalSupply + expectedShares);
    assert.ok(after.assetsPerShare > before.assetsPerShare, `assetsPerShare rose: ${before.assetsPerShare} -> ${after.assetsPerShare}`);
    assert.ok(after.blockNumber > before.blockNumber);
    const owed = await maxWithdraw(chain, demo.vault, user);
    assert.ok(owed > principal && owed <= principal + yieldAmount && principal + yieldAmount - owed <= 1n, `principal plus yield (less rounding): ${owed}`);

    // Part out by withdraw (assets asked for), the rest by redeem (every share left).
    const part = 100_000_000n;
    const sharesForPart = await previewWithdraw(chain, demo.vault, part);
    await send(demo.vault, encodeWithdraw(part, user, user));
    assert.equal(await tokenBalance(chain, demo.token, user), part);
    const sharesLeft = await maxRedeem(chain, demo.vault, user);
    assert.equal(sharesLeft, expectedShares - sharesForPart, 'previewWithdraw is what withdraw burnt');
    const rest = await previewRedeem(chain, demo.vault, sharesLeft);
    await send(demo.vault, encodeRedeem(sharesLeft, user, user));
    assert.equal(await tokenBalance(chain, demo.vault, user), 0n);
    const returned = await tokenBalance(chain, demo.token, user);
    assert.equal(returned, part + rest, 'previewRedeem is what redeem paid');
    assert.ok(returned > principal && principal + yieldAmount - returned <= 2n, `returned ${returned} for ${principal} deposited and ${yieldAmount} earned`);
  });

  it('the state cache serves within its TTL and reads again after; yield minted into the vault shows then', async () => {
    let now = 0;
    const cache = new VaultReadCache(15_000, () => now);
    // Shares outstanding, so yield minted into the vault raises what a share is worth.
    const holder = privateKeyToAccount(generatePrivateKey()).address;
    await demo.mint(holder, 10_000_000n);
    await anvil.rpc('anvil_impersonateAccount', [holder]);
    await anvil.setBalance(holder, parseEther('1'));
    await anvil.mined(await anvil.rpc<string>('eth_sendTransaction', [{ from: holder, to: demo.token, data: encodeApprove(demo.vault, 10_000_000n) }]));
    await anvil.mined(await anvil.rpc<string>('eth_sendTransaction', [{ from: holder, to: demo.vault, data: encodeDeposit(10_000_000n, holder) }]));
    const [first, again] = await Promise.all([cache.state(chain, demo.vault, 6), cache.state(chain, demo.vault, 6)]);
    assert.equal(first, again, 'concurrent misses share one read');
    assert.ok(first.totalSupply > 0n);
    await demo.mint(demo.vault, 5_000_000n);
    now = 14_999;
    assert.equal(await cache.state(chain, demo.vault, 6), first, 'cached within the TTL');
    now = 15_000;
    const fresh = await cache.state(chain, demo.vault, 6);
    assert.equal(fresh.totalAssets, first.totalAssets + 5_000_000n, 'read again after the TTL');
    assert.ok(fresh.assetsPerShare > first.assetsPerShare);
    assert.ok(fresh.blockNumber > first.blockNumber);
    assert.equal(await cache.metadata(chain, demo.vault), await cache.metadata(chain, demo.vault), 'metadata is read once');
    assert.equal((await cache.metadata(chain, demo.vault)).asset.symbol, 'dUSD');
  });

  it('the cache keeps no failed read: the next call for the same vault reads again', async () => {
    const cache = new VaultReadCache(15_000, () => 0);
    // `gone` has the same chain id, so the same cache keys, through a node that does not answer.
    await assert.rejects(cache.state(gone, demo.vault, 6), RpcFailure);
    await assert.rejects(cache.metadata(gone, demo.vault), RpcFailure);
    // Still within the TTL: a fresh read, not the cached failure.
    const state = await cache.state(chain, demo.vault, 6);
    assert.equal(await cache.state(gone, demo.vault, 6), state, 'and that one is kept');
    assert.equal((await cache.metadata(chain, demo.vault)).symbol, 'dvUSD');
  });

  it('encodes the four calls and decodes them back', () => {
    const a = demo.vault as Address;
    assert.equal(decodeVaultCall(encodeApprove(a, 5n))?.functionName, 'approve');
    assert.deepEqual(decodeVaultCall(encodeDeposit(7n, a))?.args, [7n, getAddress(a)]);
    assert.equal(decodeVaultCall(encodeRedeem(1n, a, a))?.functionName, 'redeem');
    assert.deepEqual(decodeVaultCall(encodeWithdraw(3n, a, a)), { functionName: 'withdraw', args: [3n, getAddress(a), getAddress(a)] });
    assert.equal(decodeVaultCall(encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [a, 1n] })), null, 'a transfer is no vault call');
    assert.equal(decodeVaultCall('0xdeadbeef'), null);
    assert.equal(decodeVaultCall('0x'), null);
  });
});
