import { createHash } from 'node:crypto';
import type { LedgerAccountKind } from '../../db/schema/index.js';
import type { AssetRef } from './assets.js';

/** A ledger account as postings name it: its kind and asset, and for a customer's, the account (docs/ledger.md#accounts). */
export interface LedgerAccountRef {
  kind: LedgerAccountKind;
  asset: AssetRef;
  customer?: { integratorId: string; accountId: string };
}

/** `customer:<accountId>:<asset>`, or `<kind>:<asset>` for the service's own accounts. */
export function ledgerAccountCode(ref: LedgerAccountRef): string {
  return ref.customer ? `customer:${ref.customer.accountId}:${ref.asset.code}` : `${ref.kind}:${ref.asset.code}`;
}

/**
 * The account's id, derived from its code (SHA-256, shaped as a version-8 UUID): every process posting to an account
 * agrees on its id without reading it first, and creating it is an insert that may find it there.
 */
export function ledgerAccountId(code: string): string {
  const hex = createHash('sha256').update(`ledger-account:${code}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const customerAccount = (integratorId: string, accountId: string, asset: AssetRef): LedgerAccountRef => ({ kind: 'customer', asset, customer: { integratorId, accountId } });
export const serviceAccount = (kind: Exclude<LedgerAccountKind, 'customer'>, asset: AssetRef): LedgerAccountRef => ({ kind, asset });
