import { Type, type Static } from 'typebox';
import { MAX_CUSTOM_HEADERS } from '../../domain/webhooks/custom-headers.js';
import { FORMATS, patterned } from './patterns.js';

const DateTime = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });
const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });

export const ListEventsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    startingAfter: Type.Optional(Uuid('The last event id of the previous page')),
    order: Type.Optional(Type.Enum(['desc', 'asc'], { type: 'string', default: 'desc', description: 'desc: newest first (default); asc: oldest first, to catch up' })),
    type: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'One event type' })),
    types: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Comma-separated event types (up to 20)' })),
    objectId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    createdGte: Type.Optional(DateTime()),
    createdGt: Type.Optional(DateTime()),
    createdLte: Type.Optional(DateTime()),
    createdLt: Type.Optional(DateTime()),
    deliverySuccess: Type.Optional(
      Type.Boolean({ description: 'true: every webhook delivery of the event succeeded; false: at least one has not succeeded (yet)' }),
    ),
    waitSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 25,
        description: 'Long poll: when no event matches yet, wait up to this many seconds for one before answering an empty page (use with order=asc and startingAfter; docs/webhooks.md#following-events-long-poll)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const EventIdParams = Type.Object({ eventId: Uuid() }, { additionalProperties: false });
export const SubscriptionIdParams = Type.Object({ subscriptionId: Uuid() }, { additionalProperties: false });
export const DeliveryIdParams = Type.Object({ subscriptionId: Uuid(), deliveryId: Uuid() }, { additionalProperties: false });

export const EndpointSafetySchema = Type.Object(
  {
    checkedAt: DateTime(),
    scheme: Type.String(),
    host: Type.String(),
    port: Type.Integer(),
    resolvedAddresses: Type.Array(Type.Object({ address: Type.String(), range: Type.String({ description: '`unicast` is a public address' }) }, { additionalProperties: false })),
    allowed: Type.Boolean(),
    reason: Type.Optional(Type.String()),
  },
  { additionalProperties: false, description: 'What the URL check found when the URL was set' },
);

const EventTypesSchema = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 100,
  description: 'Event types, prefix wildcards such as `user.*`, or `*` for every type',
  examples: [['user.verification_status.changed', 'entity.*']],
});

export const SubscriptionSchema = Type.Object(
  {
    id: Uuid(),
    integratorId: Uuid(),
    url: Type.String(),
    enabled: Type.Boolean(),
    eventTypes: EventTypesSchema,
    endpointSafetyMetadata: EndpointSafetySchema,
    httpHeaders: Type.Record(Type.String(), Type.String()),
    createdAt: DateTime(),
    updatedAt: DateTime(),
    name: Type.String(),
    activeSigningKeyId: Uuid(),
  },
  { $id: 'WebhookSubscription', additionalProperties: false, title: 'WebhookSubscription' },
);
export const SubscriptionRef = Type.Unsafe<Static<typeof SubscriptionSchema>>(Type.Ref('WebhookSubscription'));

export const SubscriptionListingSchema = Type.Object(
  {
    subscription: SubscriptionRef,
    publicKey: patterned(FORMATS.webhookPublicKey, {
      description: 'ed25519: the active public key, `whpk_` + base64 of its 32 bytes; hmac-sha256: empty (a shared secret has no public half)',
    }),
    algorithm: Type.Enum(['ed25519', 'hmac-sha256'], { type: 'string', description: 'ed25519: Standard Webhooks `v1a`; hmac-sha256: Standard Webhooks `v1` (docs/webhooks.md#signatures)' }),
    signingSecret: Type.Optional(
      patterned(FORMATS.webhookSecret, {
        description: 'hmac-sha256 only, in the answers of create and rotate-key only: the new secret, `whsec_` + base64 of 32 bytes. Shown once; keep it',
      }),
    ),
  },
  { $id: 'WebhookSubscriptionListing', additionalProperties: false, description: 'A subscription with its active public signing key' },
);
/** The named component `WebhookSubscriptionListing` (the spec's listing item; registered in app.ts). */
export const SubscriptionListingRef = Type.Unsafe<Static<typeof SubscriptionListingSchema>>(Type.Ref('WebhookSubscriptionListing'));

const Name = Type.String({ minLength: 1, maxLength: 100 });
const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'https URL of a public host', examples: ['https://hooks.example.com/integrator'] });
const EventTypesInput = Type.Union([EventTypesSchema, Type.Literal('*')]);
const HttpHeaders = Type.Record(Type.String(), Type.String(), {
  maxProperties: MAX_CUSTOM_HEADERS,
  description: 'Sent with every delivery; cannot set webhook-*, content-type, content-length, host or hop-by-hop headers',
});

export const CreateSubscriptionBody = Type.Object(
  {
    name: Name,
    url: Url,
    eventTypes: EventTypesInput,
    httpHeaders: Type.Optional(HttpHeaders),
    enabled: Type.Optional(Type.Boolean({ default: true })),
    algorithm: Type.Optional(
      Type.Enum(['ed25519', 'hmac-sha256'], {
        type: 'string',
        default: 'ed25519',
        description: 'How deliveries are signed, fixed for the subscription’s life: ed25519 (`v1a`, verify with the public key) or hmac-sha256 (`v1`, a `whsec_` secret shown once, verified by the standardwebhooks and svix libraries)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const UpdateSubscriptionBody = Type.Object(
  {
    name: Type.Optional(Name),
    url: Type.Optional(Url),
    eventTypes: Type.Optional(EventTypesInput),
    httpHeaders: Type.Optional(HttpHeaders),
    enabled: Type.Optional(Type.Boolean({ description: 'true re-enables a subscription the service disabled' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

const AttemptSchema = Type.Object(
  {
    attemptNumber: Type.Integer({ minimum: 1 }),
    attemptedAt: DateTime(),
    durationMs: Type.Integer({ minimum: 0 }),
    responseStatus: Type.Union([Type.Integer(), Type.Null()]),
    responseBody: Type.Union([Type.String({ description: 'The first 1 KiB of the response body' }), Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()]),
    success: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const DeliverySchema = Type.Object(
  {
    id: Uuid(),
    subscriptionId: Uuid(),
    eventId: Uuid(),
    eventType: Type.String(),
    status: Type.Enum(['pending', 'succeeded', 'failed'], { type: 'string' }),
    attemptCount: Type.Integer({ minimum: 0 }),
    nextAttemptAt: Type.Union([DateTime(), Type.Null()]),
    lastError: Type.Union([Type.String(), Type.Null()]),
    createdAt: DateTime(),
    updatedAt: DateTime(),
    attempts: Type.Array(AttemptSchema),
  },
  { additionalProperties: false, title: 'WebhookDelivery' },
);

export const DeliveryPageSchema = Type.Object(
  { data: Type.Array(DeliverySchema), hasMore: Type.Boolean({ description: 'More deliveries follow; pass the last id as startingAfter' }) },
  { additionalProperties: false, title: 'WebhookDeliveryPage', description: 'Deliveries, newest first, each with its attempts' },
);

export const ListDeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    startingAfter: Type.Optional(Uuid('The last delivery id of the previous page')),
    status: Type.Optional(Type.Enum(['pending', 'succeeded', 'failed'], { type: 'string' })),
  },
  { additionalProperties: false },
);

export const RecoverBody = Type.Object({ since: DateTime('Failed deliveries of events since this time are sent again') }, { additionalProperties: false });
