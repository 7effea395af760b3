import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * Foundry's anvil binary, shipped inside its npm platform package. The project depends on the Linux x64 package
 * directly (optional dependency): the @foundry-rs/anvil launcher lists every platform's package, and the registry
 * mirror CI installs from lacks the macOS and Windows ones, which made `npm ci` refuse the lock file.
 */
function anvilBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const platformPackage = `@foundry-rs/anvil-${process.platform}-${arch}`;
  return join(dirname(require.resolve(`${platformPackage}/package.json`)), 'bin', 'anvil');
}

export interface Anvil {
  chainId: number;
  url: string;
  /** The node's process (benches count its CPU). */
  pid: number;
  /** Sets an address's balance in wei (anvil_setBalance). */
  setBalance(address: string, wei: bigint): Promise<void>;
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** The receipt of a sent transaction once mined: anvil 1.x answers the send before its block is sealed. */
  mined(hash: string): Promise<{ status: string; blockNumber: string }>;
  /** Stops the node (SIGTERM, then SIGKILL); the URL refuses connections afterwards. */
  stop(): Promise<void>;
}

/**
 * A real local EVM node on a free loopback port. Blocks are mined as transactions arrive (anvil's default
 * automine), but the send is answered before the block is sealed: wait with `mined` before reading its effects.
 */
export async function startAnvil(chainId: number): Promise<Anvil> {
  const child: ChildProcess = spawn(anvilBinary(), ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(chainId)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The port is in the "Listening on" line (--silent would hide it). Output keeps being drained (and dropped) so
  // the pipe never fills and stalls the node.
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    let found = false;
    const onData = (chunk: Buffer) => {
      if (found) return;
      output += chunk.toString();
      const m = /Listening on (\S+:\d+)/.exec(output);
      if (m) {
        found = true;
        resolve(`http://${m[1]}`);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`anvil exited (${code}) before listening: ${output.slice(0, 500)}`)));
    child.once('error', reject);
  });
  let id = 0;
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  };
  const mined = async (hash: string) => {
    // Bounded: automine seals within milliseconds; a receipt missing after 10 s is a lost transaction.
    for (let i = 0; i < 1000; i++) {
      const receipt = await rpc<{ status: string; blockNumber: string } | null>('eth_getTransactionReceipt', [hash]);
      if (receipt) return receipt;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`transaction ${hash} not mined within 10 s`);
  };
  return {
    chainId,
    url,
    pid: child.pid!,
    rpc,
    mined,
    setBalance: async (address, wei) => {
      await rpc('anvil_setBalance', [address, `0x${wei.toString(16)}`]);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
