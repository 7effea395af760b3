import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { policyAssets } from '../../../domain/policies/policy-assets.js';
import { sendTransactionPasskey } from '../../../domain/transactions/passkey-approval.js';
import type { TransactionDeps } from '../../../domain/transactions/send-transaction.js';
import { getTransaction, listTransactions } from '../../../domain/transactions/transaction-reads.js';
import { actorFrom, integratorOf } from '../../context.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import { Text, Uuid } from '../../schemas/onboarding/common.js';
import { SIGNED_READ_ERRORS, problemResponses } from '../../schemas/problem.js';
import { ChainIdQuery, SUBMISSION_RESPONSES, submissionBody, TransactionRef } from '../../schemas/transactions.js';
import type { Api, Deps } from '../../types.js';

const TAGS = ['Transactions'];

/** What a submission needs besides its context: the chains and their tokens, a logger, and the watcher's wake-up. */
export function transactionDeps(request: FastifyRequest, deps: Deps): TransactionDeps {
  return {
    chains: deps.chains,
    products: deps.config.products,
    tokens: deps.tokens,
    log: request.log,
    spending: { assets: policyAssets(deps.chains, deps.tokens), tokens: deps.tokens },
    onBroadcast: () => deps.transactionBroadcast?.fire(),
  };
}

export function transactionRoutes(api: Api, deps: Deps): void {
  api.post(
    '/v1/submit/send-transaction-passkey',
    {
      schema: {
        operationId: 'sendTransactionPasskey',
        tags: TAGS,
        summary: 'Signs a transaction with the account’s custody wallet, authorised by a passkey stamp, and broadcasts it (docs/transactions.md)',
        headers: IdempotencyHeaders,
        querystring: ChainIdQuery,
        body: submissionBody({ webAuthnStamp: Text(65_536, { minLength: 1, description: 'Turnkey’s X-Stamp-Webauthn value (JSON, or base64 of it)' }) }),
        response: SUBMISSION_RESPONSES,
      },
    },
    async (request, reply) => {
      const result = await sendTransactionPasskey(actorFrom(request, deps), transactionDeps(request, deps), request.query.chain_id, request.body);
      return reply.code(result.created ? 201 : 200).send(result.transaction);
    },
  );

  api.get(
    '/v1/query/get-transaction',
    {
      schema: {
        operationId: 'getTransaction',
        tags: TAGS,
        summary: 'One transaction by its transactionId',
        querystring: Type.Object({ transactionId: Uuid() }, { additionalProperties: false }),
        response: { 200: TransactionRef, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => getTransaction(deps.database.db, integratorOf(request), request.query.transactionId),
  );

  api.get(
    '/v1/query/list-transactions',
    {
      schema: {
        operationId: 'listTransactions',
        tags: TAGS,
        summary: 'An account’s transactions, newest first, with cursor pagination',
        querystring: Type.Object(
          {
            accountId: Uuid(),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
            startingAfter: Type.Optional(Uuid('The last transactionId of the previous page')),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object(
            { data: Type.Array(TransactionRef), hasMore: Type.Boolean({ description: 'More follow; pass the last transactionId as startingAfter' }) },
            { additionalProperties: false, description: 'One page of transactions, newest first' },
          ),
          ...problemResponses(...SIGNED_READ_ERRORS, 404),
        },
      },
    },
    async (request) => {
      const q = request.query;
      return listTransactions(deps.database.db, integratorOf(request), { accountId: q.accountId, limit: q.limit ?? 20, ...(q.startingAfter ? { startingAfter: q.startingAfter } : {}) });
    },
  );
}
