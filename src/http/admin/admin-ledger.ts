import { Type } from 'typebox';
import { getLedgerAccount, getLedgerTransaction, ledgerTransactionsOf, listLedgerAccountEntries, listLedgerAccounts, trialBalanceView } from '../../domain/ledger/ledger-reads.js';
import { Uuid } from '../schemas/onboarding/common.js';
import { LedgerAccountAsOfSchema, LedgerAccountKindSchema, LedgerAccountPageSchema, LedgerEntryPageSchema, LedgerStatusSchema, LedgerTransactionSchema, TrialBalanceSchema } from '../schemas/ledger.js';
import { FORMATS, patterned } from '../schemas/patterns.js';
import { problemResponses } from '../schemas/problem.js';
import { ADMIN_READ_ERRORS, ADMIN_TAGS } from '../schemas/admin.js';
import type { Api, Deps } from '../types.js';
import { decodeCursor, encodeCursor, pageQuery } from './list-cursor.js';

const AccountParams = Type.Object({ ledgerAccountId: Uuid() }, { additionalProperties: false });

/** The ledger as operators read it (docs/ledger.md#reading-it): accounts, transactions with their legs, the trial balance. */
export function adminLedgerRoutes(api: Api, deps: Deps): void {
  const db = () => deps.database.db;

  api.get(
    '/ledger/accounts',
    {
      schema: {
        operationId: 'listLedgerAccounts',
        tags: ADMIN_TAGS.ledger,
        summary: 'Ledger accounts with their balances, a page at a time: the service’s own (treasury, fiat clearing, fees…) and every customer’s',
        querystring: Type.Object(
          {
            kind: Type.Optional(LedgerAccountKindSchema),
            asset: Type.Optional(patterned(FORMATS.ledgerAsset, { description: 'Only this asset’s accounts' })),
            accountId: Type.Optional(Uuid('Only this customer account’s')),
            ...pageQuery,
          },
          { additionalProperties: false },
        ),
        response: { 200: LedgerAccountPageSchema, ...problemResponses(...ADMIN_READ_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      const limit = q.limit ?? 50;
      const page = await listLedgerAccounts(db(), {
        limit,
        ...(q.kind ? { kind: q.kind } : {}),
        ...(q.asset ? { asset: q.asset } : {}),
        ...(q.accountId ? { accountId: q.accountId } : {}),
        ...(q.startingAfter ? { after: decodeCursor(q.startingAfter) } : {}),
      });
      const last = page.data.at(-1);
      return { ...page, nextCursor: page.hasMore && last ? encodeCursor(last.ledgerAccountId) : null };
    },
  );

  api.get(
    '/ledger/accounts/:ledgerAccountId',
    {
      schema: {
        operationId: 'getLedgerAccount',
        tags: ADMIN_TAGS.ledger,
        summary: 'One ledger account with its balances, now or as of a past time',
        params: AccountParams,
        querystring: Type.Object({ asOf: Type.Optional(Type.String({ format: 'date-time', description: 'The balances as they were then (the last change at or before it)' })) }, { additionalProperties: false }),
        response: { 200: LedgerAccountAsOfSchema, ...problemResponses(...ADMIN_READ_ERRORS, 404) },
      },
    },
    async (request) => getLedgerAccount(db(), request.params.ledgerAccountId, request.query.asOf ? new Date(request.query.asOf) : undefined),
  );

  api.get(
    '/ledger/accounts/:ledgerAccountId/entries',
    {
      schema: {
        operationId: 'listLedgerAccountEntries',
        tags: ADMIN_TAGS.ledger,
        summary: 'One ledger account’s entries, newest first',
        params: AccountParams,
        querystring: Type.Object(
          { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })), startingAfter: Type.Optional(Uuid('The last ledgerEntryId of the previous page')), status: Type.Optional(LedgerStatusSchema) },
          { additionalProperties: false },
        ),
        response: { 200: LedgerEntryPageSchema, ...problemResponses(...ADMIN_READ_ERRORS, 404) },
      },
    },
    async (request) => {
      const q = request.query;
      return listLedgerAccountEntries(db(), request.params.ledgerAccountId, { limit: q.limit ?? 50, ...(q.startingAfter ? { before: q.startingAfter } : {}), ...(q.status ? { status: q.status } : {}) });
    },
  );

  api.get(
    '/ledger/transactions',
    {
      schema: {
        operationId: 'listLedgerTransactionsOfCause',
        tags: ADMIN_TAGS.ledger,
        summary: 'The ledger transactions a transaction or a withdrawal payout caused (by its row id), each with all its legs',
        querystring: Type.Object({ causeId: Uuid('The transaction’s or payout’s id (a transaction’s objectId in its events)') }, { additionalProperties: false }),
        response: { 200: Type.Object({ data: Type.Array(LedgerTransactionSchema) }, { additionalProperties: false, title: 'LedgerTransactionList' }), ...problemResponses(...ADMIN_READ_ERRORS) },
      },
    },
    async (request) => ({ data: await ledgerTransactionsOf(db(), request.query.causeId) }),
  );

  api.get(
    '/ledger/transactions/:ledgerTransactionId',
    {
      schema: {
        operationId: 'getLedgerTransaction',
        tags: ADMIN_TAGS.ledger,
        summary: 'One ledger transaction with all its legs (they sum to zero per asset)',
        params: Type.Object({ ledgerTransactionId: Uuid() }, { additionalProperties: false }),
        response: { 200: LedgerTransactionSchema, ...problemResponses(...ADMIN_READ_ERRORS, 404) },
      },
    },
    async (request) => getLedgerTransaction(db(), request.params.ledgerTransactionId),
  );

  api.get(
    '/ledger/trial-balance',
    {
      schema: {
        operationId: 'getTrialBalance',
        tags: ADMIN_TAGS.ledger,
        summary: 'Every asset’s balances summed per kind of account: each asset sums to zero',
        response: { 200: TrialBalanceSchema, ...problemResponses(...ADMIN_READ_ERRORS) },
      },
    },
    async () => trialBalanceView(db()),
  );
}
