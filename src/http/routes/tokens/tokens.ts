import { Type } from 'typebox';
import { listTokens } from '../../../domain/tokens/list-tokens.js';
import { SIGNED_READ_ERRORS, problemResponses } from '../../schemas/problem.js';
import { TokenListSchema } from '../../schemas/tokens.js';
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
}
