import { DEPOSIT_STATUSES, type DepositStatus } from './money-types';
import { LEDGER_ACCOUNT_KINDS, LEDGER_STATUSES, type LedgerAccountKind, type LedgerStatus } from './ledger-types';
import type { RunKind } from './reconciliation-types';
import { QUEUE_FLAGS, type AssigneeFilter, type QueueFlag } from './back-office-types';
import { STATUSES, type OpenPayoutStatus, type SubjectType, type VerificationStatus } from './types';

// Hash routes, so deep links and Back work on a static page: #/queue?status=...&integrator=...,
// #/case/<subjectType>/<subjectId>, #/bank-accounts, #/bank-account/<bankAccountId>, #/withdrawals?status=...,
// #/withdrawal/<reference>, #/treasury, #/deposits?status=... (the list and the lookup by reference), #/deposit/<reference>,
// #/ledger?kind=..., #/ledger-account/<id>?asOf=...&status=..., #/ledger-transaction/<id>, #/reconciliations?kind=...,
// #/reconciliation/<runId>.

export interface QueueRoute {
  name: 'queue';
  /** None: the back office's queue, every case under review and every open case on an active customer. */
  status?: VerificationStatus;
  flag?: QueueFlag;
  assignee?: AssigneeFilter;
  /** Search text: a name, an email, an ID, a document number. */
  q?: string;
  integratorId?: string;
  /** Cases per page, 1-100; 50 when absent. */
  limit?: number;
}
export interface CaseRoute {
  name: 'case';
  subjectType: SubjectType;
  subjectId: string;
}
/** Bank accounts waiting for review. */
export interface BankAccountsRoute {
  name: 'bank-accounts';
}
export interface BankAccountRoute {
  name: 'bank-account';
  bankAccountId: string;
}
/** Withdrawals' payouts to make (pending) and to confirm (sent); both when no status. */
export interface WithdrawalsRoute {
  name: 'withdrawals';
  status?: OpenPayoutStatus;
}
export interface WithdrawalRoute {
  name: 'withdrawal';
  reference: string;
}
/** The treasury's balances and the payouts waiting for it to be funded. */
export interface TreasuryRoute {
  name: 'treasury';
}
/** Every integrator's deposits, newest first, in one status or all; with the lookup by reference above them. */
export interface DepositsRoute {
  name: 'deposits';
  status?: DepositStatus;
}
/** One deposit, by the reference on its bank instructions. */
export interface DepositRoute {
  name: 'deposit';
  reference: string;
}
/** The trial balance and the ledger accounts (of one kind, or all). */
export interface LedgerRoute {
  name: 'ledger';
  kind?: LedgerAccountKind;
}
/** One ledger account: its balances (now, or as of `asOf`, an ISO date-time) and its entries (in one status, or all). */
export interface LedgerAccountRoute {
  name: 'ledger-account';
  ledgerAccountId: string;
  asOf?: string;
  status?: LedgerStatus;
}
export interface LedgerTransactionRoute {
  name: 'ledger-transaction';
  ledgerTransactionId: string;
}
/** Reconciliation runs, newest first (of one kind, or both), with the buttons that start one. */
export interface ReconciliationsRoute {
  name: 'reconciliations';
  kind?: RunKind;
}
export interface ReconciliationRoute {
  name: 'reconciliation';
  runId: string;
}
export type Route =
  | QueueRoute
  | CaseRoute
  | BankAccountsRoute
  | BankAccountRoute
  | WithdrawalsRoute
  | WithdrawalRoute
  | TreasuryRoute
  | DepositsRoute
  | DepositRoute
  | LedgerRoute
  | LedgerAccountRoute
  | LedgerTransactionRoute
  | ReconciliationsRoute
  | ReconciliationRoute;

const SUBJECT_TYPES: readonly string[] = ['user', 'associated_person', 'entity'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A payout's reference: WDR- and 12 Crockford base32 characters, as the API's pattern. */
const PAYOUT_REFERENCE = /^WDR-[0-9A-Z]{12}$/;
/** A deposit's reference, as the API's pattern: DEP- and 12 characters. */
export const DEPOSIT_REFERENCE = /^DEP-[0-9A-Z]{12}$/;

export const isUuid = (value: string) => UUID.test(value);

export function parseHash(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'case' && parts.length === 3 && SUBJECT_TYPES.includes(parts[1]!) && isUuid(parts[2]!)) {
    return { name: 'case', subjectType: parts[1] as SubjectType, subjectId: parts[2]!.toLowerCase() };
  }
  if (parts[0] === 'bank-accounts' && parts.length === 1) return { name: 'bank-accounts' };
  if (parts[0] === 'bank-account' && parts.length === 2 && isUuid(parts[1]!)) return { name: 'bank-account', bankAccountId: parts[1]!.toLowerCase() };
  const params = new URLSearchParams(query);
  if (parts[0] === 'withdrawal' && parts.length === 2 && PAYOUT_REFERENCE.test(parts[1]!)) return { name: 'withdrawal', reference: parts[1]! };
  if (parts[0] === 'treasury' && parts.length === 1) return { name: 'treasury' };
  if (parts[0] === 'deposits' && parts.length === 1) {
    const only = params.get('status');
    return { name: 'deposits', ...(only && (DEPOSIT_STATUSES as readonly string[]).includes(only) ? { status: only as DepositStatus } : {}) };
  }
  if (parts[0] === 'deposit' && parts.length === 2 && DEPOSIT_REFERENCE.test(parts[1]!)) return { name: 'deposit', reference: parts[1]! };
  if (parts[0] === 'withdrawals' && parts.length === 1) {
    const only = params.get('status');
    return { name: 'withdrawals', ...(only === 'pending' || only === 'sent' ? { status: only } : {}) };
  }
  const ledger = parseLedgerHash(parts, params);
  if (ledger) return ledger;
  const status = params.get('status');
  const integratorId = params.get('integrator');
  const limit = Number(params.get('limit'));
  const flag = params.get('flag');
  const assignee = params.get('assignee');
  const q = params.get('q')?.trim().slice(0, 200);
  return {
    name: 'queue',
    ...(status && (STATUSES as readonly string[]).includes(status) ? { status: status as VerificationStatus } : {}),
    ...(flag && (QUEUE_FLAGS as readonly string[]).includes(flag) ? { flag: flag as QueueFlag } : {}),
    ...(assignee === 'me' || assignee === 'unassigned' ? { assignee } : {}),
    ...(q ? { q } : {}),
    ...(integratorId && isUuid(integratorId) ? { integratorId: integratorId.toLowerCase() } : {}),
    ...(Number.isInteger(limit) && limit >= 1 && limit <= 100 && limit !== 50 ? { limit } : {}),
  };
}

