import { Type } from 'typebox';
import { AccountBalances } from '../../../domain/tokens/balances.js';
import { listTokens } from '../../../domain/tokens/list-tokens.js';
import { withLedgerFigures } from '../../../domain/ledger/ledger-reads.js';
import { integratorOf } from '../../context.js';
import { Uuid } from '../../schemas/onboarding/common.js';
import { SIGNED_READ_ERRORS, problemResponses } from '../../schemas/problem.js';
import { AccountBalancesSchema, TokenListSchema } from '../../schemas/tokens.js';
import type { Api, Deps } from '../../types.js';

const TAGS = ['Tokens'];

/** The listed ERC-20s and what accounts hold (docs/tokens.md). */
export function tokenRoutes(api: Api, deps: Deps): void {
  api.get(
    '/v1/query/list-tokens',
    {
      schema: {
        operationId: 'listTokens',
        tags: TAGS,
        summary: 'The ERC-20 tokens money moves in here (TOKENS), on every chain or on one',
        querystring: Type.Object(
          { chain_id: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Only this chain’s tokens (a chain without listed tokens: an empty list)' })) },
          { additionalProperties: false },
        ),
        response: { 200: TokenListSchema, ...problemResponses(...SIGNED_READ_ERRORS) },
      },
    },
    async (request) => listTokens(deps.tokens, request.query.chain_id),
  );

  // One per app (so per process): its per-chain books are the cache and the coalescing every request shares.
  const balances = new AccountBalances(deps.chains, deps.tokens);
  api.get(
    '/v1/query/get-account-balances',
    {
      schema: {
        operationId: 'getAccountBalances',
        tags: TAGS,
        summary: 'What an account’s wallet holds on every configured chain: the native coin and every listed token, each chain’s at one block',
        description:
          'Read from the chains (one JSON-RPC request per chain, cached for about a block: docs/tokens.md#balances). A node that does not answer: 503 with Retry-After, never an older figure. Each asset also carries the ledger’s posted, pending and available figures (docs/ledger.md).',
        querystring: Type.Object({ accountId: Uuid() }, { additionalProperties: false }),
        response: { 200: AccountBalancesSchema, ...problemResponses(...SIGNED_READ_ERRORS, 404, 409) },
      },
    },
    async (request) => {
      const view = await balances.get(deps.database.db, integratorOf(request), request.query.accountId);
      return { ...view, balances: await withLedgerFigures(deps.database.db, integratorOf(request), view) };
    },
  );
}
