import { adminReconciliationRoutes } from './admin-reconciliations.js';
import { adminLedgerRoutes } from './admin-ledger.js';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { bearerToken } from '../auth/bearer.js';
import type { FailureLimiter } from '../auth/failure-limiter.js';
import { bodyPending } from '../body-limits.js';
import { operatorForToken } from '../../domain/operators/operators.js';
import { getCase, getDocumentContent, listReviews, type OperatorRef } from '../../domain/verification/review.js';
import { decideAsOperator } from '../../domain/cases/operator-decisions.js';
import { adminCaseRoutes } from './admin-cases.js';
import { problemResponses } from '../schemas/problem.js';
import type { Api, Deps } from '../types.js';
import { adminBankAccountRoutes } from './admin-bank-accounts.js';
import { adminDepositRoutes } from './admin-deposits.js';
import { adminScreeningRoutes } from './admin-screening.js';
import { adminWithdrawalRoutes } from './admin-withdrawals.js';
import {
  ADMIN_READ_ERRORS,
  ADMIN_TAGS,
  ADMIN_WRITE_ERRORS,
  CaseParams,
  CaseSchema,
  DecisionBody,
  DecisionResultSchema,
  DocumentContentResponse,
  DocumentParams,
  OperatorSchema,
  ReviewPageSchema,
  ReviewQuery,
} from '../schemas/admin.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator behind an /admin/api request's bearer token. */
    operator?: OperatorRef;
  }
}

export const ADMIN_PREFIX = '/admin/api';

const WWW_AUTHENTICATE = { 'www-authenticate': 'Bearer realm="admin"' };

/** The operator's bearer token, never an integrator signature: anything else is a 401. */
async function authenticateOperator(request: FastifyRequest, deps: Deps): Promise<OperatorRef> {
  const token = bearerToken(request.headers.authorization);
  if (token === undefined) {
    throw new ApiError('missing_auth_headers', 'The admin API requires Authorization: Bearer <operator token>', { headers: WWW_AUTHENTICATE });
  }
  const operator = await operatorForToken(deps.database.db, token);
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
export async function registerAdminApi(app: Api, deps: Deps, failures: FailureLimiter): Promise<void> {
  await app.register(
    async (scope) => {
      const api = scope as unknown as Api;
      api.addHook('onRequest', async (request, reply) => {
        reply.header('cache-control', 'no-store');
        try {
          request.operator = await authenticateOperator(request, deps);
        } catch (err) {
          // Token guessing is limited per source address like bad signatures; a body is never read for it.
          if (bodyPending(request)) reply.header('connection', 'close');
          throw err instanceof ApiError ? failures.fail(request.ip, err) : err;
        }
      });

      adminDepositRoutes(api, deps);
      adminBankAccountRoutes(api, deps);
      adminWithdrawalRoutes(api, deps);
      adminScreeningRoutes(api, deps);
      adminCaseRoutes(api, deps);
      adminLedgerRoutes(api, deps);
      adminReconciliationRoutes(api, deps);

      api.get(
        '/whoami',
        {
          schema: {
            operationId: 'adminWhoami',
            tags: ADMIN_TAGS.operator,
            summary: 'The operator behind the token',
            response: { 200: OperatorSchema, ...problemResponses(...ADMIN_READ_ERRORS) },
          },
        },
        async (request) => ({ operatorId: request.operator!.operatorId, name: request.operator!.name, role: request.operator!.role }),
      );

      api.get(
        '/reviews',
        {
          schema: {
            operationId: 'listReviews',
            tags: ADMIN_TAGS.reviews,
            summary: 'The review queue: every integrator’s cases in review and those open on active customers (or one status), with their flags, oldest first',
            querystring: ReviewQuery,
            response: { 200: ReviewPageSchema, ...problemResponses(...ADMIN_READ_ERRORS) },
          },
        },
        async (request) => {
          const q = request.query;
          return listReviews(deps.database.db, {
            limit: q.limit ?? 50,
            now: deps.clock(),
            ...(q.status !== undefined ? { status: q.status } : {}),
            ...(q.flag !== undefined ? { flag: q.flag } : {}),
            ...(q.assignee !== undefined ? { assignee: q.assignee === 'me' ? request.operator!.operatorId : null } : {}),
            ...(q.q !== undefined ? { search: q.q } : {}),
            ...(q.integratorId !== undefined ? { integratorId: q.integratorId } : {}),
            ...(q.olderThanSeconds !== undefined ? { olderThanSeconds: q.olderThanSeconds } : {}),
            ...(q.startingAfter !== undefined ? { startingAfter: q.startingAfter } : {}),
          });
        },
      );

      api.get(
        '/reviews/:subjectType/:subjectId',
        {
          schema: {
            operationId: 'getCase',
            tags: ADMIN_TAGS.reviews,
            summary: 'One case: the record as its integrator reads it, findings, screening hits, what is missing, its holder, proposal and timeline',
            params: CaseParams,
            response: { 200: CaseSchema, ...problemResponses(...ADMIN_READ_ERRORS, 404) },
          },
        },
        async (request) => {
          const found = await getCase(deps.database, request.params.subjectType, request.params.subjectId, request.operator);
          return { ...found, record: withContentUrls(found.record) as Record<string, unknown> };
        },
      );

      api.post(
        '/reviews/:subjectType/:subjectId/decisions',
        {
          schema: {
            operationId: 'decideCase',
            tags: ADMIN_TAGS.reviews,
            summary: 'A decision on the case (approve, reject, request_resubmission, deactivate, reactivate, reopen) as the operator, audited with its reasons',
            params: CaseParams,
            body: DecisionBody,
            response: { 200: DecisionResultSchema, ...problemResponses(...ADMIN_WRITE_ERRORS, 403, 404, 409, 422) },
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
        {
          schema: {
            operationId: 'getDocumentContent',
            tags: ADMIN_TAGS.reviews,
            summary: 'A document’s bytes, for display to the operator (the contentUrl of a case’s documents)',
            params: DocumentParams,
            response: { 200: DocumentContentResponse, ...problemResponses(...ADMIN_READ_ERRORS, 404) },
          },
        },
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
