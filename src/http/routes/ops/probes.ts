import { Type } from 'typebox';
import { ERROR_CODES, notFound, type ErrorCode } from '../../../domain/errors.js';
import { problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';
import { probeDatabase } from '../health/health.js';

const Status = Type.Object({ status: Type.String() }, { additionalProperties: false, title: 'ProbeStatus' });

/** Unsigned endpoints for load balancers and for people: outside /v1, never authenticated. */
export function opsRoutes(api: Api, deps: Deps): void {
  api.get(
    '/livez',
    { schema: { operationId: 'livez', tags: ['Operations'], security: [], summary: 'The process is up', response: { 200: Status } } },
    async () => ({ status: 'ok' }),
  );

  api.get(
    '/readyz',
    {
      schema: {
        operationId: 'readyz',
        tags: ['Operations'],
        security: [],
        summary: 'The process can serve requests (database reachable)',
        response: { 200: Status, 503: Status },
      },
    },
    async (request, reply) => {
      // Stopping: requests on open connections are still served (drain.ts), but a balancer should send no more.
      if (request.server.drain.draining) return reply.code(503).send({ status: 'draining' });
      const db = await probeDatabase(deps);
      return reply.code(db.status === 'ok' ? 200 : 503).send({ status: db.status === 'ok' ? 'ready' : 'database_unavailable' });
    },
  );

  api.get(
    '/problems/:code',
    {
      schema: {
        operationId: 'describeProblem',
        tags: ['Operations'],
        security: [],
        summary: 'Describes an error code (the target of every problem `type`)',
        params: Type.Object({ code: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
        response: {
          200: Type.Object({ code: Type.String(), status: Type.Integer(), title: Type.String() }, { additionalProperties: false }),
          ...problemResponses(404),
        },
      },
    },
    async (request) => {
      const code = request.params.code;
      if (!Object.hasOwn(ERROR_CODES, code)) throw notFound('Error code');
      const entry = ERROR_CODES[code as ErrorCode];
      return { code, status: entry.status, title: entry.title };
    },
  );
}
