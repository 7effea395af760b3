import { Type } from 'typebox';
import { disableProduct, enableProduct, listAccountProducts } from '../../../domain/products/account-products.js';
import { listProducts } from '../../../domain/products/catalogue.js';
import { actorFrom, integratorOf } from '../../context.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import { Uuid } from '../../schemas/onboarding/common.js';
import { AccountProductSchema, ProductSchema } from '../../schemas/products.js';
import { SIGNED_READ_ERRORS, SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';

const TAGS = ['Products'];
const ChoiceBody = Type.Object({ accountId: Uuid(), productId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

/** The product catalogue and each account's products (docs/products.md). */
export function productRoutes(api: Api, deps: Deps): void {
  const config = deps.config.products;
  api.get(
    '/v1/query/list-products',
    {
      schema: {
        operationId: 'listProducts',
        tags: TAGS,
        summary: 'The products this deployment offers, with what an account needs to have each',
        response: { 200: Type.Object({ data: Type.Array(ProductSchema) }, { additionalProperties: false }), ...problemResponses(...SIGNED_READ_ERRORS) },
      },
    },
    async () => listProducts(config),
  );

  api.get(
    '/v1/query/list-account-products',
    {
      schema: {
        operationId: 'listAccountProducts',
        tags: TAGS,
        summary: 'Each offered product’s status for one account: enabled, available, or unavailable with reasons',
        querystring: Type.Object({ accountId: Uuid() }, { additionalProperties: false }),
        response: { 200: Type.Object({ data: Type.Array(AccountProductSchema) }, { additionalProperties: false }), ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => listAccountProducts(deps.database.db, config, integratorOf(request), request.query.accountId),
  );

  api.post(
    '/v1/submit/enable-product',
    {
      schema: {
        operationId: 'enableProduct',
        tags: TAGS,
        summary: 'Enables a product for an eligible account (with termsAcceptedAt when the product has terms)',
        headers: IdempotencyHeaders,
        body: Type.Object({ ...ChoiceBody.properties, termsAcceptedAt: Type.Optional(Type.String({ format: 'date-time', description: 'When the end user accepted the product’s terms' })) }, { additionalProperties: false }),
        response: { 200: AccountProductSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => enableProduct(actorFrom(request, deps), config, request.body),
  );

  api.post(
    '/v1/submit/disable-product',
    {
      schema: {
        operationId: 'disableProduct',
        tags: TAGS,
        summary: 'Disables a product for an account: its operations answer 409 product_not_enabled until it is enabled again',
        headers: IdempotencyHeaders,
        body: ChoiceBody,
        response: { 200: AccountProductSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => disableProduct(actorFrom(request, deps), config, request.body),
  );
}
