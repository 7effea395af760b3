import { Type } from 'typebox';
import { treasuryFor } from '../../chain/treasury.js';
import { listDeposits } from '../../db/repositories/deposits.js';
import type { Executor } from '../../db/database.js';
import type { TransactionStatus } from '../../db/schema/index.js';
import { cancelDeposit, depositByReference, receiveDepositFunds } from '../../domain/deposits/deposits.js';
import { toTransactionView, type TransactionView } from '../../domain/transactions/transaction-view.js';
import { Nullable, Uuid } from '../schemas/onboarding/common.js';
import { TransactionRef, TransactionSchema } from '../schemas/transactions.js';
import { problemResponses } from '../schemas/problem.js';
import type { Api, Deps } from '../types.js';
import { ADMIN_READ_ERRORS, ADMIN_TAGS, ADMIN_WRITE_ERRORS, DepositAuditSchema, ReferenceParams } from '../schemas/admin.js';
import { TreasurySchema } from '../schemas/admin-treasury.js';
import { treasuryView } from '../../domain/deposits/treasury-view.js';
import { decodeCursor, encodeCursor, pageQuery } from './list-cursor.js';
import { FORMATS, patterned } from '../schemas/patterns.js';

/** The statuses a deposit goes through (docs/deposits.md); `created` is never one of them. */
const DEPOSIT_STATUSES = ['waiting_for_funds', 'funds_in_transfer', 'processing', 'completed', 'failed'] as const satisfies readonly TransactionStatus[];

const DepositListQuery = Type.Object(
  {
    status: Type.Optional(Type.Enum([...DEPOSIT_STATUSES], { type: 'string', description: 'Only deposits in this status; every status when absent' })),
    ...pageQuery,
  },
  { additionalProperties: false },
);

const DepositListItemSchema = Type.Object(
  { ...TransactionSchema.properties, integratorId: Uuid(), integratorName: Type.String() },
  { additionalProperties: false, title: 'OperatorDepositListItem', description: 'A deposit as its integrator reads it, with its integrator (its history is at /admin/api/deposits/{reference})' },
);

const DepositPageSchema = Type.Object(
  { data: Type.Array(DepositListItemSchema), hasMore: Type.Boolean(), nextCursor: Nullable(Type.String({ description: 'startingAfter for the next page; null on the last' })) },
  { additionalProperties: false, title: 'OperatorDepositPage' },
);

/** Every integrator's deposits, newest first, a page at a time (docs/review.md). */
async function depositPage(
  db: Executor,
  options: { status?: TransactionStatus; limit: number; startingAfter?: string },
): Promise<{ data: (TransactionView & { integratorId: string; integratorName: string })[]; hasMore: boolean; nextCursor: string | null }> {
  const before = options.startingAfter === undefined ? undefined : decodeCursor(options.startingAfter);
  const rows = await listDeposits(db, { limit: options.limit + 1, ...(options.status ? { status: options.status } : {}), ...(before ? { before } : {}) });
  const page = rows.slice(0, options.limit);
  const hasMore = rows.length > options.limit;
  const last = page.at(-1);
  return {
    data: page.map(({ transaction, integratorName }) => ({ ...toTransactionView(transaction), integratorId: transaction.integratorId, integratorName })),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor(last.transaction.id) : null,
  };
}

/**
 * Deposits as operators (or a bank-feed integration holding an operator token) move them in production:
 * funds received for a reference, or cancelled (docs/deposits.md). Registered inside the admin API's scope.
 */
export function adminDepositRoutes(api: Api, deps: Deps): void {
  const treasury = treasuryFor({ key: deps.config.deposits.treasuryKey, sandbox: deps.config.appEnv === 'sandbox', secrets: deps.secrets, custody: deps.custody });

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
    '/deposits',
    {
      schema: {
        operationId: 'listDeposits',
        tags: ADMIN_TAGS.deposits,
        summary: 'Every integrator’s deposits, newest first, in one status or all; keyset pages (startingAfter: the previous page’s nextCursor)',
        querystring: DepositListQuery,
        response: { 200: DepositPageSchema, ...problemResponses(...ADMIN_READ_ERRORS) },
      },
    },
    async (request) => {
      const { status, limit, startingAfter } = request.query;
      return depositPage(deps.database.db, { limit: limit ?? 50, ...(status ? { status } : {}), ...(startingAfter !== undefined ? { startingAfter } : {}) });
    },
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
        body: Type.Object({ amount: patterned(FORMATS.fiatAmount, { description: 'The amount that arrived, decimal, in the deposit’s currency' }) }, { additionalProperties: false }),
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
