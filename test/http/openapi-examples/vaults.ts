import { randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import type { ApiResponse } from '../../harness/client.js';
import { registerVault } from '../../../src/domain/vaults/vault-admin.js';
import type { Anvil } from '../../harness/anvil.js';
import { createCustomer, ETH, type Customer } from '../../harness/customers.js';
import { post } from '../../harness/members.js';
import type { SeededIntegrator, TestServer } from '../../harness/server.js';
import { deployVault } from '../../harness/vaults.js';

/** What these examples need of the OpenAPI suite's context. */
interface Ctx {
  server: TestServer;
  acme: SeededIntegrator;
}

/** The vault operations aimed at another integrator's account (the 401/403/404 sweep): the account is what is not found. */
export const VAULT_ADDRESSED: Record<string, (c: Ctx, r: { accountId: string }) => Promise<ApiResponse>> = {
  prepareVaultDeposit: (c, r) => c.acme.client.post('/v1/submit/prepare-vault-deposit', { accountId: r.accountId, vaultId: randomUUID(), amount: '1' }),
  prepareVaultWithdrawal: (c, r) => c.acme.client.post('/v1/submit/prepare-vault-withdrawal', { accountId: r.accountId, vaultId: randomUUID(), shares: '1' }),
  getVaultPosition: (c, r) => c.acme.client.get(`/v1/query/get-vault-position?accountId=${r.accountId}&vaultId=${randomUUID()}`),
  listVaultPositions: (c, r) => c.acme.client.get(`/v1/query/list-vault-positions?accountId=${r.accountId}`),
};

/** Real calls of the vault operations: one demo vault per server, and a customer holding dUSD with yield vaults enabled. */
export function vaultExamples(chain: () => Anvil): Record<string, (c: Ctx) => Promise<ApiResponse[]>> {
  const setups = new WeakMap<TestServer, Promise<{ vaultId: string; customer: Customer }>>();
  const setupOf = (c: Ctx) => {
    let setup = setups.get(c.server);
    if (!setup) {
      setup = (async () => {
        const demo = await deployVault(chain());
        const { vaultId } = await registerVault(c.server.database.db, c.server.chains, { chainId: 8453, address: demo.vault }, c.server.clock.now());
        const customer = await createCustomer(c.server, c.acme);
        await chain().setBalance(customer.walletAddress, ETH);
        await demo.mint(customer.walletAddress as Address, 100_000_000n);
        await post(c.server, c.acme, '/v1/submit/enable-product', { accountId: customer.accountId, productId: 'yield_vaults', termsAcceptedAt: c.server.clock.now().toISOString() });
        return { vaultId, customer };
      })();
      setups.set(c.server, setup);
    }
    return setup;
  };
  return {
    listVaults: async (c) => {
      await setupOf(c);
      return [await c.acme.client.get('/v1/query/list-vaults')];
    },
    getVault: async (c) => {
      const { vaultId } = await setupOf(c);
      return [await c.acme.client.get(`/v1/query/get-vault?vaultId=${vaultId}`), await c.acme.client.get(`/v1/query/get-vault?vaultId=${randomUUID()}`)];
    },
    prepareVaultDeposit: async (c) => {
      const { vaultId, customer } = await setupOf(c);
      const accountId = customer.accountId;
      return [
        await post(c.server, c.acme, '/v1/submit/prepare-vault-deposit', { accountId, vaultId, amount: '10.5' }),
        await post(c.server, c.acme, '/v1/submit/prepare-vault-deposit', { accountId, vaultId, amount: '0' }),
        await post(c.server, c.acme, '/v1/submit/prepare-vault-deposit', { accountId, vaultId, amount: '1000' }),
        await post(c.server, c.acme, '/v1/submit/prepare-vault-deposit', { accountId, vaultId: randomUUID(), amount: '1' }),
      ];
    },
    prepareVaultWithdrawal: async (c) => {
      const { vaultId, customer } = await setupOf(c);
      const accountId = customer.accountId;
      return [
        await post(c.server, c.acme, '/v1/submit/prepare-vault-withdrawal', { accountId, vaultId, shares: '1' }),
        await post(c.server, c.acme, '/v1/submit/prepare-vault-withdrawal', { accountId, vaultId }),
      ];
    },
    getVaultPosition: async (c) => {
      const { vaultId, customer } = await setupOf(c);
      return [await c.acme.client.get(`/v1/query/get-vault-position?accountId=${customer.accountId}&vaultId=${vaultId}`)];
    },
    listVaultPositions: async (c) => {
      const { customer } = await setupOf(c);
      return [await c.acme.client.get(`/v1/query/list-vault-positions?accountId=${customer.accountId}`)];
    },
  };
}
