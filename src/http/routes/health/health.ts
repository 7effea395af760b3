import { Type } from 'typebox';
import { API_VERSION } from '../../../version.js';
import { SIGNED_READ_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';

/** The `content` of a problem response, to list beside another shape of the same status. */
const problemContent = (status: number) => (problemResponses(status)[status] as { content: Record<string, unknown> }).content;

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

/** A probe waits no longer than this: a load balancer must learn that the database stalled, not wait with it. */
export const PROBE_TIMEOUT_MS = 2_000;

/** `select 1`, answered within PROBE_TIMEOUT_MS or reported unavailable (the query itself ends on the pool's own timeouts). */
export async function probeDatabase(deps: Deps, timeoutMs = PROBE_TIMEOUT_MS): Promise<{ status: 'ok' | 'unavailable'; latencyMs: number }> {
  const started = performance.now();
  const latencyMs = () => Math.round((performance.now() - started) * 100) / 100;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  try {
    const answered = await Promise.race([deps.database.ping().then(() => true), late]);
    return { status: answered ? 'ok' : 'unavailable', latencyMs: latencyMs() };
  } catch {
    return { status: 'unavailable', latencyMs: latencyMs() };
  } finally {
    clearTimeout(timer);
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
        response: {
          ...problemResponses(...SIGNED_READ_ERRORS),
          200: HealthResponse,
          // The health body once the request is authenticated; a problem when the credential could not even be read.
          503: {
            description: 'The database is unavailable: the health body, or a database_unavailable problem when the credential could not be read',
            content: { 'application/json': { schema: HealthResponse }, ...problemContent(503) },
          },
        },
      },
    },
    async (_request, reply) => {
      const database = await probeDatabase(deps);
      const ok = database.status === 'ok';
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', version: API_VERSION, database });
    },
  );
}
