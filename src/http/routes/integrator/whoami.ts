import { Type } from 'typebox';
import type { Scope } from '../../../domain/credentials/credentials.js';
import { scopeAllows } from '../../../domain/credentials/scopes.js';
import { SIGNED_READ_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Operation } from '../../types.js';
import { PublicKeySchema, ScopeSchema } from '../../schemas/credentials.js';
import { authOf } from '../../context.js';

export const WhoamiResponse = Type.Object(
  {
    integratorId: Type.String({ format: 'uuid' }),
    credentialId: Type.String({ format: 'uuid' }),
    publicKey: PublicKeySchema,
    label: Type.String(),
    scope: ScopeSchema,
    active: Type.Boolean(),
    capabilities: Type.Array(Type.String(), { description: 'operationIds this credential may call' }),
  },
  { additionalProperties: false, description: 'The calling credential' },
);

export function whoamiRoute(api: Api, operations: Operation[]): void {
  // Worked out once per scope, at the first request: `operations` fills up as the other routes register after
  // this one, and never changes once the server answers. Filtering and sorting them per request was 3.5 % of the
  // API's CPU under the whoami bench (docs/benchmarks.md).
  const capabilitiesOf = new Map<Scope, string[]>();
  const capabilities = (scope: Scope) => {
    let list = capabilitiesOf.get(scope);
    if (!list) capabilitiesOf.set(scope, (list = [...new Set(operations.filter((op) => scopeAllows(scope, op.access)).map((op) => op.operationId))].sort()));
    return list;
  };
  api.get(
    '/v1/integrator/whoami',
    {
      schema: {
        operationId: 'whoami',
        tags: ['Integrator key management'],
        summary: "The calling credential: its integrator, scope and the operations it may call",
        response: { 200: WhoamiResponse, ...problemResponses(...SIGNED_READ_ERRORS) },
      },
    },
    async (request) => {
      const auth = authOf(request);
      return {
        integratorId: auth.integratorId,
        credentialId: auth.credentialId,
        publicKey: auth.publicKey,
        label: auth.label,
        scope: auth.scope,
        // Only active credentials get this far.
        active: true,
        capabilities: capabilities(auth.scope),
      };
    },
  );
}
