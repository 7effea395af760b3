import { Type } from 'typebox';
import { requestVerification } from '../../../domain/verification/request-verification.js';
import { simulateVerification } from '../../../domain/verification/simulate-verification.js';
import { actorFrom } from '../../context.js';
import { exactlyOneOf } from '../../schemas/combinators.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import { Text, Uuid, VerificationStatusSchema } from '../../schemas/onboarding/common.js';
import { SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';

const subjectFields = {
  accountId: Type.Optional(Uuid('A user’s or an entity’s account')),
  beneficiaryId: Type.Optional(Uuid('An associated person')),
};
const EXACTLY_ONE = { additionalProperties: false, ...exactlyOneOf('accountId', 'beneficiaryId') };

const VerificationStateSchema = Type.Object(
  { ...subjectFields, verificationStatus: VerificationStatusSchema },
  { additionalProperties: false, title: 'VerificationStatusResult', description: 'The record’s status after the action' },
);

export function verificationRoutes(api: Api, deps: Deps): void {
  api.post(
    '/v1/submit/request-verification',
    {
      schema: {
        operationId: 'requestVerification',
        tags: ['Customer management'],
        summary: 'Requests verification of a user’s or entity’s account, or of an associated person (exactly one id)',
        headers: IdempotencyHeaders,
        body: Type.Object(subjectFields, EXACTLY_ONE),
        response: { 200: VerificationStateSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => requestVerification(actorFrom(request, deps), request.body),
  );

  // Integrators test every branch without a human; production has no such route (a plain 404).
  if (deps.config.appEnv !== 'sandbox') return;
  api.post(
    '/v1/sandbox/simulate-verification',
    {
      schema: {
        operationId: 'simulateVerification',
        tags: ['Sandbox'],
        summary: 'Sandbox only: decides a verification as an operator would (approve, reject, request_resubmission)',
        headers: IdempotencyHeaders,
        body: Type.Object(
          {
            ...subjectFields,
            outcome: Type.Enum(['approve', 'reject', 'request_resubmission'], { type: 'string' }),
            reasons: Type.Optional(Type.Array(Text(500, { minLength: 1 }), { maxItems: 10 })),
            documents: Type.Optional(Type.Array(Uuid(), { maxItems: 20, description: 'request_resubmission: documentIds to redo' })),
          },
          EXACTLY_ONE,
        ),
        response: { 200: VerificationStateSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => simulateVerification(actorFrom(request, deps), request.body),
  );
}
