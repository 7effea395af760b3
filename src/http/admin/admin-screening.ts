import { Type } from 'typebox';
import { listAddressHits } from '../../db/repositories/address-hits.js';
import { Nullable, Uuid } from '../schemas/onboarding/common.js';
import { problemResponses } from '../schemas/problem.js';
import { ADMIN_READ_ERRORS, ADMIN_TAGS } from '../schemas/admin.js';
import type { Api, Deps } from '../types.js';
import { decodeCursor, encodeCursor, pageQuery } from './list-cursor.js';

const AddressHitSchema = Type.Object(
  {
    id: Uuid(),
    integratorId: Uuid(),
    accountId: Uuid(),
    chainId: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    activity: Type.Enum(['transfer', 'deposit_payout', 'refund', 'incoming'], {
      type: 'string',
      description: 'transfer, deposit_payout, refund: refused before anything was signed; incoming: a transfer from the listed address arrived',
    }),
    transactionRowId: Nullable(Uuid('The transaction it is about (the payout or refund waiting, the incoming transfer, the proposal); null for a refused submission')),
    address: Type.String({ description: 'The listed address' }),
    list: Type.String({ description: 'The list’s label (SCREENING_LISTS)' }),
    entryNumber: Type.String(),
    listedName: Type.String(),
    programs: Type.Array(Type.String()),
    currency: Type.String({ description: 'The currency the list gives for the address' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, title: 'AddressScreeningHit', description: 'Money to or from a wallet address on a screening list (docs/screening.md#wallet-addresses)' },
);

const AddressHitPageSchema = Type.Object(
  { data: Type.Array(AddressHitSchema), hasMore: Type.Boolean(), nextCursor: Nullable(Type.String({ description: 'startingAfter for the next page; null on the last' })) },
  { additionalProperties: false, title: 'AddressScreeningHitPage' },
);

/** What the address screening refused or saw arrive (docs/screening.md#wallet-addresses). Inside the admin API's scope. */
export function adminScreeningRoutes(api: Api, deps: Deps): void {
  api.get(
    '/address-hits',
    {
      schema: {
        operationId: 'listAddressHits',
        tags: ADMIN_TAGS.screening,
        summary: 'Transactions, payouts and refunds refused because they would move or grant value to a listed wallet address, and incoming transfers from one; newest first, keyset pages',
        querystring: Type.Object(pageQuery, { additionalProperties: false }),
        response: { 200: AddressHitPageSchema, ...problemResponses(...ADMIN_READ_ERRORS) },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? 50;
      const before = request.query.startingAfter === undefined ? undefined : decodeCursor(request.query.startingAfter);
      const rows = await listAddressHits(deps.database.db, { limit: limit + 1, ...(before ? { before } : {}) });
      const page = rows.slice(0, limit);
      const hasMore = rows.length > limit;
      return {
        data: page.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
        hasMore,
        nextCursor: hasMore ? encodeCursor(page.at(-1)!.id) : null,
      };
    },
  );
}
