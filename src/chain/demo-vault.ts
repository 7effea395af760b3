import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicClient, createWalletClient, http, parseEther, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/**
 * Anvil's first development account (its well-known mnemonic): funded on every local anvil chain, and worthless
 * anywhere else. Only for deploying and minting the demo contracts on a local chain.
 */
export const ANVIL_DEV_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
/** The chain id of `npm run chain` (anvil's default). */
export const LOCAL_CHAIN_ID = 31337;

interface Artifact {
  abi: Abi;
  bytecode: Hex;
}

/** contracts/artifacts/<name>.json, from src/chain or, once built, dist/src/chain: the folder holding package.json. */
export function artifact(name: 'DemoToken' | 'DemoVault' | 'BalanceLens'): Artifact {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('contracts/artifacts not found above this module');
    dir = up;
  }
  return JSON.parse(readFileSync(join(dir, 'contracts', 'artifacts', `${name}.json`), 'utf8')) as Artifact;
}

function clients(rpcUrl: string, chainId: number, key: Hex) {
  const chain = { id: chainId, name: `chain ${chainId}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } };
  const account = privateKeyToAccount(key);
  const transport = http(rpcUrl, { timeout: 30_000, retryCount: 0 });
  return { account, publicClient: createPublicClient({ chain, transport }), walletClient: createWalletClient({ account, chain, transport }) };
}

/** Deploys the demo ERC-20 (dUSD, 6 decimals, open mint) and an ERC-4626 vault over it; waits for both receipts. */
export async function deployDemoVault(input: { rpcUrl: string; chainId: number; deployerKey: Hex }): Promise<{ token: Address; vault: Address }> {
  const { publicClient, walletClient } = clients(input.rpcUrl, input.chainId, input.deployerKey);
  const token = artifact('DemoToken');
  const vault = artifact('DemoVault');
  const deployed = async (what: string, hash: Hex): Promise<Address> => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploying the ${what} failed (${hash}, ${receipt.status})`);
    return receipt.contractAddress;
  };
  const tokenAddress = await deployed('demo token', await walletClient.deployContract({ abi: token.abi, bytecode: token.bytecode, args: ['Demo USD', 'dUSD'] }));
  const vaultAddress = await deployed('demo vault', await walletClient.deployContract({ abi: vault.abi, bytecode: vault.bytecode, args: [tokenAddress, 'Demo USD Vault', 'dvUSD'] }));
  return { token: tokenAddress, vault: vaultAddress };
}

/** Deploys the demo ERC-20 as a stablecoin of the sandbox (6 decimals, open mint): "Demo USD Coin", `symbol`. */
export async function deployDemoStablecoin(input: { rpcUrl: string; chainId: number; deployerKey: Hex; symbol?: string }): Promise<Address> {
  const { publicClient, walletClient } = clients(input.rpcUrl, input.chainId, input.deployerKey);
  const token = artifact('DemoToken');
  const hash = await walletClient.deployContract({ abi: token.abi, bytecode: token.bytecode, args: ['Demo USD Coin', input.symbol ?? 'USDC'] });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploying the demo stablecoin failed (${hash}, ${receipt.status})`);
  return receipt.contractAddress;
}

/**
 * Mints demo tokens to an address (an account's wallet, or the vault itself to simulate yield). With `gasTopUp`
 * (local chains), also sends a wallet (not a contract) 0.1 ETH for gas when it holds less than 0.01 ETH.
 */
export async function mintDemoToken(input: { rpcUrl: string; chainId: number; signerKey: Hex; token: Address; to: Address; amount: bigint; gasTopUp?: boolean }): Promise<{ token: Address; to: Address; minted: string; gasSent: string }> {
  const { publicClient, walletClient } = clients(input.rpcUrl, input.chainId, input.signerKey);
  const hash = await walletClient.writeContract({ address: input.token, abi: artifact('DemoToken').abi, functionName: 'mint', args: [input.to, input.amount] });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`mint reverted (${hash}): is ${input.token} the demo token?`);
  let gasSent = 0n;
  // Wallets only: a contract (the vault, when minting yield into it) neither pays gas nor accepts plain ETH.
  const isWallet = async () => ((await publicClient.getCode({ address: input.to })) ?? '0x') === '0x';
  if (input.gasTopUp && (await publicClient.getBalance({ address: input.to })) < parseEther('0.01') && (await isWallet())) {
    gasSent = parseEther('0.1');
    await publicClient.waitForTransactionReceipt({ hash: await walletClient.sendTransaction({ to: input.to, value: gasSent }) });
  }
  return { token: input.token, to: input.to, minted: input.amount.toString(), gasSent: gasSent.toString() };
}
