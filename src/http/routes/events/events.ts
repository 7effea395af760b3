import { EVENT_TYPES } from '../../../domain/events/catalogue.js';
import { getEvent, listEvents } from '../../../domain/events/list-events.js';
import { invalidFields, type FieldError } from '../../../domain/errors.js';
import { listEventDeliveries } from '../../../domain/webhooks/deliveries.js';
import { SIGNED_READ_ERRORS, problemResponses } from '../../schemas/problem.js';
import { DeliveryPageSchema, EventIdParams, EventPageSchema, EventSchema, ListDeliveriesQuery, ListEventsQuery } from '../../schemas/webhooks.js';
import type { Api, Deps } from '../../types.js';
import { integratorOf } from '../../context.js';

const TAGS = ['Events'];

/** `type` and `types` name catalogue types only: a typo is a 400, not an empty page. */
function eventTypesFilter(type: string | undefined, types: string | undefined): string[] | undefined {
  const errors: FieldError[] = [];
  const check = (t: string, pointer: string) => {
    if (!(t in EVENT_TYPES)) errors.push({ pointer, code: 'unknown_event_type', detail: `${t} is not an event type (docs/event-types.md)`, in: 'query' });
  };
  const list: string[] = [];
  if (type !== undefined) {
    check(type, '/type');
    list.push(type);
  }
  if (types !== undefined) {
    const parts = types.split(',').map((t) => t.trim());
    if (parts.length > 20) errors.push({ pointer: '/types', code: 'too_many_items', detail: 'at most 20 types', in: 'query' });
    parts.forEach((t) => check(t, '/types'));
    list.push(...parts);
  }
  if (errors.length > 0) throw invalidFields(errors);
  return list.length > 0 ? [...new Set(list)] : undefined;
}

export function eventRoutes(api: Api, deps: Deps): void {
  api.get(
    '/v1/events',
    {
      schema: {
        operationId: 'listEvents',
        tags: TAGS,
        summary: 'The integrator’s events, newest first (order=asc to catch up), with cursor pagination and filters',
        querystring: ListEventsQuery,
        response: { 200: EventPageSchema, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => {
      const q = request.query;
      const types = eventTypesFilter(q.type, q.types);
      const date = (s: string | undefined) => (s === undefined ? undefined : new Date(s));
      return listEvents(deps.database.db, integratorOf(request), {
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
      });
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
        response: { 200: { ...EventSchema, description: 'The event' }, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
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

