import { randomUUID } from 'node:crypto';
import type { ApiResponse } from '../../harness/client.js';
import { californian, signedAt } from '../../harness/fixtures.js';
import type { SeededIntegrator } from '../../harness/server.js';

/** What these examples need of the OpenAPI suite's context. */
interface Ctx {
  acme: SeededIntegrator;
  own2: { accountId: string };
}

/** The token operations aimed at another integrator's account (the 401/403/404 sweep). */
export const TOKEN_ADDRESSED: Record<string, (c: Ctx, r: { accountId: string }) => Promise<ApiResponse>> = {
  getAccountBalances: (c, r) => c.acme.client.get(`/v1/query/get-account-balances?accountId=${r.accountId}`),
  listLedgerEntries: (c, r) => c.acme.client.get(`/v1/accounts/${r.accountId}/ledger-entries`),
};

/** Real calls of the token operations: the suite's active customer (own2) with a wallet, one without, one unknown. */
export const TOKEN_EXAMPLES: Record<string, (c: Ctx) => Promise<ApiResponse[]>> = {
  listLedgerEntries: async ({ acme, own2 }) => [
    await acme.client.get(`/v1/accounts/${own2.accountId}/ledger-entries`),
    await acme.client.get(`/v1/accounts/${own2.accountId}/ledger-entries?limit=1&status=posted&asset=eip155:8453/slip44:60`),
    await acme.client.get(`/v1/accounts/${own2.accountId}/ledger-entries?startingAfter=${randomUUID()}`),
    await acme.client.get(`/v1/accounts/${randomUUID()}/ledger-entries`),
    await acme.client.get(`/v1/accounts/${own2.accountId}/ledger-entries?asset=ETH`),
  ],
  listTokens: async ({ acme }) => [
    await acme.client.get('/v1/query/list-tokens'),
    await acme.client.get('/v1/query/list-tokens?chain_id=1'),
    await acme.client.get('/v1/query/list-tokens?chain_id=base'),
  ],
  getAccountBalances: async ({ acme, own2 }) => {
    const walletless = await acme.client.post('/v1/submit/create-user', {
      userInfo: californian({ email: `balances.${randomUUID()}@example.com` }),
      serviceTermsSignedAt: signedAt(),
      partnerSignedAgreementId: 'agreement-balances',
    });
    return [
      await acme.client.get(`/v1/query/get-account-balances?accountId=${own2.accountId}`),
      await acme.client.get(`/v1/query/get-account-balances?accountId=${walletless.body.accountId}`),
      await acme.client.get(`/v1/query/get-account-balances?accountId=${randomUUID()}`),
      await acme.client.get('/v1/query/get-account-balances?accountId=nope'),
    ];
  },
};
