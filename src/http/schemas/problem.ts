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
    transactionId: Type.Optional(
      Type.String({ description: 'insufficient_funds, nonce_too_low, chain_rejected after the transaction was recorded, policy_denied: the transaction, now failed (docs/transactions.md#sending, docs/policies.md#enforcement)' }),
    ),
    policyId: Type.Optional(Type.String({ format: 'uuid', description: 'policy_denied: the spending policy that refused (docs/policies.md#enforcement)' })),
    ruleType: Type.Optional(Type.String({ description: 'policy_denied: the refusing rule’s type' })),
    ruleIndex: Type.Optional(Type.Integer({ minimum: 0, description: 'policy_denied: the refusing rule’s index in the policy’s rules' })),
    runId: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'statement_already_imported (operators): the run that imported the statement' })),
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
  410: 'Gone: the invitation expired',
  413: 'Body too large',
  415: 'Body is not application/json',
  422: 'Idempotency-Key reused with a different request, verification requested while items are missing, or a business rule (see `code`)',
  429: 'Rate limit exceeded; see Retry-After',
  500: 'Internal error (no internals are disclosed)',
  502: 'An upstream refused or could not be reached: the chain node (transactions) or the mail server (otp/init)',
  503: 'Service unavailable: a dependency is down or not configured, the database could not be reached (database_unavailable), or (resource_busy) the records were busy and nothing was changed; retry after Retry-After with the same Idempotency-Key',
};

/** One typical problem per status, shown in the documents beside the schema (the code, title and type as served). */
const EXAMPLES: Record<number, { code: ErrorCode; detail: string; errors?: Problem['errors']; extra?: Partial<Problem> }> = {
  400: {
    code: 'validation_failed',
    detail: '1 field(s) failed validation',
    errors: [{ pointer: '/amount', code: 'invalid_format', detail: 'amount must be a decimal amount with at most 2 decimals, such as "250.00" (up to 12 digits before the point, no leading zeros)', in: 'body' }],
  },
  401: { code: 'timestamp_out_of_window', detail: 'X-Timestamp is 412 s from the server time; at most 300 s are accepted' },
  403: { code: 'insufficient_scope', detail: 'This credential is read_only; this operation needs read_write' },
  404: { code: 'not_found', detail: 'No account with this id' },
  409: { code: 'idempotency_request_in_progress', detail: 'A request with this Idempotency-Key is still in progress; retry once it has finished' },
  410: { code: 'invitation_expired', detail: 'The invitation expired; ask for a new one' },
  413: { code: 'payload_too_large', detail: 'The body is larger than 1048576 bytes' },
  415: { code: 'unsupported_media_type', detail: 'Content-Type text/plain is not accepted: send application/json' },
  422: { code: 'idempotency_key_reused', detail: 'This Idempotency-Key was used with a different method, path or body' },
  429: { code: 'rate_limited', detail: 'Too many requests: retry after the time in Retry-After' },
  500: { code: 'internal_error', detail: 'Internal server error; quote the requestId to support' },
  502: { code: 'chain_unavailable', detail: 'The node of chain 8453 could not be reached' },
  503: { code: 'database_unavailable', detail: 'The database did not answer in time; nothing was changed. Retry after Retry-After with the same Idempotency-Key' },
};

function exampleFor(status: number): Problem | undefined {
  const example = EXAMPLES[status];
  if (!example) return undefined;
  const { title } = ERROR_CODES[example.code];
  return { type: `/problems/${example.code}`, title, status, detail: example.detail, code: example.code, requestId: 'req_0193a1b2-7c4d-7e5f-8a6b-9c0d1e2f3a4b', ...(example.errors ? { errors: example.errors } : {}), ...example.extra };
}

const ProblemRef = Type.Unsafe<Problem>(Type.Ref('Problem'));

/**
 * The documents' `components.examples`: one problem per status, written once and referred to by every operation
 * (inline, they would be repeated in some 250 responses and in the SDK's generated types).
 */
export const PROBLEM_EXAMPLES: Record<string, { summary: string; value: Problem }> = Object.fromEntries(
  Object.keys(EXAMPLES).map((status) => {
    const value = exampleFor(Number(status))!;
    return [`Problem${status}`, { summary: value.title, value }];
  }),
);

/** The error responses a route may answer with, as OpenAPI entries referencing the shared Problem schema and its example. */
export function problemResponses(...statuses: number[]): Record<number, unknown> {
  const out: Record<number, unknown> = {};
  for (const status of statuses) {
    const examples = EXAMPLES[status] ? { examples: { [EXAMPLES[status].code]: { $ref: `#/components/examples/Problem${status}` } } } : {};
    out[status] = { description: DESCRIPTIONS[status] ?? 'Error', content: { 'application/problem+json': { schema: ProblemRef, ...examples } } };
  }
  return out;
}

/**
 * Every signed route can fail authentication, rate limiting, the server or its database (503 database_unavailable);
 * a write can also lose a lock conflict (503 resource_busy).
 */
export const SIGNED_READ_ERRORS = [400, 401, 429, 500, 503] as const;
export const SIGNED_WRITE_ERRORS = [400, 401, 403, 409, 413, 415, 422, 429, 500, 503] as const;
