import { Type } from 'typebox';
import { FORMATS, patterned } from './patterns.js';

/** Documented on every POST: Stripe-style idempotency (docs/idempotency.md). */
export const IdempotencyHeaders = Type.Object(
  {
    'idempotency-key': Type.Optional(
      patterned(FORMATS.idempotencyKey, {
        description: 'Makes a retry safe: the first response is stored for 24 h and replayed with Idempotent-Replayed: true',
      }),
    ),
  },
  // Every other header is allowed; only this one is described and checked here.
  { additionalProperties: true },
);
