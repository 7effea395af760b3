import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort } from './process.js';

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
 * automine; `blockTimeSeconds` seals one every so many seconds instead), but the send is answered before the block
 * is sealed: wait with `mined` before reading its effects.
 *
 * anvil runs --silent: by default it prints every RPC method it serves and every block it mines, and draining that
 * pipe cost the transactions bench's node and load generator CPU on every call. So the port is chosen here and the
 * node is ready when it answers; a port taken meanwhile (anvil exits) is tried again with another.
 */
export async function startAnvil(chainId: number, options: { blockTimeSeconds?: number } = {}): Promise<Anvil> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child: ChildProcess = spawn(anvilBinary(), ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--silent', ...(options.blockTimeSeconds ? ['--block-time', String(options.blockTimeSeconds)] : [])], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString();
    });
    const exited = new Promise<never>((_, reject) => {
      child.once('exit', (code) => reject(new Error(`anvil exited (${code}) before answering: ${stderr.slice(0, 500)}`)));
      child.once('error', reject);
    });
    // Only the race below listens: once the node answered, its exit (stop) is no error.
    exited.catch(() => undefined);
    const url = `http://127.0.0.1:${port}`;
    try {
      await Promise.race([answering(url, chainId, child), exited]);
      return handle(chainId, url, child);
    } catch (err) {
      child.kill('SIGKILL');
      if (attempt >= 5) throw err;
    }
  }
}

/** Resolves once the node at `url` answers eth_chainId with `chainId` (within 20 s); gives up once `child` exited. */
async function answering(url: string, chainId: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (child.exitCode === null && child.signalCode === null) {
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'eth_chainId', params: [] }) });
      const body = (await res.json()) as { result?: string };
      if (body.result !== undefined && Number(body.result) === chainId) return;
      throw new Error(`anvil answered eth_chainId with ${JSON.stringify(body).slice(0, 200)}`);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('anvil answered')) throw err;
      if (Date.now() > deadline) throw new Error(`anvil did not answer on ${url} within 20 s`);
    }
    // Not listening yet: ask again shortly (the node takes a few hundred milliseconds to start).
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`anvil on ${url} exited before answering`);
}

function handle(chainId: number, url: string, child: ChildProcess): Anvil {
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
