import type { FastifyRequest } from 'fastify';

// A route whose JSON body may be left out (DELETE /v1/policies/{policyId}: a body only when an entity owner approves).
// Fastify validates a missing body as null against the body schema, and @fastify/swagger always documents a body as
// required; both are set right here, from one marker on the route's schema.

const MARK = 'x-optional-body';

declare module 'fastify' {
  interface FastifySchema {
    /** The body may be left out: OPTIONAL_BODY. */
    [MARK]?: boolean;
  }
}

/** Spread into a route's schema, with `preValidation: emptyBodyAsObject` on the route. */
export const OPTIONAL_BODY = { [MARK]: true } as const;

/** No body at all reads as `{}` (a schema whose fields are all optional takes it); a body sent is validated as is. */
export async function emptyBodyAsObject(request: FastifyRequest): Promise<void> {
  if (request.body == null && !request.rawBody?.length) request.body = {};
}

type Operation = { [MARK]?: boolean; requestBody?: { required?: boolean } };

/** The document's side: such an operation's requestBody is `required: false`, and the marker is dropped. */
export function markOptionalBodies<D extends { paths?: object }>(doc: D): D {
  for (const methods of Object.values(doc.paths ?? {}) as Record<string, Operation>[]) {
    for (const op of Object.values(methods)) {
      if (!op || typeof op !== 'object' || !op[MARK]) continue;
      delete op[MARK];
      if (op.requestBody) op.requestBody.required = false;
    }
  }
  return doc;
}
