import type { Executor } from '../../db/database.js';
import { insertAddressHit, type AddressHitRow } from '../../db/repositories/address-hits.js';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import type { AddressScreen, ListedAddress } from './address-screen.js';

/** A listed address among those money would go to (or come from), with its list entry. */
export interface AddressHit {
  address: string;
  listed: ListedAddress;
  /** What the address is to the transaction (value-recipients.ts): "spender of approve", ...; unset: its recipient. */
  role?: string;
}

/** The first of `addresses` on a list; undefined when none is (or nothing is screened: no lists loaded). */
export function firstListed(screen: AddressScreen | undefined, addresses: readonly (string | null | undefined)[]): AddressHit | undefined {
  if (!screen) return undefined;
  for (const address of addresses) {
    const listed = address ? screen.addressHit(address) : undefined;
    if (listed && address) return { address, listed };
  }
  return undefined;
}

export type ScreenedActivity = AddressHitRow['activity'];

/** Records a hit for operators (docs/screening.md#wallet-addresses), in its own statement or the caller's transaction. */
export async function recordAddressHit(
  db: Executor,
  about: { integratorId: string; accountId: string; chainId: number; activity: ScreenedActivity; transactionRowId?: string | null },
  hit: AddressHit,
  at: Date,
): Promise<void> {
  const { listed } = hit;
  await insertAddressHit(db, {
    id: newId(),
    integratorId: about.integratorId,
    accountId: about.accountId,
    chainId: about.chainId,
    activity: about.activity,
    transactionRowId: about.transactionRowId ?? null,
    address: hit.address,
    list: listed.list,
    entryNumber: listed.entryNumber,
    listedName: listed.name,
    programs: listed.programs,
    currency: listed.currency,
    createdAt: at,
  });
}

/** What a hit says, for a problem's detail and a payout's error: the address, the list and the entry. */
export function describeHit(hit: AddressHit): string {
  const { listed } = hit;
  return `${hit.address} is on ${listed.list} (entry ${listed.entryNumber}, ${listed.name}${listed.programs.length > 0 ? `; programs ${listed.programs.join(', ')}` : ''})`;
}

/** 403 sanctioned_address: nothing was signed or used up (docs/screening.md#wallet-addresses). */
export function sanctionedAddressProblem(hit: AddressHit): ApiError {
  return new ApiError('sanctioned_address', `The ${hit.role ?? 'recipient'} ${describeHit(hit)}: nothing was signed, and the approval was not used up`);
}
