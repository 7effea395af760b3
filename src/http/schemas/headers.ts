import { Type } from 'typebox';

/** Documented on every POST: Stripe-style idempotency (docs/idempotency.md). */
export const IdempotencyHeaders = Type.Object(
  {
    'idempotency-key': Type.Optional(
      Type.String({
        pattern: '^[\\x21-\\x7e]{1,255}$',
        description: 'Makes a retry safe: the first response is stored for 24 h and replayed with Idempotent-Replayed: true',
      }),
    ),
  },
  // Every other header is allowed; only this one is described and checked here.
  { additionalProperties: true },
);
