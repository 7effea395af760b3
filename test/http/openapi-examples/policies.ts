import { randomUUID } from 'node:crypto';
import type { ApiResponse } from '../../harness/client.js';
import { recipient } from '../../harness/customers.js';
import { post } from '../../harness/members.js';
import type { SeededIntegrator, TestServer } from '../../harness/server.js';

/** What these examples need of the OpenAPI suite's context. */
interface Ctx {
  server: TestServer;
  acme: SeededIntegrator;
  own2: { accountId: string };
}

const cap = { type: 'max_amount', asset: 'USDC', chainId: 8453, amount: '100', window: '24h' };

/** The policy operations aimed at another integrator's account and policy (the 401/403/404 sweep). */
export const POLICY_ADDRESSED: Record<string, (c: Ctx, r: { accountId: string; policyId: string }) => Promise<ApiResponse>> = {
  createPolicy: (c, r) => c.acme.client.post('/v1/policies', { accountId: r.accountId, rules: [cap] }),
  listPolicies: (c, r) => c.acme.client.get(`/v1/policies?accountId=${r.accountId}`),
  getPolicy: (c, r) => c.acme.client.get(`/v1/policies/${r.policyId}`),
  deletePolicy: (c, r) => c.acme.client.delete(`/v1/policies/${r.policyId}`),
  addAddressBookEntry: (c, r) => c.acme.client.post(`/v1/accounts/${r.accountId}/address-book`, { address: recipient(), label: 'Supplier' }),
  listAddressBook: (c, r) => c.acme.client.get(`/v1/accounts/${r.accountId}/address-book`),
};

/** Real calls of the policy operations on the suite's active customer (own2): successes, 400s, 404s and 409s. */
export const POLICY_EXAMPLES: Record<string, (c: Ctx) => Promise<ApiResponse[]>> = {
  createPolicy: async ({ server, acme, own2 }) => [
    await post(server, acme, '/v1/policies', { accountId: own2.accountId, rules: [cap, { type: 'new_destination_delay', hours: 12 }] }),
    await post(server, acme, '/v1/policies', {
      rules: [
        { type: 'allowed_destinations', addresses: [recipient()] },
        { type: 'require_approvals', above: { asset: 'ETH', chainId: 8453, amount: '1.5' }, approvals: 2 },
      ],
    }),
    await post(server, acme, '/v1/policies', { rules: [{ ...cap, amount: '0.0000001', window: '1h' }] }),
    await post(server, acme, '/v1/policies', { rules: [{ ...cap, asset: 'DAI' }] }),
    await post(server, acme, '/v1/policies', { accountId: randomUUID(), rules: [cap] }),
  ],
  listPolicies: async ({ acme, own2 }) => [
    await acme.client.get('/v1/policies'),
    await acme.client.get(`/v1/policies?accountId=${own2.accountId}&limit=1`),
    await acme.client.get(`/v1/policies?startingAfter=${randomUUID()}`),
  ],
  getPolicy: async ({ server, acme, own2 }) => {
    const made = await post(server, acme, '/v1/policies', { accountId: own2.accountId, rules: [cap] });
    return [await acme.client.get(`/v1/policies/${made.body.policyId}`), await acme.client.get(`/v1/policies/${randomUUID()}`)];
  },
  deletePolicy: async ({ server, acme, own2 }) => {
    const made = await post(server, acme, '/v1/policies', { accountId: own2.accountId, rules: [cap] });
    server.clock.advance(1000);
    const deleted = await acme.client.delete(`/v1/policies/${made.body.policyId}`);
    server.clock.advance(1000);
    return [deleted, await acme.client.delete(`/v1/policies/${made.body.policyId}`), await acme.client.delete(`/v1/policies/${randomUUID()}`)];
  },
  addAddressBookEntry: async ({ server, acme, own2 }) => {
    const address = recipient();
    return [
      await post(server, acme, `/v1/accounts/${own2.accountId}/address-book`, { address, label: 'Supplier' }),
      await post(server, acme, `/v1/accounts/${own2.accountId}/address-book`, { address, label: 'Again' }),
      await post(server, acme, `/v1/accounts/${own2.accountId}/address-book`, { address: '0x12', label: '' }),
    ];
  },
  listAddressBook: async ({ acme, own2 }) => [
    await acme.client.get(`/v1/accounts/${own2.accountId}/address-book?limit=1`),
    await acme.client.get(`/v1/accounts/${randomUUID()}/address-book`),
    await acme.client.get(`/v1/accounts/${own2.accountId}/address-book?startingAfter=${recipient()}`),
  ],
};
