import { Type } from 'typebox';
import { getAccountDetails, listAccounts } from '../../../domain/onboarding/accounts/account-reads.js';
import { AccountPageSchema, AccountSchema, ListAccountsQuery } from '../../schemas/onboarding/accounts.js';
import { Uuid } from '../../schemas/onboarding/common.js';
import { SIGNED_READ_ERRORS, SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';
import { actorFrom, integratorOf } from '../../context.js';
import { createEntityWallet } from '../../../domain/onboarding/accounts/entity-wallet.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';

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

  api.post(
    '/v1/submit/create-entity-wallet',
    {
      schema: {
        operationId: 'createEntityWallet',
        tags: TAGS,
        summary: 'Gives an entity account made before entities had wallets its custodial wallet (201); one that has a wallet answers as it is (200)',
        headers: IdempotencyHeaders,
        body: Type.Object({ accountId: Uuid('An entity account') }, { additionalProperties: false }),
        response: { 200: AccountSchema, 201: AccountSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      const { created, account } = await createEntityWallet(actorFrom(request, deps), request.body.accountId);
      return reply.code(created ? 201 : 200).send(account);
    },
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
