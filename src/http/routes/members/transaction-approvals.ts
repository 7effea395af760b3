import { Type } from 'typebox';
import { approveTransaction, rejectTransaction } from '../../../domain/transactions/member-decisions.js';
import { actorFrom } from '../../context.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import { ActingMemberFields } from '../../schemas/members.js';
import { Uuid } from '../../schemas/onboarding/common.js';
import { SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import { TransactionRef } from '../../schemas/transactions.js';
import type { Api, Deps } from '../../types.js';
import { transactionDeps } from '../transactions/transactions.js';

const TAGS = ['Transactions'];
const DecisionBody = Type.Object({ transactionId: Uuid('A transaction from an entity wallet waiting for its quorum (status created)'), ...ActingMemberFields }, { additionalProperties: false, title: 'TransactionDecision' });

/** Members' decisions on transactions from entity wallets (docs/members.md#quorum). */
export function transactionApprovalRoutes(api: Api, deps: Deps): void {
  api.post(
    '/v1/submit/approve-transaction',
    {
      schema: {
        operationId: 'approveTransaction',
        tags: TAGS,
        summary: 'An owner’s or approver’s approval of a waiting transaction; the approval that reaches the quorum signs and broadcasts it, once',
        headers: IdempotencyHeaders,
        body: DecisionBody,
        response: { 200: TransactionRef, ...problemResponses(...SIGNED_WRITE_ERRORS, 404, 502) },
      },
    },
    async (request) => approveTransaction(actorFrom(request, deps), transactionDeps(request, deps), request.body),
  );

  api.post(
    '/v1/submit/reject-transaction',
    {
      schema: {
        operationId: 'rejectTransaction',
        tags: TAGS,
        summary: 'An owner or approver ends a waiting transaction: failed, failureReason rejected; nothing is signed',
        headers: IdempotencyHeaders,
        body: DecisionBody,
        response: { 200: TransactionRef, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => rejectTransaction(actorFrom(request, deps), request.body),
  );
}
