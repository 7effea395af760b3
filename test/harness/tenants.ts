import { startAnvil, type Anvil } from './anvil.js';
import type { Backend } from './backends.js';
import { startServer, type SeededIntegrator, type StartOptions, type TestServer } from './server.js';

/** One seeded integrator (with its signing client) per name asked for, in the same order. */
export type Tenants<Names extends readonly string[]> = { -readonly [K in keyof Names]: SeededIntegrator };

export interface TenantServer<Names extends readonly string[]> {
  /** `server.close()` ends everything the fixture started. */
  server: TestServer;
  tenants: Tenants<Names>;
}

export interface ChainTenantServer<Names extends readonly string[]> extends TenantServer<Names> {
  /** The anvil node that the server's CHAIN_RPC_URLS names for the chain id; `server.close()` stops it too. */
  chain: Anvil;
}

/**
 * The per-suite set-up of the integration tests: a server of `backend` (startServer's env and options) and one
 * integrator per name, seeded in that order. In a describe:
 * `before(async () => ({ server, tenants: [acme, globex] } = await startTenants(backend, ['Acme', 'Globex'])));`
 * and `after(() => server?.close());`.
 */
export async function startTenants<const Names extends readonly string[]>(
  backend: Backend,
  names: Names,
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<TenantServer<Names>> {
  const server = await startServer(backend, env, options);
  try {
    const tenants: SeededIntegrator[] = [];
    for (const name of names) tenants.push(await server.seedIntegrator(name));
    return { server, tenants: tenants as Tenants<Names> };
  } catch (err) {
    await server.close();
    throw err;
  }
}

/**
 * startTenants with a fresh anvil node for `chainId`, which CHAIN_RPC_URLS names (over any in `env`). The
 * server's close() stops the node after the server, and the node is stopped when the server cannot start.
 */
export async function startTenantsOnChain<const Names extends readonly string[]>(
  backend: Backend,
  chainId: number,
  names: Names,
  env: Record<string, string> = {},
  /** Runs on the chain before the server starts (contracts its configuration names); returns more environment. */
  prepare?: (chain: Anvil) => Promise<Record<string, string>>,
): Promise<ChainTenantServer<Names>> {
  const chain = await startAnvil(chainId);
  let started: TenantServer<Names>;
  try {
    const more = prepare ? await prepare(chain) : {};
    started = await startTenants(backend, names, { ...env, ...more, CHAIN_RPC_URLS: `${chainId}=${chain.url}` });
  } catch (err) {
    await chain.stop();
    throw err;
  }
  const { server, tenants } = started;
  const close = async () => {
    try {
      await server.close();
    } finally {
      await chain.stop();
    }
  };
  return { server: { ...server, close }, tenants, chain };
}
