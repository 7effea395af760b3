import { setTimeout as pause } from 'node:timers/promises';
import { eventTypeFilter, getEvent, listEventsWaiting } from '../../../domain/events/list-events.js';
import { listEventDeliveries } from '../../../domain/webhooks/deliveries.js';
import { SIGNED_READ_ERRORS, problemResponses } from '../../schemas/problem.js';
import { EventPageSchema, EventRef } from '../../schemas/events.js';
import { DeliveryPageSchema, EventIdParams, ListDeliveriesQuery, ListEventsQuery } from '../../schemas/webhooks.js';
import type { Api, Deps } from '../../types.js';
import { integratorOf } from '../../context.js';

const TAGS = ['Events'];
/**
 * Events are written as stored: immutable, each in the shape of the apiVersion it was made under, and already the
 * API's views. Re-serializing them through the 40-way `Event` union would check every event against its branch
 * on every read and could reshape an older event.
 */
const asStored = () => (payload: unknown) => JSON.stringify(payload);

export function eventRoutes(api: Api, deps: Deps): void {
  api.get(
    '/v1/events',
    {
      schema: {
        operationId: 'listEvents',
        tags: TAGS,
        summary: 'The integrator’s events, newest first (order=asc to catch up), with cursor pagination and filters; waitSeconds makes it a long poll',
        querystring: ListEventsQuery,
        response: { 200: EventPageSchema, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
      serializerCompiler: asStored,
    },
    async (request, reply) => {
      const q = request.query;
      const types = eventTypeFilter(q.type, q.types);
      const date = (s: string | undefined) => (s === undefined ? undefined : new Date(s));
      // A client that went away stops the long poll: the response closed before it was written.
      let gone = false;
      reply.raw.once('close', () => (gone = !reply.raw.writableFinished));
      const wait = { ms: (q.waitSeconds ?? 0) * 1000, pause: (ms: number) => pause(ms), aborted: () => gone };
      return listEventsWaiting(deps.database.db, integratorOf(request), {
        limit: q.limit ?? 20,
        order: q.order ?? 'desc',
        ...(q.startingAfter ? { startingAfter: q.startingAfter } : {}),
        ...(types ? { types } : {}),
        ...(q.objectId !== undefined ? { objectId: q.objectId } : {}),
        ...(q.createdGte ? { createdGte: date(q.createdGte)! } : {}),
        ...(q.createdGt ? { createdGt: date(q.createdGt)! } : {}),
        ...(q.createdLte ? { createdLte: date(q.createdLte)! } : {}),
        ...(q.createdLt ? { createdLt: date(q.createdLt)! } : {}),
        ...(q.deliverySuccess !== undefined ? { deliverySuccess: q.deliverySuccess } : {}),
      }, wait);
    },
  );

  api.get(
    '/v1/events/:eventId',
    {
      schema: {
        operationId: 'getEvent',
        tags: TAGS,
        summary: 'One event',
        params: EventIdParams,
        response: { 200: { ...EventRef, description: 'The event' }, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
      serializerCompiler: asStored,
    },
    async (request) => getEvent(deps.database.db, integratorOf(request), request.params.eventId),
  );

  api.get(
    '/v1/events/:eventId/deliveries',
    {
      schema: {
        operationId: 'listEventDeliveries',
        tags: TAGS,
        summary: 'The webhook deliveries of one event (one per subscription), each with its attempts',
        params: EventIdParams,
        querystring: ListDeliveriesQuery,
        response: { 200: DeliveryPageSchema, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => {
      const q = request.query;
      return listEventDeliveries(deps.database.db, integratorOf(request), request.params.eventId, {
        limit: q.limit ?? 20,
        ...(q.startingAfter ? { startingAfter: q.startingAfter } : {}),
        ...(q.status ? { status: q.status } : {}),
      });
    },
  );
}

