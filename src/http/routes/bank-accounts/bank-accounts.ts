import { Type } from 'typebox';
import { simulateBankAccountReview } from '../../../domain/bank-accounts/bank-account-review.js';
import { createBankAccount, getBankAccount, listBankAccounts, removeBankAccount } from '../../../domain/bank-accounts/bank-accounts.js';
import { actorFrom, integratorOf } from '../../context.js';
import { BankAccountIdBody, BankAccountPageSchema, BankAccountSchema, CreateBankAccountBody, ListBankAccountsQuery, SimulateBankAccountReviewBody } from '../../schemas/bank-accounts.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import { Uuid } from '../../schemas/onboarding/common.js';
import { SIGNED_READ_ERRORS, SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';

const TAGS = ['Account management'];

/** External bank accounts (docs/bank-accounts.md): where withdrawals are paid. */
export function bankAccountRoutes(api: Api, deps: Deps): void {
  api.post(
    '/v1/submit/create-bank-account',
    {
      schema: {
        operationId: 'createBankAccount',
        tags: TAGS,
        summary: 'Adds an external bank account (US ACH or SEPA IBAN) to an active account; verified when the holder name matches, else pending_review',
        headers: IdempotencyHeaders,
        body: CreateBankAccountBody,
        response: { 201: BankAccountSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request, reply) => reply.code(201).send(await createBankAccount(actorFrom(request, deps), request.body)),
  );

  api.get(
    '/v1/query/list-bank-accounts',
    {
      schema: {
        operationId: 'listBankAccounts',
        tags: TAGS,
        summary: 'An account’s bank accounts (not removed), oldest first, with cursor pagination',
        querystring: ListBankAccountsQuery,
        response: { 200: BankAccountPageSchema, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => {
      const q = request.query;
      return listBankAccounts(deps.database.db, integratorOf(request), { accountId: q.accountId, limit: q.limit ?? 20, ...(q.startingAfter ? { startingAfter: q.startingAfter } : {}) });
    },
  );

  api.get(
    '/v1/query/get-bank-account',
    {
      schema: {
        operationId: 'getBankAccount',
        tags: TAGS,
        summary: 'One bank account, removed ones included',
        querystring: Type.Object({ bankAccountId: Uuid() }, { additionalProperties: false }),
        response: { 200: BankAccountSchema, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => getBankAccount(deps.database.db, integratorOf(request), request.query.bankAccountId),
  );

  api.post(
    '/v1/submit/remove-bank-account',
    {
      schema: {
        operationId: 'removeBankAccount',
        tags: TAGS,
        summary: 'Removes a bank account (a soft delete: withdrawals already made keep referring to it)',
        headers: IdempotencyHeaders,
        body: BankAccountIdBody,
        response: { 200: BankAccountSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => removeBankAccount(actorFrom(request, deps), request.body.bankAccountId),
  );

  // Sandbox only; production reviews happen in the operators' console and API (a plain 404 here).
  if (deps.config.appEnv !== 'sandbox') return;
  api.post(
    '/v1/sandbox/simulate-bank-account-review',
    {
      schema: {
        operationId: 'simulateBankAccountReview',
        tags: ['Sandbox'],
        summary: 'Sandbox only: the review of a bank account in pending_review ends (approve: verified, reject: rejected)',
        headers: IdempotencyHeaders,
        body: SimulateBankAccountReviewBody,
        response: { 200: BankAccountSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => simulateBankAccountReview(actorFrom(request, deps), request.body),
  );
}
