import type { Executor } from '../../db/database.js';
import { findAccount } from '../../db/repositories/accounts.js';
import * as repo from '../../db/repositories/address-book.js';
import { policiesCovering } from '../../db/repositories/policies.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { largestDelayHours, type Rule } from './rules.js';

export interface AddressBookEntryView {
  accountId: string;
  /** Lower case. */
  address: string;
  label: string;
  /** From when the account may send to it under new_destination_delay. */
  usableAt: string;
  createdAt: string;
}

const toView = (row: repo.AddressBookRow): AddressBookEntryView => ({
  accountId: row.accountId,
  address: row.address,
  label: row.label,
  usableAt: row.usableAt.toISOString(),
  createdAt: row.createdAt.toISOString(),
});

/**
 * Adds a destination to an account's address book, usable after the largest new_destination_delay among the
 * policies covering the account now (at once without one). The delay is fixed when the entry is made: a policy
 * created or deleted later does not move it. An address already in the book is a 409; its entry stands.
 */
export async function addAddressBookEntry(ctx: MutationContext, accountId: string, input: { address: string; label: string }): Promise<AddressBookEntryView> {
  const integratorId = ctx.actor.integratorId;
  return runMutation(ctx, async (tx) => {
    if (!(await findAccount(tx, integratorId, accountId))) throw notFound('Account');
    const rules = (await policiesCovering(tx, integratorId, accountId)).flatMap((p) => p.rules as Rule[]);
    const usableAt = new Date(ctx.now.getTime() + largestDelayHours(rules) * 3_600_000);
    const row = await repo.insertAddressBookEntry(tx, { id: newId(), integratorId, accountId, address: input.address.toLowerCase(), label: input.label.trim(), usableAt, createdAt: ctx.now });
    if (!row) throw new ApiError('address_book_entry_exists', `The address book of this account has ${input.address.toLowerCase()} already`);
    return toView(row);
  });
}

/** An account's address book, oldest first (cursor: the last address of the page). */
export async function listAddressBook(db: Executor, integratorId: string, accountId: string, options: { limit: number; startingAfter?: string }): Promise<{ data: AddressBookEntryView[]; hasMore: boolean }> {
  if (!(await findAccount(db, integratorId, accountId))) throw notFound('Account');
  let afterId: string | undefined;
  if (options.startingAfter !== undefined) {
    const cursor = await repo.findAddressBookEntry(db, accountId, options.startingAfter.toLowerCase());
    if (!cursor) throw notFound('Address book entry startingAfter');
    afterId = cursor.id;
  }
  const rows = await repo.listAddressBook(db, accountId, { limit: options.limit, ...(afterId ? { startingAfter: afterId } : {}) });
  return { data: rows.slice(0, options.limit).map(toView), hasMore: rows.length > options.limit };
}
