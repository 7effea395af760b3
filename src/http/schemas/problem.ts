import { Type, type Static } from 'typebox';
import { ERROR_CODES, type ErrorCode } from '../../domain/errors.js';

export const FieldErrorSchema = Type.Object(
  {
    pointer: Type.String({ description: 'JSON pointer to the offending field within the part named by `in`' }),
    code: Type.String({ description: 'Stable snake_case reason, e.g. required, unknown_field, invalid_format' }),
    detail: Type.String(),
    in: Type.Optional(Type.Enum(['body', 'query', 'path', 'header'], { type: 'string' })),
  },
  { additionalProperties: false },
);

/** RFC 9457 problem details with our stable `code`, the request id and per-field errors. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'URI reference identifying the problem type (/problems/{code})' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.Enum(Object.keys(ERROR_CODES) as ErrorCode[], { type: 'string', description: 'Stable machine-readable error code; see docs/errors.md' }),
    requestId: Type.String(),
    errors: Type.Optional(Type.Array(FieldErrorSchema)),
    missingDocuments: Type.Optional(Type.Array(Type.String(), { description: 'verification_requirements_missing: what is still missing' })),
    missingCompanyData: Type.Optional(Type.Array(Type.String(), { description: 'verification_requirements_missing: missing entity fields' })),
    fromStatus: Type.Optional(Type.String({ description: 'invalid_state_transition: the current status' })),
    toStatus: Type.Optional(Type.String({ description: 'invalid_state_transition: the status the action leads to' })),
    action: Type.Optional(Type.String({ description: 'invalid_state_transition: the refused action' })),
    reason: Type.Optional(Type.String({ description: 'invalid_stamp, invalid_approval_token: why it was refused; chain_rejected: the node’s reason' })),
    attemptsRemaining: Type.Optional(Type.Integer({ minimum: 0, description: 'otp_invalid: wrong guesses the code still allows' })),
    reasons: Type.Optional(Type.Array(Type.String(), { description: 'product_unavailable: why the account cannot have the product (docs/products.md)' })),
    transactionId: Type.Optional(Type.String({ description: 'insufficient_funds, nonce_too_low, chain_rejected after the transaction was recorded: the transaction, now failed (docs/transactions.md#sending)' })),
  },
  { $id: 'Problem', additionalProperties: false, title: 'Problem' },
);
export type Problem = Static<typeof ProblemSchema>;

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (malformed JSON or validation errors; see `errors`)',
  401: 'Missing, malformed or invalid signature, timestamp out of window, unknown or inactive credential',
  403: 'The credential scope does not allow this operation',
  404: 'Not found (also for records of another integrator)',
  409: 'Conflict: duplicate request, idempotency request in progress, or a state rule (invalid_state_transition)',
  413: 'Body too large',
  415: 'Body is not application/json',
  422: 'Idempotency-Key reused with a different request, verification requested while items are missing, or a business rule (see `code`)',
  429: 'Rate limit exceeded; see Retry-After',
  500: 'Internal error (no internals are disclosed)',
  502: 'An upstream refused or could not be reached: the chain node (transactions) or the mail server (otp/init)',
  503: 'Service unavailable: a dependency is down or not configured, the database could not be reached (database_unavailable), or (resource_busy) the records were busy and nothing was changed; retry after Retry-After with the same Idempotency-Key',
};

const ProblemRef = Type.Unsafe<Problem>(Type.Ref('Problem'));

/** The error responses a route may answer with, as OpenAPI entries referencing the shared Problem schema. */
export function problemResponses(...statuses: number[]): Record<number, unknown> {
  const out: Record<number, unknown> = {};
  for (const status of statuses) {
    out[status] = { description: DESCRIPTIONS[status] ?? 'Error', content: { 'application/problem+json': { schema: ProblemRef } } };
  }
  return out;
}

/**
 * Every signed route can fail authentication, rate limiting, the server or its database (503 database_unavailable);
 * a write can also lose a lock conflict (503 resource_busy).
 */
export const SIGNED_READ_ERRORS = [400, 401, 429, 500, 503] as const;
export const SIGNED_WRITE_ERRORS = [400, 401, 403, 409, 413, 415, 422, 429, 500, 503] as const;
