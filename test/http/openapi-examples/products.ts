import type { ApiResponse } from '../../harness/client.js';
import { post } from '../../harness/members.js';
import type { SeededIntegrator, TestServer } from '../../harness/server.js';

/** What these examples need of the OpenAPI suite's context. */
interface Ctx {
  server: TestServer;
  acme: SeededIntegrator;
  own2: { accountId: string };
}

/** The product operations aimed at another integrator's account (the 401/403/404 sweep). */
export const PRODUCT_ADDRESSED: Record<string, (c: Ctx, r: { accountId: string }) => Promise<ApiResponse>> = {
  listAccountProducts: (c, r) => c.acme.client.get(`/v1/query/list-account-products?accountId=${r.accountId}`),
  enableProduct: (c, r) => c.acme.client.post('/v1/submit/enable-product', { accountId: r.accountId, productId: 'fiat_deposits' }),
  disableProduct: (c, r) => c.acme.client.post('/v1/submit/disable-product', { accountId: r.accountId, productId: 'fiat_deposits' }),
};

/** Real calls of the product operations on the suite's active customer (own2). */
export const PRODUCT_EXAMPLES: Record<string, (c: Ctx) => Promise<ApiResponse[]>> = {
  listProducts: async ({ acme }) => [await acme.client.get('/v1/query/list-products')],
  listAccountProducts: async ({ acme, own2 }) => [await acme.client.get(`/v1/query/list-account-products?accountId=${own2.accountId}`)],
  enableProduct: async ({ server, acme, own2 }) => [
    await post(server, acme, '/v1/submit/enable-product', { accountId: own2.accountId, productId: 'yield_vaults', termsAcceptedAt: server.clock.now().toISOString() }),
    await post(server, acme, '/v1/submit/enable-product', { accountId: own2.accountId, productId: 'yield_vaults' }),
    await post(server, acme, '/v1/submit/enable-product', { accountId: own2.accountId, productId: 'nope' }),
  ],
  disableProduct: async ({ server, acme, own2 }) => [await post(server, acme, '/v1/submit/disable-product', { accountId: own2.accountId, productId: 'yield_vaults' })],
};
