import { and, asc, eq, gt } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { addressBookEntries } from '../schema/index.js';

export type AddressBookRow = typeof addressBookEntries.$inferSelect;

/** Adds an entry; undefined when the account has this address already (the first entry, and its usable_at, stand). */
export async function insertAddressBookEntry(db: Executor, row: typeof addressBookEntries.$inferInsert): Promise<AddressBookRow | undefined> {
  const [inserted] = await db.insert(addressBookEntries).values(row).onConflictDoNothing({ target: [addressBookEntries.accountId, addressBookEntries.address] }).returning();
  return inserted;
}

/** An account's entry for a lower-case address (the evaluation of new_destination_delay). */
export async function findAddressBookEntry(db: Executor, accountId: string, address: string): Promise<AddressBookRow | undefined> {
  const [row] = await db
    .select()
    .from(addressBookEntries)
    .where(and(eq(addressBookEntries.accountId, accountId), eq(addressBookEntries.address, address)));
  return row;
}

/** An account's entries after `startingAfter`, oldest first, `limit + 1` rows. */
export function listAddressBook(db: Executor, accountId: string, options: { limit: number; startingAfter?: string }): Promise<AddressBookRow[]> {
  return db
    .select()
    .from(addressBookEntries)
    .where(and(eq(addressBookEntries.accountId, accountId), options.startingAfter ? gt(addressBookEntries.id, options.startingAfter) : undefined))
    .orderBy(asc(addressBookEntries.id))
    .limit(options.limit + 1);
}
