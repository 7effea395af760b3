import { Type } from 'typebox';
import { API_VERSION } from '../../../version.js';
import { SIGNED_READ_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';

export const HealthResponse = Type.Object(
  {
    status: Type.Enum(['ok', 'degraded'], { type: 'string' }),
    version: Type.String({ description: 'Interface version' }),
    database: Type.Object(
      {
        status: Type.Enum(['ok', 'unavailable'], { type: 'string' }),
        latencyMs: Type.Number(),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, title: 'Health', description: 'Service health; 503 when the database is unavailable' },
);

export async function probeDatabase(deps: Deps): Promise<{ status: 'ok' | 'unavailable'; latencyMs: number }> {
  const started = performance.now();
  try {
    await deps.database.ping();
    return { status: 'ok', latencyMs: Math.round((performance.now() - started) * 100) / 100 };
  } catch {
    return { status: 'unavailable', latencyMs: Math.round((performance.now() - started) * 100) / 100 };
  }
}

export function healthRoute(api: Api, deps: Deps): void {
  api.get(
    '/v1/health',
    {
      schema: {
        operationId: 'health',
        tags: ['API health'],
        summary: 'Service version and database status (signed)',
        response: { 200: HealthResponse, 503: HealthResponse, ...problemResponses(...SIGNED_READ_ERRORS) },
      },
    },
    async (_request, reply) => {
      const database = await probeDatabase(deps);
      const ok = database.status === 'ok';
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', version: API_VERSION, database });
    },
  );
}
