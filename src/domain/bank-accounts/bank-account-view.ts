import type { BankAccountRow, BankAccountTransitionRow } from '../../db/repositories/bank-accounts.js';
import type { BankAccountStatus } from '../../db/schema/index.js';
import type { Address } from '../onboarding/types.js';

/** A bank account as the API shows it: never the full number, only its last four characters. */
export interface BankAccountView {
  bankAccountId: string;
  accountId: string;
  currency: 'USD' | 'EUR';
  rail: 'ach' | 'sepa';
  accountHolderName: string;
  bankName: string | null;
  last4: string;
  routingNumber: string | null;
  accountType: 'checking' | 'savings' | null;
  ibanCountry: string | null;
  bic: string | null;
  address: Address | null;
  status: BankAccountStatus;
  rejectionReason: string | null;
  removedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toBankAccountView(row: BankAccountRow): BankAccountView {
  return {
    bankAccountId: row.id,
    accountId: row.accountId,
    currency: row.currency,
    rail: row.rail,
    accountHolderName: row.accountHolderName,
    bankName: row.bankName,
    last4: row.last4,
    routingNumber: row.routingNumber,
    accountType: row.accountType,
    ibanCountry: row.ibanCountry,
    bic: row.bic,
    address: (row.address as Address | null) ?? null,
    status: row.status,
    rejectionReason: row.rejectionReason,
    removedAt: row.removedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export interface BankAccountHistoryEntry {
  fromStatus: BankAccountStatus | null;
  toStatus: BankAccountStatus;
  actorType: BankAccountTransitionRow['actorType'];
  actorId: string | null;
  reason: string | null;
  at: string;
}

export function toHistoryEntry(t: BankAccountTransitionRow): BankAccountHistoryEntry {
  return { fromStatus: t.fromStatus, toStatus: t.toStatus, actorType: t.actorType, actorId: t.actorId, reason: t.reason, at: t.createdAt.toISOString() };
}
