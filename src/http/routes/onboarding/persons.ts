import { Type } from 'typebox';
import {
  createAssociatedPerson,
  getAssociatedPerson,
  personSubmissionErrors,
  removeAssociatedPerson,
  updateAssociatedPerson,
  type CreatePersonInput,
} from '../../../domain/onboarding/persons/associated-persons.js';
import { actorFrom, integratorOf } from '../../context.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import { Uuid } from '../../schemas/onboarding/common.js';
import {
  AssociatedPersonResponse,
  CreateAssociatedPersonBody,
  RemoveAssociatedPersonBody,
  UpdateAssociatedPersonBody,
} from '../../schemas/onboarding/entities.js';
import { SIGNED_READ_ERRORS, SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';

const TAGS = ['Customer management'];

export function personRoutes(api: Api, deps: Deps): void {
  api.get(
    '/v1/query/get-associated-person-details',
    {
      schema: {
        operationId: 'getAssociatedPersonDetails',
        tags: TAGS,
        summary: 'The full record of one beneficiary or representative of an entity',
        querystring: Type.Object({ beneficiaryId: Uuid() }, { additionalProperties: false }),
        response: { 200: AssociatedPersonResponse, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => getAssociatedPerson(deps.database.db, integratorOf(request), request.query.beneficiaryId),
  );

  api.post(
    '/v1/submit/create-associated-person',
    {
      config: { bodyChecks: (body) => personSubmissionErrors(body as CreatePersonInput, deps.clock()) },
      schema: {
        operationId: 'createAssociatedPerson',
        tags: TAGS,
        summary: 'Adds a UBO or representative to an entity account',
        headers: IdempotencyHeaders,
        body: CreateAssociatedPersonBody,
        response: { 201: AssociatedPersonResponse, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request, reply) => reply.code(201).send(await createAssociatedPerson(actorFrom(request, deps), request.body)),
  );

  api.patch(
    '/v1/submit/update-associated-person',
    {
      schema: {
        operationId: 'updateAssociatedPerson',
        tags: TAGS,
        summary: 'Updates an associated person (only provided fields change) and adds documents',
        body: UpdateAssociatedPersonBody,
        response: { 200: AssociatedPersonResponse, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => updateAssociatedPerson(actorFrom(request, deps), request.body),
  );

  api.post(
    '/v1/submit/remove-associated-person',
    {
      schema: {
        operationId: 'removeAssociatedPerson',
        tags: TAGS,
        summary: 'Removes an associated person from its entity',
        headers: IdempotencyHeaders,
        body: RemoveAssociatedPersonBody,
        response: {
          200: Type.Object({ beneficiaryId: Uuid(), removed: Type.Literal(true) }, { additionalProperties: false, description: 'Removed' }),
          ...problemResponses(...SIGNED_WRITE_ERRORS, 404),
        },
      },
    },
    async (request) => removeAssociatedPerson(actorFrom(request, deps), request.body.beneficiaryId),
  );
}
