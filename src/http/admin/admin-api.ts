import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { VERIFICATION_STATUSES } from '../../db/schema/verification-status.js';
import { ApiError } from '../../domain/errors.js';
import { operatorForToken } from '../../domain/operators/operators.js';
import { DECISIONS } from '../../domain/verification/decisions.js';
import { decideAsOperator, getCase, getDocumentContent, listReviews, type OperatorRef } from '../../domain/verification/review.js';
import type { Api, Deps } from '../types.js';
import { adminDepositRoutes } from './admin-deposits.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator behind an /admin/api request's bearer token. */
    operator?: OperatorRef;
  }
}

export const ADMIN_PREFIX = '/admin/api';

const Uuid = () => Type.String({ format: 'uuid' });
const SubjectTypeSchema = Type.Enum(['user', 'associated_person', 'entity'], { type: 'string' });
const CaseParams = Type.Object({ subjectType: SubjectTypeSchema, subjectId: Uuid() }, { additionalProperties: false });

// The admin API is an internal operator surface: kept out of the integrators' OpenAPI document (docs/ describes it).
const HIDDEN = { hide: true } as const;

const WWW_AUTHENTICATE = { 'www-authenticate': 'Bearer realm="admin"' };

/** The operator's bearer token, never an integrator signature: anything else is a 401. */
async function authenticateOperator(request: FastifyRequest, deps: Deps): Promise<OperatorRef> {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) {
    throw new ApiError('missing_auth_headers', 'The admin API requires Authorization: Bearer <operator token>', { headers: WWW_AUTHENTICATE });
  }
  const operator = await operatorForToken(deps.database.db, match[1]!);
  if (!operator) throw new ApiError('unknown_credential', 'No active operator has this token', { headers: WWW_AUTHENTICATE });
  return operator;
}

/** Adds where an operator's browser can fetch each document's bytes. */
function withContentUrls(record: unknown): unknown {
  if (!record || typeof record !== 'object') return record;
  const out: Record<string, unknown> = { ...(record as Record<string, unknown>) };
  for (const key of ['verificationDocuments', 'entityDocuments']) {
    const docs = out[key];
    if (!Array.isArray(docs)) continue;
    out[key] = docs.map((d: unknown) => {
      const id = d && typeof d === 'object' ? (d as { documentId?: unknown }).documentId : undefined;
      return typeof id === 'string' ? { ...(d as object), contentUrl: `${ADMIN_PREFIX}/documents/${id}/content` } : d;
    });
  }
  return out;
}

/**
 * The operators' review API, in its own encapsulated scope: its bearer-token hook never sees /v1 requests and
 * the /v1 signature hooks never see these.
 */
export async function registerAdminApi(app: Api, deps: Deps): Promise<void> {
  await app.register(
    async (scope) => {
      const api = scope as unknown as Api;
      api.addHook('onRequest', async (request, reply) => {
        reply.header('cache-control', 'no-store');
        request.operator = await authenticateOperator(request, deps);
      });

      adminDepositRoutes(api, deps);

      api.get('/whoami', { schema: HIDDEN }, async (request) => ({ operatorId: request.operator!.operatorId, name: request.operator!.name }));

      api.get(
        '/reviews',
        {
          schema: {
            ...HIDDEN,
            querystring: Type.Object(
              {
                status: Type.Optional(Type.Enum([...VERIFICATION_STATUSES], { type: 'string', default: 'under_review' })),
                integratorId: Type.Optional(Uuid()),
                olderThanSeconds: Type.Optional(Type.Integer({ minimum: 0 })),
                limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
                startingAfter: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
              },
              { additionalProperties: false },
            ),
          },
        },
        async (request) => {
          const q = request.query;
          return listReviews(deps.database.db, {
            status: q.status ?? 'under_review',
            limit: q.limit ?? 50,
            now: deps.clock(),
            ...(q.integratorId !== undefined ? { integratorId: q.integratorId } : {}),
            ...(q.olderThanSeconds !== undefined ? { olderThanSeconds: q.olderThanSeconds } : {}),
            ...(q.startingAfter !== undefined ? { startingAfter: q.startingAfter } : {}),
          });
        },
      );

      api.get('/reviews/:subjectType/:subjectId', { schema: { ...HIDDEN, params: CaseParams } }, async (request) => {
        const found = await getCase(deps.database, request.params.subjectType, request.params.subjectId);
        return { ...found, record: withContentUrls(found.record) };
      });

      api.post(
        '/reviews/:subjectType/:subjectId/decisions',
        {
          schema: {
            ...HIDDEN,
            params: CaseParams,
            body: Type.Object(
              {
                decision: Type.Enum([...DECISIONS], { type: 'string' }),
                reasons: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { minItems: 1, maxItems: 10 })),
                documents: Type.Optional(Type.Array(Uuid(), { maxItems: 20 })),
              },
              { additionalProperties: false },
            ),
          },
        },
        async (request) => {
          const { subjectType, subjectId } = request.params;
          const { decision, reasons, documents } = request.body;
          return decideAsOperator(
            deps.database,
            { subjectType, subjectId },
            decision,
            { ...(reasons ? { reasons } : {}), ...(documents ? { documents } : {}) },
            request.operator!,
            deps.policy,
            deps.clock(),
          );
        },
      );

      api.get(
        '/documents/:documentId/content',
        { schema: { ...HIDDEN, params: Type.Object({ documentId: Uuid() }, { additionalProperties: false }) } },
        async (request, reply) => {
          const { mediaType, bytes } = await getDocumentContent(deps.database, deps.secrets, request.params.documentId);
          return reply
            .header('content-type', mediaType)
            .header('content-disposition', 'inline')
            .header('cache-control', 'no-store')
            .header('x-content-type-options', 'nosniff')
            .send(bytes);
        },
      );
    },
    { prefix: ADMIN_PREFIX },
  );
}
