// `npm run chain`: a local EVM node for the sandbox, in the foreground: anvil (from the optional dependency the tests
// use) on 127.0.0.1:8545 (CHAIN_PORT) as chain 31337. Once it answers, it deploys a demo USDC (contracts/DemoToken.sol,
// 6 decimals), funds the treasury the sandbox server will pay deposits from (derived from this same environment:
// DATA_DIR, ENCRYPTION_KEY or TREASURY_PRIVATE_KEY) with ETH and USDC, and prints the CHAIN_RPC_URLS and TOKENS to
// start the server with. Ctrl-C stops it (a fresh chain each time: anvil keeps no state).
// First: the sandbox key it may create under DATA_DIR is its user's alone, as the server's processes make it (private-umask.ts).
import '../src/private-umask.js';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getAddress, parseEther, parseUnits } from 'viem';
import { ANVIL_DEV_KEY, deployDemoStablecoin, mintDemoToken } from '../src/chain/demo-vault.js';
import { fundOnDevNode, treasuryAddressFor } from '../src/chain/sandbox-treasury.js';

const CHAIN_ID = 31337;
const TREASURY_ETH = '1000000';
const TREASURY_USDC = '1000000';

const require = createRequire(import.meta.url);
const arch = process.arch === 'x64' ? 'amd64' : process.arch;
let binary: string;
try {
  binary = join(dirname(require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`)), 'bin', 'anvil');
} catch {
  console.error(`no anvil build for ${process.platform}-${arch} is installed (the project ships the Linux x64 one); install Foundry's anvil and run: anvil --chain-id ${CHAIN_ID}`);
  process.exit(1);
}
const port = process.env.CHAIN_PORT ?? '8545';
const url = `http://127.0.0.1:${port}`;
const child = spawn(binary, ['--host', '127.0.0.1', '--port', port, '--chain-id', String(CHAIN_ID)], { stdio: ['ignore', 'pipe', 'inherit'] });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));

let ready = false;
child.stdout!.on('data', async (chunk: Buffer) => {
  // anvil's own output goes through (its development accounts and keys); the pipe is always drained.
  process.stdout.write(chunk);
  if (ready || !/Listening on/.test(chunk.toString())) return;
  ready = true;
  try {
    // The development account's first transaction: the same address on every fresh chain (docs/tokens.md).
    const usdc = await deployDemoStablecoin({ rpcUrl: url, chainId: CHAIN_ID, deployerKey: ANVIL_DEV_KEY, symbol: 'USDC' });
    const treasury = treasuryAddressFor(process.env);
    if (treasury) {
      await fundOnDevNode(url, treasury, parseEther(TREASURY_ETH));
      await mintDemoToken({ rpcUrl: url, chainId: CHAIN_ID, signerKey: ANVIL_DEV_KEY, token: usdc, to: treasury, amount: parseUnits(TREASURY_USDC, 6) });
    }
    const holds = treasury ? `; its sandbox treasury ${treasury} holds ${TREASURY_ETH} ETH and ${TREASURY_USDC} USDC` : '';
    console.log(`Ready: start the server with CHAIN_RPC_URLS=${CHAIN_ID}=${url} TOKENS=${CHAIN_ID}:USDC:${getAddress(usdc)}${holds}`);
  } catch (err) {
    console.error(`anvil is up, but deploying the demo USDC or funding the sandbox treasury failed: ${(err as Error).message}`);
  }
});
