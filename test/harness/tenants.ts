import { startAnvil, type Anvil } from './anvil.js';
import { after, before } from 'node:test';
import type { Backend } from './backends.js';
import { later } from './later.js';
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
 * What `start` makes, as the calling describe's fixture: started in a `before` hook, its server closed in an `after`,
 * and each of `fields` (and each tenant) usable by name in the suite's hooks and tests (later.ts). Call it before the
 * suite's own hooks that use them.
 */
export function useStarted<T extends { server: TestServer; tenants: readonly SeededIntegrator[] }>(fields: readonly Exclude<keyof T, 'tenants'>[], tenantNames: readonly string[], start: () => Promise<T>): T {
  const stands = new Map(fields.map((field) => [field, later<object>(`the suite's ${String(field)}`)]));
  const tenants = tenantNames.map((name) => later<SeededIntegrator>(`tenant ${name}`));
  let started: T | undefined;
  before(async () => {
    started = await start();
    for (const [field, stand] of stands) stand.set(started[field] as object);
    started.tenants.forEach((tenant, i) => tenants[i]!.set(tenant));
  });
  after(() => started?.server.close());
  return { ...Object.fromEntries([...stands].map(([field, stand]) => [field, stand.value])), tenants: tenants.map((t) => t.value) } as unknown as T;
}

/**
 * startTenants as the calling describe's fixture (useStarted):
 * `const { server, tenants: [acme, globex] } = useTenants(backend, ['Acme', 'Globex']);`.
 */
export function useTenants<const Names extends readonly string[]>(backend: Backend, names: Names, env: Record<string, string> = {}, options: StartOptions = {}): TenantServer<Names> {
  return useStarted(['server'], names, () => startTenants(backend, names, env, options));
}

/** startTenantsOnChain as the calling describe's fixture (useStarted): `const { server, chain, tenants: [acme] } = useTenantsOnChain(…)`. */
export function useTenantsOnChain<const Names extends readonly string[]>(
  backend: Backend,
  chainId: number,
  names: Names,
  env: Record<string, string> = {},
  prepare?: (chain: Anvil) => Promise<Record<string, string>>,
): ChainTenantServer<Names> {
  return useStarted(['server', 'chain'], names, () => startTenantsOnChain(backend, chainId, names, env, prepare));
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
