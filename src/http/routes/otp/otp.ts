import { Type } from 'typebox';
import { initOtp, readOutbox, verifyOtp, type OtpDelivery } from '../../../domain/otp/otp.js';
import { sendTransactionOtp } from '../../../domain/transactions/otp-approval.js';
import { actorFrom, integratorOf } from '../../context.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import { Text, Uuid } from '../../schemas/onboarding/common.js';
import { SIGNED_READ_ERRORS, SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';
import { ChainIdQuery, SUBMISSION_RESPONSES, submissionBody } from '../../schemas/transactions.js';
import { transactionDeps } from '../transactions/transactions.js';
import { FORMATS, patterned } from '../../schemas/patterns.js';

const TAGS = ['OTP authentication'];
const ChannelSchema = Type.Enum(['email'], { type: 'string', description: 'Where the code goes: the user’s email address' });

const OtpSentSchema = Type.Object(
  {
    userId: Uuid(),
    channel: ChannelSchema,
    destination: Type.String({ description: 'The address the code went to, masked (j***@example.com)' }),
    expiresAt: Type.String({ format: 'date-time', description: 'The code expires then (10 minutes)' }),
    attemptsAllowed: Type.Integer({ description: 'Wrong guesses allowed before the code is locked' }),
    resendAvailableAt: Type.String({ format: 'date-time', description: 'otp/init for this user is refused (429) before then' }),
  },
  { additionalProperties: false, description: 'A code was sent' },
);

const ApprovalTokenSchema = Type.Object(
  {
    userId: Uuid(),
    approvalToken: Type.String({ description: 'Single-use approval of one transaction of this user (send-transaction-otp); otpa_ + 43 characters' }),
    expiresAt: Type.String({ format: 'date-time', description: 'The token expires then (5 minutes)' }),
  },
  { additionalProperties: false, description: 'The code was right' },
);

const OutboxSchema = Type.Object(
  {
    data: Type.Array(
      Type.Object(
        {
          id: Uuid(),
          userId: Uuid(),
          channel: ChannelSchema,
          destination: Type.String(),
          subject: Type.String(),
          body: Type.String(),
          code: Type.String({ description: 'The code in the message, for tests' }),
          createdAt: Type.String({ format: 'date-time' }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, description: 'Messages the sandbox would have emailed, newest first' },
);

/** OTP authentication (docs/otp.md): init, verify, send-transaction-otp, and the sandbox outbox. */
export function otpRoutes(api: Api, deps: Deps): void {
  const delivery: OtpDelivery = {
    ...(deps.mailer ? { mailer: deps.mailer } : {}),
    // Without SMTP, sandbox keeps the messages for the integrator to read; production cannot send (503).
    sandboxOutbox: !deps.mailer && deps.config.appEnv === 'sandbox',
    resendIntervalMs: deps.config.otp.resendIntervalMs,
    maxPerHour: deps.config.otp.maxPerHour,
  };

  api.post(
    '/v1/otp/init',
    {
      schema: {
        operationId: 'initOtp',
        tags: TAGS,
        summary: 'Sends a six-digit one-time code to the user (10 minutes, 5 guesses); a new code replaces the pending one',
        headers: IdempotencyHeaders,
        body: Type.Object({ userId: Uuid(), channel: ChannelSchema }, { additionalProperties: false }),
        response: { 201: OtpSentSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404, 502, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await initOtp(actorFrom(request, deps), delivery, request.body)),
  );

  api.post(
    '/v1/otp/verify',
    {
      // The answer carries the approval token (idempotency.ts seals it and replays it to this credential only).
      config: { secretResponse: true },
      schema: {
        operationId: 'verifyOtp',
        tags: TAGS,
        summary: 'Checks the user’s code; the right one returns a single-use approval token (5 minutes) and sets isOtpActivated',
        headers: IdempotencyHeaders,
        body: Type.Object({ userId: Uuid(), code: patterned(FORMATS.otpCode, { description: 'The six digits sent' }) }, { additionalProperties: false }),
        response: { 200: ApprovalTokenSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => verifyOtp(actorFrom(request, deps), request.body),
  );

  api.post(
    '/v1/submit/send-transaction-otp',
    {
      schema: {
        operationId: 'sendTransactionOtp',
        tags: ['Transactions'],
        summary: 'As send-transaction-passkey, approved by an OTP approval token instead of a stamp (docs/transactions.md)',
        headers: IdempotencyHeaders,
        querystring: ChainIdQuery,
        body: submissionBody({ approvalToken: Text(200, { minLength: 1, description: 'From otp/verify, for the account’s user; single-use' }) }),
        response: SUBMISSION_RESPONSES,
      },
    },
    async (request, reply) => {
      const result = await sendTransactionOtp(actorFrom(request, deps), transactionDeps(request, deps), request.query.chain_id, request.body);
      return reply.code(result.created ? 201 : 200).send(result.transaction);
    },
  );

  // Sandbox only; production has no such route (a plain 404).
  if (deps.config.appEnv !== 'sandbox') return;
  api.get(
    '/v1/sandbox/otp-outbox',
    {
      schema: {
        operationId: 'getOtpOutbox',
        tags: ['Sandbox'],
        summary: 'Sandbox only: the codes sent to a user when no SMTP_URL is configured, newest first',
        querystring: Type.Object({ userId: Uuid(), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) }, { additionalProperties: false }),
        response: { 200: OutboxSchema, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => readOutbox(deps.database, deps.secrets, integratorOf(request), request.query.userId, request.query.limit ?? 20),
  );
}
