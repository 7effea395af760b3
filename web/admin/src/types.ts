// The /admin/api shapes the console reads (docs/review.md describes them). The console is built separately from
// the server, so these are written out rather than imported from src/.

import type { AssigneeFilter, CaseBackOffice, QueueFlag, RelatedCase, ReviewItemBackOffice, Role } from './back-office-types';

export type SubjectType = 'user' | 'associated_person' | 'entity';

export const STATUSES = [
  'under_review',
  'resubmission_requested',
  'active',
  'rejected',
  'inactive',
  'awaiting_associated_person_information',
  'awaiting_information',
  'init',
  'not_started',
] as const;
export type VerificationStatus = (typeof STATUSES)[number];

export const DECISIONS = ['approve', 'request_resubmission', 'reject', 'deactivate', 'reactivate', 'reopen'] as const;
export type Decision = (typeof DECISIONS)[number];

export interface Operator {
  operatorId: string;
  name: string;
  /** Absent from a server before issue 36's roles. */
  role?: Role;
}

export interface ReviewItem extends ReviewItemBackOffice {
  subjectType: SubjectType;
  subjectId: string;
  integratorId: string;
  integratorName: string;
  verificationStatus: VerificationStatus;
  name: string;
  since: string;
}

export interface ReviewPage {
  data: ReviewItem[];
  hasMore: boolean;
  nextCursor: string | null;
}

export interface ReviewQuery {
  /** None: every case under review and every open case on an active customer. */
  status?: VerificationStatus;
  flag?: QueueFlag;
  assignee?: AssigneeFilter;
  q?: string;
  integratorId?: string;
  startingAfter?: string;
  limit: number;
}

export interface CaseDocument {
  documentId: string;
  documentType: string;
  documentNumber?: string | null;
  description?: string | null;
  issuingCountry?: string | null;
  warnings?: string[] | null;
  errors?: string[] | null;
  contentUrl: string;
}

export interface Finding {
  documentId: string | null;
  severity: string;
  code: string;
  message: string;
  /** The screening hit a watch-list finding reports (its panel says whether it is still open). */
  hitId?: string | null;
  related?: RelatedCase | null;
}

export interface HistoryEntry {
  fromStatus: VerificationStatus;
  toStatus: VerificationStatus;
  action: string;
  actorType: string;
  actorId: string | null;
  reason: string | null;
  at: string;
}

export interface Case extends CaseBackOffice {
  subjectType: SubjectType;
  subjectId: string;
  integratorId: string;
  verificationStatus: VerificationStatus;
  findings: Finding[];
  missingDocuments: string[];
  missingCompanyData: string[];
  record: Record<string, unknown>;
  history: HistoryEntry[];
}

export interface DecisionResult {
  subjectType: SubjectType;
  subjectId: string;
  verificationStatus: VerificationStatus;
}

/** RFC 9457 problem details as the server writes them (docs/errors.md). */
export interface Problem {
  type?: string;
  title: string;
  status: number;
  detail?: string;
  code?: string;
  requestId?: string;
  errors?: { pointer: string; code: string; detail: string }[];
}

// Bank accounts whose holder name did not match (docs/bank-accounts.md, "Review").

export const BANK_ACCOUNT_STATUSES = ['pending_review', 'verified', 'rejected', 'removed'] as const;
export type BankAccountStatus = (typeof BANK_ACCOUNT_STATUSES)[number];
export type BankAccountOutcome = 'approve' | 'reject';

export interface Address {
  streetLine1?: string;
  streetLine2?: string | null;
  city?: string;
  state?: string | null;
  postalCode?: string | null;
  country?: string;
}

/** A bank account as the API shows it: never the number itself, only its last four characters. */
export interface BankAccount {
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

export interface BankAccountHistoryEntry {
  fromStatus: BankAccountStatus | null;
  toStatus: BankAccountStatus;
  actorType: 'integrator' | 'operator' | 'system' | 'sandbox';
  actorId: string | null;
  reason: string | null;
  at: string;
}

export interface BankAccountCase extends BankAccount {
  integratorId: string;
  integratorName: string;
  /** The KYC name (individual) or the legal and trade names (entity) the holder name was compared with. */
  expectedHolderNames: string[];
  history: BankAccountHistoryEntry[];
}

export interface BankAccountCasePage {
  data: BankAccountCase[];
  hasMore: boolean;
}

// Withdrawals' fiat payouts, for operators to make and confirm (docs/withdrawals.md, "The fiat payout").

export const PAYOUT_STATUSES = ['pending', 'sent', 'settled', 'returned'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];
/** The open ones, which the list filters on. */
export type OpenPayoutStatus = 'pending' | 'sent';
/** The moves an operator makes, by their path under /admin/api/withdrawals/{reference}/. */
export type PayoutStep = 'payout-sent' | 'settled' | 'returned';

export type TransactionStatus = 'created' | 'waiting_for_funds' | 'funds_in_transfer' | 'processing' | 'completed' | 'failed';

/** The transaction view (the integrators' GET /v1/query/get-transaction), as far as the console reads it. */
export interface Transaction {
  transactionId: string;
  status: TransactionStatus;
  kind: 'transfer' | 'deposit' | 'withdrawal' | 'refund' | 'vault_deposit' | 'vault_withdrawal' | 'incoming';
  withdrawal?: { amount: string; currency: 'USD' | 'EUR'; fee: string; asset: string; cryptoAmount: string; cryptoAmountRaw: string; bankAccountId: string; last4: string; quoteExpiresAt: string };
  accountId: string;
  chainId: number;
  transactionHash: string | null;
  broadcastedAt: string | null;
  failureReason?: string;
  createdAt: string;
  updatedAt: string;
}

/** Who the bank transfer goes to, in full (ACH: account and routing number; SEPA: IBAN and BIC). */
export interface Beneficiary {
  accountHolderName: string;
  accountNumber: string | null;
  routingNumber: string | null;
  accountType: string | null;
  iban: string | null;
  bic: string | null;
}

export interface Payout {
  reference: string;
  status: PayoutStatus;
  integratorId: string;
  integratorName: string;
  transaction: Transaction;
  amount: string;
  currency: 'USD' | 'EUR';
  rail: 'ach' | 'sepa';
  beneficiary: Beneficiary;
  sentAt: string | null;
  settledAt: string | null;
  returnedAt: string | null;
  returnReason: string | null;
  createdAt: string;
}

export interface PayoutPage {
  data: Payout[];
  hasMore: boolean;
}
