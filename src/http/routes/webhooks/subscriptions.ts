import { Type } from 'typebox';
import * as deliveries from '../../../domain/webhooks/deliveries.js';
import type { WebhookEnvironment } from '../../../domain/webhooks/subscription-input.js';
import * as subscriptions from '../../../domain/webhooks/subscriptions.js';
import { actorFrom, integratorOf } from '../../context.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import { SIGNED_READ_ERRORS, SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import {
  CreateSubscriptionBody,
  DeliveryIdParams,
  DeliveryPageSchema,
  DeliverySchema,
  ListDeliveriesQuery,
  RecoverBody,
  SubscriptionIdParams,
  SubscriptionListingRef,
  UpdateSubscriptionBody,
} from '../../schemas/webhooks.js';
import type { Api, Deps } from '../../types.js';

const TAGS = ['Webhooks'];
const BASE = '/v1/webhooks/subscriptions';

export function webhookRoutes(api: Api, deps: Deps): void {
  const env = (): WebhookEnvironment => ({ rules: { allowPrivate: deps.config.webhooks.allowPrivate }, sandbox: deps.config.appEnv === 'sandbox' });

  api.get(
    BASE,
    {
      schema: {
        operationId: 'listWebhookSubscriptions',
        tags: TAGS,
        summary: 'All webhook subscriptions of the integrator, each with its active public signing key',
        response: {
          200: Type.Object({ subscriptions: Type.Array(SubscriptionListingRef) }, { additionalProperties: false, description: 'The subscriptions, oldest first' }),
          ...problemResponses(...SIGNED_READ_ERRORS),
        },
      },
    },
    async (request) => subscriptions.listSubscriptions(deps.database.db, integratorOf(request)),
  );

  api.post(
    BASE,
    {
      // An HMAC subscription's answer carries its secret: an Idempotency-Key replays it only to the same credential.
      config: { secretResponse: true },
      schema: {
        operationId: 'createWebhookSubscription',
        tags: TAGS,
        summary: 'Creates a subscription with its own signing key (Ed25519, or an HMAC secret shown once); the URL is checked (https, public addresses only)',
        headers: IdempotencyHeaders,
        body: CreateSubscriptionBody,
        response: { 201: { ...SubscriptionListingRef, description: 'The new subscription and its public key' }, ...problemResponses(...SIGNED_WRITE_ERRORS) },
      },
    },
    async (request, reply) => reply.code(201).send(await subscriptions.createSubscription(actorFrom(request, deps), request.body, env())),
  );

  api.get(
    `${BASE}/:subscriptionId`,
    {
      schema: {
        operationId: 'getWebhookSubscription',
        tags: TAGS,
        summary: 'One subscription with its active public signing key',
        params: SubscriptionIdParams,
        response: { 200: { ...SubscriptionListingRef, description: 'The subscription' }, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => subscriptions.getSubscription(deps.database.db, integratorOf(request), request.params.subscriptionId),
  );

  api.patch(
    `${BASE}/:subscriptionId`,
    {
      schema: {
        operationId: 'updateWebhookSubscription',
        tags: TAGS,
        summary: 'Changes a subscription; enabled: true re-enables one the service disabled',
        params: SubscriptionIdParams,
        body: UpdateSubscriptionBody,
        response: { 200: { ...SubscriptionListingRef, description: 'The updated subscription' }, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => subscriptions.updateSubscription(actorFrom(request, deps), request.params.subscriptionId, request.body, env()),
  );

  api.delete(
    `${BASE}/:subscriptionId`,
    {
      schema: {
        operationId: 'deleteWebhookSubscription',
        tags: TAGS,
        summary: 'Deletes a subscription with its keys and delivery history; nothing more is sent to it',
        params: SubscriptionIdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      await subscriptions.deleteSubscription(actorFrom(request, deps), request.params.subscriptionId);
      return reply.code(204).send(null);
    },
  );

  api.post(
    `${BASE}/:subscriptionId/rotate-key`,
    {
      config: { secretResponse: true },
      schema: {
        operationId: 'rotateWebhookSigningKey',
        tags: TAGS,
        summary: 'Makes a new active signing key (or HMAC secret, shown once); the previous one also signs for 24 hours (two signatures per delivery)',
        headers: IdempotencyHeaders,
        params: SubscriptionIdParams,
        response: { 200: { ...SubscriptionListingRef, description: 'The subscription with its new public key' }, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => subscriptions.rotateSigningKey(actorFrom(request, deps), request.params.subscriptionId),
  );

  api.post(
    `${BASE}/:subscriptionId/test`,
    {
      schema: {
        operationId: 'sendWebhookTest',
        tags: TAGS,
        summary: 'Sends a webhook.test event to this subscription only, whatever its eventTypes: signed and retried like any delivery',
        headers: IdempotencyHeaders,
        params: SubscriptionIdParams,
        response: {
          202: Type.Object(
            { eventId: Type.String({ format: 'uuid', description: 'The webhook.test event (its delivery is in the subscription’s history)' }), subscriptionId: Type.String({ format: 'uuid' }) },
            { additionalProperties: false, description: 'Queued for delivery' },
          ),
          ...problemResponses(...SIGNED_WRITE_ERRORS, 404),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await subscriptions.sendTestEvent(actorFrom(request, deps), request.params.subscriptionId)),
  );

  api.get(
    `${BASE}/:subscriptionId/deliveries`,
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        tags: TAGS,
        summary: 'The subscription’s delivery history, newest first, each delivery with its attempts',
        params: SubscriptionIdParams,
        querystring: ListDeliveriesQuery,
        response: { 200: DeliveryPageSchema, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => {
      const q = request.query;
      return deliveries.listSubscriptionDeliveries(deps.database.db, integratorOf(request), request.params.subscriptionId, {
        limit: q.limit ?? 20,
        ...(q.startingAfter ? { startingAfter: q.startingAfter } : {}),
        ...(q.status ? { status: q.status } : {}),
      });
    },
  );

  api.post(
    `${BASE}/:subscriptionId/deliveries/:deliveryId/retry`,
    {
      schema: {
        operationId: 'retryWebhookDelivery',
        tags: TAGS,
        summary: 'Sends a delivery again now (whatever its status), restarting its retry schedule',
        headers: IdempotencyHeaders,
        params: DeliveryIdParams,
        response: { 202: { ...DeliverySchema, description: 'The delivery, queued' }, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await deliveries.retryDelivery(actorFrom(request, deps), request.params.subscriptionId, request.params.deliveryId)),
  );

  api.post(
    `${BASE}/:subscriptionId/recover`,
    {
      schema: {
        operationId: 'recoverWebhookDeliveries',
        tags: TAGS,
        summary: 'Sends again every failed delivery of events since a time',
        headers: IdempotencyHeaders,
        params: SubscriptionIdParams,
        body: RecoverBody,
        response: {
          202: Type.Object({ requeued: Type.Integer({ minimum: 0 }) }, { additionalProperties: false, description: 'How many deliveries were queued again' }),
          ...problemResponses(...SIGNED_WRITE_ERRORS, 404),
        },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await deliveries.recoverSubscription(actorFrom(request, deps), request.params.subscriptionId, new Date(request.body.since))),
  );
}
