import { Type } from 'typebox';
import { decideBankAccountAsOperator, getBankAccountCase, listBankAccountReviews } from '../../domain/bank-accounts/bank-account-review.js';
import { invalidFields } from '../../domain/errors.js';
import { BankAccountCasePageSchema, BankAccountCaseSchema, BankAccountDecisionBody, BankAccountSchema } from '../schemas/bank-accounts.js';
import { Uuid } from '../schemas/onboarding/common.js';
import { problemResponses } from '../schemas/problem.js';
import type { Api, Deps } from '../types.js';
import { ADMIN_READ_ERRORS, ADMIN_TAGS, ADMIN_WRITE_ERRORS } from '../schemas/admin.js';

const Params = Type.Object({ bankAccountId: Uuid() }, { additionalProperties: false });

/** Bank accounts whose holder name did not match, as operators review them (docs/bank-accounts.md). */
export function adminBankAccountRoutes(api: Api, deps: Deps): void {
  api.get(
    '/bank-accounts',
    {
      schema: {
        operationId: 'listBankAccountReviews',
        tags: ADMIN_TAGS.bankAccounts,
        summary: 'Bank accounts in pending_review, every integrator’s, oldest first',
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })) }, { additionalProperties: false }),
        response: { 200: BankAccountCasePageSchema, ...problemResponses(...ADMIN_READ_ERRORS) },
      },
    },
    async (request) => listBankAccountReviews(deps.database.db, request.query.limit ?? 50),
  );

  api.get(
    '/bank-accounts/:bankAccountId',
    {
      schema: {
        operationId: 'getBankAccountCase',
        tags: ADMIN_TAGS.bankAccounts,
        summary: 'One bank account with its integrator, the names its holder is compared with, and its history',
        params: Params,
        response: { 200: BankAccountCaseSchema, ...problemResponses(...ADMIN_READ_ERRORS, 404) },
      },
    },
    async (request) => getBankAccountCase(deps.database.db, request.params.bankAccountId),
  );

  api.post(
    '/bank-accounts/:bankAccountId/decisions',
    {
      schema: {
        operationId: 'decideBankAccount',
        tags: ADMIN_TAGS.bankAccounts,
        summary: 'Approves (verified) or rejects (rejected, with a reason) a bank account in pending_review, audited',
        params: Params,
        body: BankAccountDecisionBody,
        response: { 200: BankAccountSchema, ...problemResponses(...ADMIN_WRITE_ERRORS, 404, 409) },
      },
    },
    async (request) => {
      const { outcome, reason } = request.body;
      if (outcome === 'reject' && !reason?.trim()) throw invalidFields([{ pointer: '/reason', code: 'required', detail: 'is required to reject', in: 'body' }]);
      const operator = request.operator!;
      const result = await decideBankAccountAsOperator(deps.database, { bankAccountId: request.params.bankAccountId, outcome, ...(reason ? { reason } : {}) }, operator.operatorId, deps.clock());
      request.log.info({ operator: operator.name, bankAccountId: request.params.bankAccountId, outcome }, 'bank account decided');
      return result;
    },
  );
}