export function hrefFor(route: Route): string {
  if (route.name === 'case') return `#/case/${route.subjectType}/${route.subjectId}`;
  if (route.name === 'bank-accounts') return '#/bank-accounts';
  if (route.name === 'bank-account') return `#/bank-account/${route.bankAccountId}`;
  if (route.name === 'withdrawals') return `#/withdrawals${route.status ? `?status=${route.status}` : ''}`;
  if (route.name === 'withdrawal') return `#/withdrawal/${route.reference}`;
  if (route.name === 'treasury') return '#/treasury';
  if (route.name === 'deposits') return `#/deposits${route.status ? `?status=${route.status}` : ''}`;
  if (route.name === 'deposit') return `#/deposit/${route.reference}`;
  if (route.name === 'ledger') return `#/ledger${route.kind ? `?kind=${route.kind}` : ''}`;
  if (route.name === 'ledger-account') {
    const query = new URLSearchParams({ ...(route.asOf ? { asOf: route.asOf } : {}), ...(route.status ? { status: route.status } : {}) }).toString();
    return `#/ledger-account/${route.ledgerAccountId}${query ? `?${query}` : ''}`;
  }
  if (route.name === 'ledger-transaction') return `#/ledger-transaction/${route.ledgerTransactionId}`;
  if (route.name === 'reconciliations') return `#/reconciliations${route.kind ? `?kind=${route.kind}` : ''}`;
  if (route.name === 'reconciliation') return `#/reconciliation/${route.runId}`;
  const params = new URLSearchParams();
  if (route.status) params.set('status', route.status);
  if (route.flag) params.set('flag', route.flag);
  if (route.assignee) params.set('assignee', route.assignee);
  if (route.q) params.set('q', route.q);
  if (route.integratorId) params.set('integrator', route.integratorId);
  if (route.limit) params.set('limit', String(route.limit));
  const query = params.toString();
  return `#/queue${query ? `?${query}` : ''}`;
}

/** The ledger's and reconciliation's routes, or undefined for another hash. */
function parseLedgerHash(parts: string[], params: URLSearchParams): Route | undefined {
  const [section, id] = parts;
  const idOk = parts.length === 2 && isUuid(id!);
  if (section === 'ledger' && parts.length === 1) {
    const kind = params.get('kind');
    return { name: 'ledger', ...(kind && (LEDGER_ACCOUNT_KINDS as readonly string[]).includes(kind) ? { kind: kind as LedgerAccountKind } : {}) };
  }
  if (section === 'ledger-account' && idOk) {
    const asOf = new Date(params.get('asOf') ?? '');
    const status = params.get('status');
    return {
      name: 'ledger-account',
      ledgerAccountId: id!.toLowerCase(),
      ...(params.get('asOf') && !Number.isNaN(asOf.getTime()) ? { asOf: asOf.toISOString() } : {}),
      ...(status && (LEDGER_STATUSES as readonly string[]).includes(status) ? { status: status as LedgerStatus } : {}),
    };
  }
  if (section === 'ledger-transaction' && idOk) return { name: 'ledger-transaction', ledgerTransactionId: id!.toLowerCase() };
  if (section === 'reconciliations' && parts.length === 1) {
    const kind = params.get('kind');
    return { name: 'reconciliations', ...(kind === 'chain' || kind === 'bank' ? { kind } : {}) };
  }
  if (section === 'reconciliation' && idOk) return { name: 'reconciliation', runId: id!.toLowerCase() };
  return undefined;
}

export function navigate(route: Route, options: { replace?: boolean } = {}): void {
  const href = hrefFor(route);
  const unchanged = location.hash === href;
  if (options.replace) history.replaceState(null, '', href);
  else if (!unchanged) location.hash = href;
  // replaceState fires no hashchange; nor does assigning the current hash: tell listeners either way.
  if (options.replace || unchanged) window.dispatchEvent(new HashChangeEvent('hashchange'));
}

export function currentRoute(): Route {
  return parseHash(location.hash);
}
