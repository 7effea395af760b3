import { bigint, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.js';
import { integratorId } from './integrators.js';

/**
 * Money to or from a wallet address on a sanctions list (docs/screening.md#wallet-addresses): an outgoing transfer,
 * a deposit's payout or a refund refused before it was signed, or an incoming transfer from a listed sender. Written
 * once per attempt (a payout retried is not written again) and never changed; operators read them in the console.
 */
export const addressScreeningHits = pgTable(
  'address_screening_hits',
  {
    id: id(),
    integratorId: integratorId(),
    accountId: uuid('account_id').notNull(),
    chainId: bigint('chain_id', { mode: 'number' }).notNull(),
    /** transfer, deposit_payout, refund: refused before signing; incoming: recorded, the transfer had happened. */
    activity: text('activity', { enum: ['transfer', 'deposit_payout', 'refund', 'incoming'] }).notNull(),
    /** The transaction it is about: the deposit or refund waiting, the incoming transfer; null for a refused submission. */
    transactionRowId: uuid('transaction_row_id'),
    /** The listed address, as the transaction has it (checksummed). */
    address: text('address').notNull(),
    /** The list entry: its list's label, number, name, programs and the currency it gives for the address. */
    list: text('list').notNull(),
    entryNumber: text('entry_number').notNull(),
    listedName: text('listed_name').notNull(),
    programs: jsonb('programs').$type<string[]>().notNull(),
    currency: text('currency').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('address_screening_hits_created_idx').on(t.createdAt, t.id)],
);
