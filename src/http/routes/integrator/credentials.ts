import { Type } from 'typebox';
import * as credentials from '../../../domain/credentials/credentials.js';
import { actorFrom, integratorOf } from '../../context.js';
import { SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import type { Api, Deps } from '../../types.js';
import { CredentialRef, LabelSchema, PubkeyParams, PublicKeySchema, ScopeSchema } from '../../schemas/credentials.js';
import { FORMATS, patterned } from '../../schemas/patterns.js';

const TAGS = ['Integrator key management'];

export const CreateCredentialBody = Type.Object(
  {
    label: LabelSchema,
    scope: ScopeSchema,
    publicKey: Type.Optional(PublicKeySchema),
  },
  { additionalProperties: false },
);

export const CreateCredentialResponse = Type.Object(
  {
    credential: CredentialRef,
    privateKey: Type.Optional(
      patterned(FORMATS.privateKey, { description: 'Only when the server generated the key pair: returned once, never stored in clear (an Idempotency-Key replay returns it again to the same credential, within 24 h)' }),
    ),
  },
  { additionalProperties: false, description: 'The new credential' },
);

export const UpdateCredentialBody = Type.Object(
  {
    label: Type.Optional(LabelSchema),
    scope: Type.Optional(ScopeSchema),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** Key management: every operation here needs read_write, listing included. */
export function credentialRoutes(api: Api, deps: Deps): void {
  api.get(
    '/v1/integrator/credentials',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'listCredentials',
        tags: TAGS,
        summary: "Lists the integrator's credentials",
        response: {
          200: Type.Object({ credentials: Type.Array(CredentialRef) }, { additionalProperties: false, description: 'The integrator’s credentials, oldest first' }),
          ...problemResponses(400, 401, 403, 429, 500, 503),
        },
      },
    },
    async (request) => ({ credentials: await credentials.listCredentials(deps.database.db, integratorOf(request)) }),
  );

  api.post(
    '/v1/integrator/credentials',
    {
      // The answer may carry the generated private key (idempotency.ts seals it and replays it to this credential only).
      config: { secretResponse: true },
      schema: {
        operationId: 'createCredential',
        tags: TAGS,
        summary: 'Issues a credential; without publicKey the server generates the pair and returns the private key once',
        headers: IdempotencyHeaders,
        body: CreateCredentialBody,
        response: { 201: CreateCredentialResponse, ...problemResponses(...SIGNED_WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const issued = await credentials.issueCredential(actorFrom(request, deps), request.body);
      return reply.code(201).send(issued);
    },
  );

  api.patch(
    '/v1/integrator/credentials/:pubkey',
    {
      schema: {
        operationId: 'updateCredential',
        tags: TAGS,
        summary: "Updates a credential's label, scope or active status (not the caller's own scope or status)",
        params: PubkeyParams,
        body: UpdateCredentialBody,
        response: { 200: { ...CredentialRef, description: 'The updated credential' }, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => credentials.updateCredential(actorFrom(request, deps), request.params.pubkey, request.body),
  );

  api.delete(
    '/v1/integrator/credentials/:pubkey',
    {
      schema: {
        operationId: 'deleteCredential',
        tags: TAGS,
        summary: 'Deletes a credential (not the caller itself)',
        params: PubkeyParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      await credentials.deleteCredential(actorFrom(request, deps), request.params.pubkey);
      // 204 carries no body; Fastify drops the payload.
      return reply.code(204).send(null);
    },
  );
}
