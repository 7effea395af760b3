import { Type } from 'typebox';
import { advancePayoutAsOperator, listPayouts, payoutByReference, type PayoutOutcome } from '../../domain/withdrawals/withdrawal-payouts.js';
import { TransactionRef } from '../schemas/transactions.js';
import { Nullable } from '../schemas/onboarding/common.js';
import { problemResponses } from '../schemas/problem.js';
import type { Api, Deps } from '../types.js';
import { ADMIN_READ_ERRORS, ADMIN_TAGS, ADMIN_WRITE_ERRORS } from '../schemas/admin.js';
import { FORMATS, patterned } from '../schemas/patterns.js';

const Params = Type.Object({ reference: patterned(FORMATS.withdrawalReference, { description: 'The payout’s reference (quoted on the bank transfer)' }) }, { additionalProperties: false });

const PayoutSchema = Type.Object(
  {
    reference: Type.String(),
    status: Type.Enum(['pending', 'sent', 'settled', 'returned'], { type: 'string' }),
    integratorId: Type.String({ format: 'uuid' }),
    integratorName: Type.String(),
    transaction: TransactionRef,
    amount: Type.String(),
    currency: Type.Enum(['USD', 'EUR'], { type: 'string' }),
    rail: Type.Enum(['ach', 'sepa'], { type: 'string' }),
    beneficiary: Type.Object(
      {
        accountHolderName: Type.String(),
        accountNumber: Nullable(Type.String({ description: 'ACH: the full account number (operators only)' })),
        routingNumber: Nullable(Type.String()),
        accountType: Nullable(Type.String()),
        iban: Nullable(Type.String({ description: 'SEPA: the full IBAN (operators only)' })),
        bic: Nullable(Type.String()),
      },
      { additionalProperties: false, title: 'PayoutBeneficiary' },
    ),
    sentAt: Nullable(Type.String({ format: 'date-time' })),
    settledAt: Nullable(Type.String({ format: 'date-time' })),
    returnedAt: Nullable(Type.String({ format: 'date-time' })),
    returnReason: Nullable(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, title: 'WithdrawalPayout', description: 'A withdrawal’s fiat payout, with what the bank transfer needs' },
);

const STEPS: { path: string; outcome: PayoutOutcome; operationId: string; summary: string }[] = [
  { path: 'payout-sent', outcome: 'sent', operationId: 'markWithdrawalPayoutSent', summary: 'The bank transfer left (pending -> sent); the withdrawal stays funds_in_transfer' },
  { path: 'settled', outcome: 'settled', operationId: 'settleWithdrawalPayout', summary: 'The bank transfer arrived (-> settled): the withdrawal completes' },
  { path: 'returned', outcome: 'returned', operationId: 'returnWithdrawalPayout', summary: 'The bank returned the transfer (-> returned): the withdrawal fails (payout_returned) and its crypto is refunded to the wallet' },
];

/** Withdrawal payouts as operators (or a bank-rail integration with an operator token) make them (docs/withdrawals.md). */
export function adminWithdrawalRoutes(api: Api, deps: Deps): void {
  api.get(
    '/withdrawals',
    {
      schema: {
        operationId: 'listWithdrawalPayouts',
        tags: ADMIN_TAGS.withdrawals,
        summary: 'Payouts to make (pending) and to confirm (sent), every integrator’s, oldest first, with the beneficiaries’ full bank details',
        querystring: Type.Object(
          {
            status: Type.Optional(Type.Enum(['pending', 'sent'], { type: 'string', description: 'One status; both when absent' })),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ data: Type.Array(PayoutSchema), hasMore: Type.Boolean() }, { additionalProperties: false }), ...problemResponses(...ADMIN_READ_ERRORS) },
      },
    },
    async (request) => listPayouts(deps.database.db, deps.secrets, { status: request.query.status ? [request.query.status] : ['pending', 'sent'], limit: request.query.limit ?? 50 }),
  );

  api.get(
    '/withdrawals/:reference',
    {
      schema: {
        operationId: 'getWithdrawalPayout',
        tags: ADMIN_TAGS.withdrawals,
        summary: 'A withdrawal’s payout by reference, with the beneficiary’s full bank details to pay it',
        params: Params,
        response: { 200: PayoutSchema, ...problemResponses(...ADMIN_READ_ERRORS, 404) },
      },
    },
    async (request) => payoutByReference(deps.database.db, deps.secrets, request.params.reference),
  );

  for (const step of STEPS) {
    api.post(
      `/withdrawals/:reference/${step.path}`,
      {
        schema: {
          operationId: step.operationId,
          tags: ADMIN_TAGS.withdrawals,
          summary: step.summary,
          params: Params,
          body: Type.Object(
            { reason: step.outcome === 'returned' ? Type.String({ minLength: 1, maxLength: 500, description: 'Why the bank returned it' }) : Type.Optional(Type.String({ maxLength: 500 })) },
            { additionalProperties: false },
          ),
          response: { 200: TransactionRef, ...problemResponses(...ADMIN_WRITE_ERRORS, 404, 409) },
        },
      },
      async (request) => {
        const operator = request.operator!;
        const { reason } = request.body;
        const result = await advancePayoutAsOperator(deps.database, { reference: request.params.reference, outcome: step.outcome, ...(reason ? { reason } : {}) }, operator.operatorId, deps.clock());
        request.log.info({ operator: operator.name, reference: request.params.reference, outcome: step.outcome }, 'withdrawal payout moved');
        if (step.outcome === 'returned') deps.transactionBroadcast?.fire();
        return result;
      },
    );
  }
}
