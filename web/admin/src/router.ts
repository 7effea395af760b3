import { STATUSES, type SubjectType, type VerificationStatus } from './types';

// Hash routes, so deep links and Back work on a static page: #/queue?status=...&integrator=...,
// #/case/<subjectType>/<subjectId>, #/bank-accounts, #/bank-account/<bankAccountId>.

export interface QueueRoute {
  name: 'queue';
  status: VerificationStatus;
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
export type Route = QueueRoute | CaseRoute | BankAccountsRoute | BankAccountRoute;

const SUBJECT_TYPES: readonly string[] = ['user', 'associated_person', 'entity'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  const status = params.get('status');
  const integratorId = params.get('integrator');
  const limit = Number(params.get('limit'));
  return {
    name: 'queue',
    status: status && (STATUSES as readonly string[]).includes(status) ? (status as VerificationStatus) : 'under_review',
    ...(integratorId && isUuid(integratorId) ? { integratorId: integratorId.toLowerCase() } : {}),
    ...(Number.isInteger(limit) && limit >= 1 && limit <= 100 && limit !== 50 ? { limit } : {}),
  };
}

export function hrefFor(route: Route): string {
  if (route.name === 'case') return `#/case/${route.subjectType}/${route.subjectId}`;
  if (route.name === 'bank-accounts') return '#/bank-accounts';
  if (route.name === 'bank-account') return `#/bank-account/${route.bankAccountId}`;
  const params = new URLSearchParams();
  if (route.status !== 'under_review') params.set('status', route.status);
  if (route.integratorId) params.set('integrator', route.integratorId);
  if (route.limit) params.set('limit', String(route.limit));
  const query = params.toString();
  return `#/queue${query ? `?${query}` : ''}`;
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
