import { Type } from 'typebox';
import { createEntityAccount, entitySubmissionErrors, getEntityDetails, updateEntityAccount } from '../../../domain/onboarding/entities/entity-accounts.js';
import { actorFrom, integratorOf } from '../../context.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import { Uuid } from '../../schemas/onboarding/common.js';
import { CreateEntityAccountBody, EntityAccountResponse, EntityDetailsResponse, UpdateEntityAccountBody } from '../../schemas/onboarding/entities.js';
import { SIGNED_READ_ERRORS, SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';

const TAGS = ['Account management'];

export function entityRoutes(api: Api, deps: Deps): void {
  const bodyChecks = (body: unknown) => entitySubmissionErrors(body as Parameters<typeof entitySubmissionErrors>[0], deps.clock());
  api.post(
    '/v1/submit/create-entity-account',
    {
      config: { bodyChecks },
      schema: {
        operationId: 'createEntityAccount',
        tags: TAGS,
        summary: 'Creates an entity (company) account; what is still needed shows in missingCompanyData and missingDocuments',
        headers: IdempotencyHeaders,
        body: CreateEntityAccountBody,
        response: { 201: EntityAccountResponse, ...problemResponses(...SIGNED_WRITE_ERRORS) },
      },
    },
    async (request, reply) => reply.code(201).send(await createEntityAccount(actorFrom(request, deps), request.body)),
  );

  api.patch(
    '/v1/submit/update-entity-account',
    {
      config: { bodyChecks },
      schema: {
        operationId: 'updateEntityAccount',
        tags: TAGS,
        summary: 'Updates company details (only provided fields change) and adds entity documents',
        body: UpdateEntityAccountBody,
        response: { 200: EntityAccountResponse, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => updateEntityAccount(actorFrom(request, deps), request.body),
  );

  api.get(
    '/v1/query/get-entity-details',
    {
      schema: {
        operationId: 'getEntityDetails',
        tags: TAGS,
        summary: 'An entity account with its associated persons',
        querystring: Type.Object({ accountId: Uuid() }, { additionalProperties: false }),
        response: { 200: EntityDetailsResponse, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => getEntityDetails(deps.database.db, integratorOf(request), request.query.accountId),
  );
}
