import { Type } from 'typebox';
import { listAccountLedgerEntries } from '../../../domain/ledger/ledger-reads.js';
import { integratorOf } from '../../context.js';
import { Uuid } from '../../schemas/onboarding/common.js';
import { LedgerEntryPageSchema, LedgerStatusSchema } from '../../schemas/ledger.js';
import { FORMATS, patterned } from '../../schemas/patterns.js';
import { SIGNED_READ_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';

/** An account's ledger entries (docs/ledger.md#reading-it). */
export function ledgerEntryRoutes(api: Api, deps: Deps): void {
  api.get(
    '/v1/accounts/:accountId/ledger-entries',
    {
      schema: {
        operationId: 'listLedgerEntries',
        tags: ['Ledger'],
        summary: 'An account’s ledger entries in every asset, newest first, with cursor pagination: each with its signed amount, status, the balance after it and what caused it',
        params: Type.Object({ accountId: Uuid() }, { additionalProperties: false }),
        querystring: Type.Object(
          {
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
            startingAfter: Type.Optional(Uuid('The last ledgerEntryId of the previous page')),
            asset: Type.Optional(patterned(FORMATS.ledgerAsset, { description: 'Only this asset’s entries' })),
            status: Type.Optional(LedgerStatusSchema),
          },
          { additionalProperties: false },
        ),
        response: { 200: LedgerEntryPageSchema, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => {
      const q = request.query;
      return listAccountLedgerEntries(deps.database.db, integratorOf(request), {
        accountId: request.params.accountId,
        limit: q.limit ?? 20,
        ...(q.startingAfter ? { startingAfter: q.startingAfter } : {}),
        ...(q.asset ? { asset: q.asset } : {}),
        ...(q.status ? { status: q.status } : {}),
      });
    },
  );
}
