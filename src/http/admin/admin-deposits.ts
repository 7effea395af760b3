import { Type } from 'typebox';
import { treasuryFor } from '../../chain/treasury.js';
import { AMOUNT_PATTERN, cancelDeposit, depositByReference, receiveDepositFunds } from '../../domain/deposits/deposits.js';
import { TransactionRef } from '../schemas/transactions.js';
import { problemResponses } from '../schemas/problem.js';
import type { Api, Deps } from '../types.js';
import { ADMIN_READ_ERRORS, ADMIN_TAGS, ADMIN_WRITE_ERRORS, DepositAuditSchema, ReferenceParams } from '../schemas/admin.js';
import { TreasurySchema } from '../schemas/admin-treasury.js';
import { treasuryView } from '../../domain/deposits/treasury-view.js';

/**
 * Deposits as operators (or a bank-feed integration holding an operator token) move them in production:
 * funds received for a reference, or cancelled (docs/deposits.md). Registered inside the admin API's scope.
 */
export function adminDepositRoutes(api: Api, deps: Deps): void {
  const treasury = treasuryFor({ key: deps.config.deposits.treasuryKey, sandbox: deps.config.appEnv === 'sandbox', secrets: deps.secrets });

  api.get(
    '/treasury',
    {
      schema: {
        operationId: 'getTreasury',
        tags: ADMIN_TAGS.deposits,
        summary: 'The treasury wallet deposits are paid out from (to fund it): its balance of every chain’s native coin and listed token, and the payouts waiting, with why',
        response: { 200: TreasurySchema, ...problemResponses(...ADMIN_READ_ERRORS) },
      },
    },
    async () => treasuryView(deps.database.db, deps.chains, deps.tokens, treasury),
  );

  api.get(
    '/deposits/:reference',
    {
      schema: {
        operationId: 'getDepositByReference',
        tags: ADMIN_TAGS.deposits,
        summary: 'A deposit by the reference on its transfer instructions, with its integrator and audit trail',
        params: ReferenceParams,
        response: { 200: DepositAuditSchema, ...problemResponses(...ADMIN_READ_ERRORS, 404) },
      },
    },
    async (request) => depositByReference(deps.database, request.params.reference),
  );

  api.post(
    '/deposits/:reference/funds-received',
    {
      schema: {
        operationId: 'receiveDepositFunds',
        tags: ADMIN_TAGS.deposits,
        summary: 'Records that the fiat arrived: the deposit moves to funds_in_transfer and its payout is sent',
        params: ReferenceParams,
        body: Type.Object({ amount: Type.String({ pattern: AMOUNT_PATTERN, description: 'The amount that arrived, decimal, in the deposit’s currency' }) }, { additionalProperties: false }),
        response: { 200: TransactionRef, ...problemResponses(...ADMIN_WRITE_ERRORS, 404, 409, 422) },
      },
    },
    async (request) => {
      const result = await receiveDepositFunds(deps.database, { config: deps.config.deposits }, { reference: request.params.reference, amount: request.body.amount }, request.operator!.operatorId, deps.clock());
      request.log.info({ operator: request.operator!.name, reference: request.params.reference, amount: request.body.amount }, 'deposit funds received');
      deps.transactionBroadcast?.fire();
      return result;
    },
  );

  api.post(
    '/deposits/:reference/cancel',
    {
      schema: {
        operationId: 'cancelDeposit',
        tags: ADMIN_TAGS.deposits,
        summary: 'Cancels a deposit whose funds will not arrive (failed, failureReason cancelled)',
        params: ReferenceParams,
        body: Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false }),
        response: { 200: TransactionRef, ...problemResponses(...ADMIN_WRITE_ERRORS, 404, 409) },
      },
    },
    async (request) => {
      const result = await cancelDeposit(deps.database, { reference: request.params.reference, reason: request.body.reason }, request.operator!.operatorId, deps.clock());
      request.log.info({ operator: request.operator!.name, reference: request.params.reference, reason: request.body.reason }, 'deposit cancelled');
      return result;
    },
  );
}
