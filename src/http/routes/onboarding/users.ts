import { Type } from 'typebox';
import { toCreateUserStatus } from '../../../domain/onboarding/status.js';
import { createUserWithAccount, userSubmissionErrors, type CreateUserInput } from '../../../domain/onboarding/users/create-user.js';
import { getUserDetails } from '../../../domain/onboarding/users/user-reads.js';
import { updateUser } from '../../../domain/onboarding/users/update-user.js';
import { actorFrom, integratorOf } from '../../context.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import {
  AdditionalUserInfoSchema,
  CreateIndividualAccountBody,
  CreateUserBody,
  CreateUserResponse,
  IndividualAccountResponse,
  UserDetailsResponse,
  UserInfoPatchSchema,
} from '../../schemas/onboarding/users.js';
import { Nullable, UserDocumentSubmission, Uuid } from '../../schemas/onboarding/common.js';
import { SIGNED_READ_ERRORS, SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';

const TAGS = ['Customer management'];

export function userRoutes(api: Api, deps: Deps): void {
  const bodyChecks = (body: unknown) => userSubmissionErrors(body as CreateUserInput, { now: deps.clock(), policy: deps.policy });
  api.post(
    '/v1/submit/create-user',
    {
      config: { bodyChecks },
      schema: {
        operationId: 'createUser',
        tags: TAGS,
        summary: 'Creates a user (with an individual account without a wallet)',
        headers: IdempotencyHeaders,
        body: CreateUserBody,
        response: { 201: CreateUserResponse, ...problemResponses(...SIGNED_WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const view = await createUserWithAccount(actorFrom(request, deps), request.body, 'none');
      // The spec's create-user shape: its own status set, no wallet, no missingDocuments.
      const { walletAddress: _w, organizationId: _o, missingDocuments: _m, ...rest } = view;
      return reply.code(201).send({ ...rest, verificationStatus: toCreateUserStatus(view.verificationStatus as never), partnerSignedAgreementId: view.partnerSignedAgreementId ?? '' });
    },
  );

  api.post(
    '/v1/submit/create-individual-account',
    {
      config: { bodyChecks },
      schema: {
        operationId: 'createIndividualAccount',
        tags: TAGS,
        summary: 'Creates an individual account: self-custodial with walletAddress, otherwise with a custodial wallet',
        headers: IdempotencyHeaders,
        body: CreateIndividualAccountBody,
        response: { 201: IndividualAccountResponse, ...problemResponses(...SIGNED_WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const view = await createUserWithAccount(actorFrom(request, deps), request.body, 'auto');
      const { partnerSignedAgreementId: _p, ...rest } = view;
      return reply.code(201).send({ ...rest, walletAddress: view.walletAddress! });
    },
  );

  api.patch(
    '/v1/submit/update-user',
    {
      schema: {
        operationId: 'updateUser',
        tags: TAGS,
        summary: 'Updates a user (only provided fields change) and adds documents, e.g. to answer a resubmission request',
        body: Type.Object(
          {
            userId: Uuid(),
            userInfo: Type.Optional(UserInfoPatchSchema),
            additionalUserInfo: Type.Optional(AdditionalUserInfoSchema),
            verificationDocuments: Type.Optional(Nullable(Type.Array(UserDocumentSubmission, { maxItems: 10 }))),
          },
          { additionalProperties: false, minProperties: 2 },
        ),
        response: { 200: UserDetailsResponse, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => updateUser(actorFrom(request, deps), request.body),
  );

  api.get(
    '/v1/query/get-user-details',
    {
      schema: {
        operationId: 'getUserDetails',
        tags: TAGS,
        summary: 'A user with its account, documents and what is still missing',
        querystring: Type.Object({ userId: Uuid() }, { additionalProperties: false }),
        response: { 200: UserDetailsResponse, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => getUserDetails(deps.database.db, integratorOf(request), request.query.userId),
  );
}
