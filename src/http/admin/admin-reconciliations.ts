import { Type } from 'typebox';
import { runBankReconciliation } from '../../domain/reconciliation/bank-run.js';
import { chainReconciliationDeps, runChainReconciliation } from '../../domain/reconciliation/chain-run.js';
import { breakView, exceptionView, listOperatorEventViews, listRunViews, runView } from '../../domain/reconciliation/run-view.js';
import { matchException, resolveBreak, resolveException } from '../../domain/reconciliation/work.js';
import { EXPECTED_KINDS } from '../../db/schema/index.js';
import { problemResponses } from '../schemas/problem.js';
import { ADMIN_READ_ERRORS, ADMIN_TAGS, ADMIN_WRITE_ERRORS } from '../schemas/admin.js';
import { BreakParams, BreakSchema, ExceptionParams, ExceptionSchema, Note, OperatorEventSchema, RunPageSchema, RunParams, RunRequestSchema, RunSchema } from '../schemas/reconciliation.js';
import { Nullable } from '../schemas/onboarding/common.js';
import type { Api, Deps } from '../types.js';
import { decodeCursor, encodeCursor, pageQuery } from './list-cursor.js';

/** Reconciliation runs and the work on their breaks and exceptions, for operators (docs/reconciliation.md). */
export function adminReconciliationRoutes(api: Api, deps: Deps): void {
  const tags = ADMIN_TAGS.reconciliation;
  const db = () => deps.database.db;

  api.post(
    '/reconciliations',
    {
      // A statement of a few months of lines is megabytes: the document limit, not the JSON one.
      bodyLimit: deps.config.documentBodyLimitBytes,
      // The statement file itself as the body (Content-Type: application/xml) is a bank run of it.
      config: { xmlBody: (xml: string) => ({ kind: 'bank', statement: xml }) },
      schema: {
        operationId: 'runReconciliation',
        tags,
        summary: 'Runs a reconciliation now: against the chain ({"kind":"chain"}), or against the bank with an uploaded camt.053 statement ({"kind":"bank","statement":"<xml>"}, or the file itself as an application/xml body)',
        body: RunRequestSchema,
        response: { 201: RunSchema, ...problemResponses(...ADMIN_WRITE_ERRORS, 409) },
      },
    },
    async (request, reply) => {
      const by = { trigger: 'operator' as const, operatorId: request.operator!.operatorId };
      const body = request.body;
      const run =
        body.kind === 'chain'
          ? await runChainReconciliation(chainReconciliationDeps(deps), by)
          : await runBankReconciliation({ database: deps.database, now: deps.clock, windowDays: deps.config.reconcile.bankWindowDays }, body.statement, by);
      return reply.code(201).send(await runView(db(), run.id));
    },
  );

  api.get(
    '/reconciliations',
    {
      schema: {
        operationId: 'listReconciliations',
        tags,
        summary: 'Reconciliation runs, newest first, with their counts',
        querystring: Type.Object({ kind: Type.Optional(Type.Enum(['chain', 'bank'], { type: 'string' })), ...pageQuery }, { additionalProperties: false }),
        response: { 200: RunPageSchema, ...problemResponses(...ADMIN_READ_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = await listRunViews(db(), { limit: q.limit ?? 50, ...(q.kind ? { kind: q.kind } : {}), ...(q.startingAfter ? { before: decodeCursor(q.startingAfter) } : {}) });
      const last = page.data.at(-1);
      return { ...page, nextCursor: page.hasMore && last ? encodeCursor(last.runId) : null };
    },
  );

  api.get(
    '/reconciliations/:runId',
    {
      schema: { operationId: 'getReconciliation', tags, summary: 'One run with its breaks, exceptions and matched lines', params: RunParams, response: { 200: RunSchema, ...problemResponses(...ADMIN_READ_ERRORS, 404) } },
    },
    async (request) => runView(db(), request.params.runId),
  );

  api.post(
    '/reconciliations/:runId/breaks/:breakId/resolve',
    {
      schema: {
        operationId: 'resolveReconciliationBreak',
        tags,
        summary: 'Records what a break was; with adjust, posts the difference to the ledger (against adjustments) so the next run finds none',
        params: BreakParams,
        body: Type.Object({ note: Note, adjust: Type.Boolean({ description: 'Post the difference to the ledger' }) }, { additionalProperties: false }),
        response: { 200: BreakSchema, ...problemResponses(...ADMIN_WRITE_ERRORS, 404, 409) },
      },
    },
    async (request) => breakView(await resolveBreak(deps.database, { ...request.params, ...request.body }, request.operator!.operatorId, deps.clock())),
  );

  api.post(
    '/reconciliations/:runId/exceptions/:exceptionId/match',
    {
      schema: {
        operationId: 'matchReconciliationException',
        tags,
        summary: 'Matches an exception’s statement line by hand to a deposit, payout or payout return (by its reference); each is matched once',
        params: ExceptionParams,
        body: Type.Object(
          { kind: Type.Enum([...EXPECTED_KINDS], { type: 'string' }), reference: Type.String({ minLength: 1, maxLength: 64, description: 'DEP-… or WDR-…' }), note: Type.Optional(Note) },
          { additionalProperties: false },
        ),
        response: { 200: ExceptionSchema, ...problemResponses(...ADMIN_WRITE_ERRORS, 404, 409) },
      },
    },
    async (request) => exceptionView(await matchException(deps.database, { ...request.params, ...request.body }, request.operator!.operatorId, deps.clock())),
  );

  api.post(
    '/reconciliations/:runId/exceptions/:exceptionId/resolve',
    {
      schema: {
        operationId: 'resolveReconciliationException',
        tags,
        summary: 'Closes an exception with a note (a bank fee, a line explained elsewhere)',
        params: ExceptionParams,
        body: Type.Object({ note: Note }, { additionalProperties: false }),
        response: { 200: ExceptionSchema, ...problemResponses(...ADMIN_WRITE_ERRORS, 404, 409) },
      },
    },
    async (request) => exceptionView(await resolveException(deps.database, { ...request.params, ...request.body }, request.operator!.operatorId, deps.clock())),
  );

  api.get(
    '/events',
    {
      schema: {
        operationId: 'listOperatorEvents',
        tags,
        summary: 'Events for operators (reconciliation.completed), newest first: never sent to integrators',
        querystring: Type.Object({ type: Type.Optional(Type.Enum(['reconciliation.completed'], { type: 'string' })), ...pageQuery }, { additionalProperties: false }),
        response: {
          200: Type.Object({ data: Type.Array(OperatorEventSchema), hasMore: Type.Boolean(), nextCursor: Nullable(Type.String()) }, { additionalProperties: false, title: 'OperatorEventPage' }),
          ...problemResponses(...ADMIN_READ_ERRORS),
        },
      },
    },
    async (request) => {
      const q = request.query;
      const page = await listOperatorEventViews(db(), { limit: q.limit ?? 50, ...(q.type ? { type: q.type } : {}), ...(q.startingAfter ? { before: decodeCursor(q.startingAfter) } : {}) });
      const last = page.data.at(-1);
      return { ...page, nextCursor: page.hasMore && last ? encodeCursor(last.id) : null };
    },
  );
}
