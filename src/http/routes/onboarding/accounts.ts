import { Type } from 'typebox';
import { getAccountDetails, listAccounts } from '../../../domain/onboarding/accounts/account-reads.js';
import { AccountPageSchema, AccountSchema, ListAccountsQuery } from '../../schemas/onboarding/accounts.js';
import { Uuid } from '../../schemas/onboarding/common.js';
import { SIGNED_READ_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';
import { integratorOf } from '../../context.js';

const TAGS = ['Account management'];

export function accountRoutes(api: Api, deps: Deps): void {
  api.get(
    '/v1/query/get-account-details',
    {
      schema: {
        operationId: 'getAccountDetails',
        tags: TAGS,
        summary: 'One account: type, owner, status, wallet and custody',
        querystring: Type.Object({ accountId: Uuid() }, { additionalProperties: false }),
        response: { 200: AccountSchema, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => getAccountDetails(deps.database.db, integratorOf(request), request.query.accountId),
  );

  api.get(
    '/v1/query/list-accounts',
    {
      schema: {
        operationId: 'listAccounts',
        tags: TAGS,
        summary: 'The integrator’s accounts, oldest first, with cursor pagination and filters',
        querystring: ListAccountsQuery,
        response: { 200: AccountPageSchema, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => {
      const q = request.query;
      return listAccounts(deps.database.db, integratorOf(request), {
        limit: q.limit ?? 20,
        ...(q.startingAfter ? { startingAfter: q.startingAfter } : {}),
        ...(q.type ? { type: q.type } : {}),
        ...(q.verificationStatus ? { verificationStatus: q.verificationStatus } : {}),
      });
    },
  );
}
