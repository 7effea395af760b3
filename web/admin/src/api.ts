import type {
  BankAccount,
  BankAccountCase,
  BankAccountCasePage,
  BankAccountOutcome,
  Case,
  Decision,
  DecisionResult,
  OpenPayoutStatus,
  Operator,
  Payout,
  PayoutPage,
  PayoutStep,
  Problem,
  ReviewPage,
  ReviewQuery,
  SubjectType,
  Transaction,
} from './types';
import type { Disposition, Hit, OperatorRef, Proposal, TimelineItem } from './back-office-types';
import type { DepositAudit, DepositPage, DepositStatus, Treasury } from './money-types';
import type { LedgerAccountAsOf, LedgerAccountKind, LedgerAccountPage, LedgerEntryPage, LedgerStatus, LedgerTransaction, TrialBalance } from './ledger-types';
import type { ExpectedKind, ReconciliationBreak, ReconciliationException, Run, RunKind, RunPage } from './reconciliation-types';

/** A failed request, carrying the server's problem details (or one made up for a network failure). */
export class ApiProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title);
    this.name = 'ApiProblem';
  }

  get status(): number {
    return this.problem.status;
  }
}

export interface ApiClient {
  whoami(signal?: AbortSignal): Promise<Operator>;
  reviews(query: ReviewQuery, signal?: AbortSignal): Promise<ReviewPage>;
  getCase(subjectType: SubjectType, subjectId: string, signal?: AbortSignal): Promise<Case>;
  decide(subjectType: SubjectType, subjectId: string, body: { decision: Decision; reasons?: string[]; documents?: string[] }): Promise<DecisionResult>;
  /** Takes the case (409 case_claimed when another operator holds it); release gives it back. */
  claim(subjectType: SubjectType, subjectId: string): Promise<{ assignee: OperatorRef | null }>;
  release(subjectType: SubjectType, subjectId: string): Promise<{ assignee: OperatorRef | null }>;
  /** Appends a note to the case's timeline (notes are never edited). */
  addNote(subjectType: SubjectType, subjectId: string, body: string): Promise<TimelineItem>;
  /** A decision the four-eyes rule holds back, proposed with its note for a supervisor. */
  propose(subjectType: SubjectType, subjectId: string, body: { decision: Decision; reasons: string[] }): Promise<Proposal>;
  /** A supervisor other than the proposer applies it, saying why (the note is required). */
  confirmProposal(subjectType: SubjectType, subjectId: string, body: { note: string }): Promise<DecisionResult>;
  overturnProposal(subjectType: SubjectType, subjectId: string, body: { note: string }): Promise<{ proposal: null }>;
  /** Its proposer takes it back. */
  withdrawProposal(subjectType: SubjectType, subjectId: string): Promise<{ proposal: null }>;
  /** Closes an open case on an active customer (the customer stays as it is). */
  closeCase(subjectType: SubjectType, subjectId: string, body: { note: string }): Promise<unknown>;
  disposition(hitId: string, body: { disposition: Disposition; note: string }): Promise<Hit>;
  /** A document's bytes, fetched with the bearer header (an <img src> could not send it). */
  documentBlob(contentUrl: string, signal?: AbortSignal): Promise<Blob>;
  /** Bank accounts in pending_review, every integrator's, oldest first (1-100 of them). */
  bankAccountReviews(limit: number, signal?: AbortSignal): Promise<BankAccountCasePage>;
  getBankAccountCase(bankAccountId: string, signal?: AbortSignal): Promise<BankAccountCase>;
  decideBankAccount(bankAccountId: string, body: { outcome: BankAccountOutcome; reason?: string }): Promise<BankAccount>;
  /** Open payouts (pending, sent, or both when no status), every integrator's, oldest first (1-100 of them). */
  payouts(query: { status?: OpenPayoutStatus; limit: number }, signal?: AbortSignal): Promise<PayoutPage>;
  /** One payout by reference (any status), with the beneficiary's full bank details. */
  getPayout(reference: string, signal?: AbortSignal): Promise<Payout>;
  /** Marks a payout sent, settled or returned (a return needs its reason); answers the withdrawal's transaction. */
  movePayout(reference: string, step: PayoutStep, body: { reason?: string }): Promise<Transaction>;
  /** The treasury's balances, read from the chains now, and the payouts waiting for it to be funded. */
  treasury(signal?: AbortSignal): Promise<Treasury>;
  /** Every integrator's deposits (in one status, or all), newest first: 1-100 of them after the cursor. */
  deposits(query: { status?: DepositStatus; limit: number; startingAfter?: string }, signal?: AbortSignal): Promise<DepositPage>;
  /** One deposit by the reference on its bank instructions, with its integrator and audit trail. */
  getDeposit(reference: string, signal?: AbortSignal): Promise<DepositAudit>;
  /** Every asset's balances summed per kind of account, and whether each sums to zero. */
  trialBalance(signal?: AbortSignal): Promise<TrialBalance>;
  /** Ledger accounts (of one kind, or all) with their balances: 1-100 after the cursor. */
  ledgerAccounts(query: { kind?: LedgerAccountKind; limit: number; startingAfter?: string }, signal?: AbortSignal): Promise<LedgerAccountPage>;
  /** One ledger account, its balances now or as of a past time (an ISO date-time). */
  getLedgerAccount(ledgerAccountId: string, asOf?: string, signal?: AbortSignal): Promise<LedgerAccountAsOf>;
  /** An account's entries, newest first, after the entry `startingAfter`. */
  ledgerEntries(ledgerAccountId: string, query: { limit: number; startingAfter?: string; status?: LedgerStatus }, signal?: AbortSignal): Promise<LedgerEntryPage>;
  /** A ledger transaction with all its legs. */
  getLedgerTransaction(ledgerTransactionId: string, signal?: AbortSignal): Promise<LedgerTransaction>;
  /** Reconciliation runs (of one kind, or both), newest first. */
  reconciliations(query: { kind?: RunKind; limit: number; startingAfter?: string }, signal?: AbortSignal): Promise<RunPage>;
  getReconciliation(runId: string, signal?: AbortSignal): Promise<Run>;
  /** Runs one now: against the chain, or the bank with a camt.053 statement's text. Answers the run. */
  runReconciliation(body: { kind: 'chain' } | { kind: 'bank'; statement: string }): Promise<Run>;
  /** Records what a break was; with adjust, posts the difference to the ledger. */
  resolveBreak(runId: string, breakId: string, body: { note: string; adjust: boolean }): Promise<ReconciliationBreak>;
  /** The exception's line is that deposit, payout or payout return (by its reference). */
  matchException(runId: string, exceptionId: string, body: { kind: ExpectedKind; reference: string; note?: string }): Promise<ReconciliationException>;
  resolveException(runId: string, exceptionId: string, body: { note: string }): Promise<ReconciliationException>;
}

/** A query string of the values given (undefined and empty ones left out). */
const query = (values: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(values).flatMap(([key, value]) => (value === undefined || value === '' ? [] : [[key, String(value)]]))).toString();
const runUrl = (runId: string) => `/admin/api/reconciliations/${encodeURIComponent(runId)}`;

const caseUrl = (subjectType: SubjectType, subjectId: string) => `/admin/api/reviews/${subjectType}/${encodeURIComponent(subjectId)}`;

async function problemOf(response: Response): Promise<Problem> {
  const type = response.headers.get('content-type') ?? '';
  if (/json/.test(type)) {
    try {
      const body = (await response.json()) as Partial<Problem>;
      return { ...body, title: body.title ?? response.statusText, status: body.status ?? response.status };
    } catch {
      // Fall through to a generic problem.
    }
  }
  return { title: response.statusText || 'Request failed', status: response.status, detail: `The server answered ${response.status}` };
}

/**
 * The /admin/api client. Every call carries the operator's bearer token; a 401 anywhere means the token is no
 * longer accepted, which `onUnauthorized` turns into a sign-out.
 */
export function createApiClient(token: string, onUnauthorized: (problem: ApiProblem) => void): ApiClient {
  async function send(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal | undefined } = {}): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json, application/problem+json, */*' };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(path, {
        method: init.method ?? 'GET',
        headers,
        cache: 'no-store',
        credentials: 'omit',
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
        ...(init.signal ? { signal: init.signal } : {}),
      });
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') throw err;
      throw new ApiProblem({ title: 'Network error', status: 0, detail: 'The server could not be reached. Check the connection and try again.' });
    }
    if (response.ok) return response;
    const problem = new ApiProblem(await problemOf(response));
    if (response.status === 401) onUnauthorized(problem);
    throw problem;
  }
  const json = async <T>(path: string, init?: Parameters<typeof send>[1]) => (await (await send(path, init)).json()) as T;

  return {
    whoami: (signal) => json<Operator>('/admin/api/whoami', { signal }),
    reviews(query, signal) {
      const params = new URLSearchParams({ limit: String(query.limit) });
      for (const key of ['status', 'flag', 'assignee', 'q', 'integratorId', 'startingAfter'] as const) if (query[key]) params.set(key, query[key]);
      return json<ReviewPage>(`/admin/api/reviews?${params}`, { signal });
    },
    getCase: (subjectType, subjectId, signal) => json<Case>(`/admin/api/reviews/${subjectType}/${encodeURIComponent(subjectId)}`, { signal }),
    decide: (subjectType, subjectId, body) =>
      json<DecisionResult>(`/admin/api/reviews/${subjectType}/${encodeURIComponent(subjectId)}/decisions`, { method: 'POST', body }),
    claim: (subjectType, subjectId) => json(`${caseUrl(subjectType, subjectId)}/claim`, { method: 'POST' }),
    release: (subjectType, subjectId) => json(`${caseUrl(subjectType, subjectId)}/release`, { method: 'POST' }),
    addNote: (subjectType, subjectId, body) => json(`${caseUrl(subjectType, subjectId)}/notes`, { method: 'POST', body: { body } }),
    propose: (subjectType, subjectId, body) => json(`${caseUrl(subjectType, subjectId)}/proposal`, { method: 'POST', body }),
    confirmProposal: (subjectType, subjectId, body) => json(`${caseUrl(subjectType, subjectId)}/proposal/confirm`, { method: 'POST', body }),
    overturnProposal: (subjectType, subjectId, body) => json(`${caseUrl(subjectType, subjectId)}/proposal/overturn`, { method: 'POST', body }),
    withdrawProposal: (subjectType, subjectId) => json(`${caseUrl(subjectType, subjectId)}/proposal/withdraw`, { method: 'POST' }),
    closeCase: (subjectType, subjectId, body) => json(`${caseUrl(subjectType, subjectId)}/close`, { method: 'POST', body }),
    disposition: (hitId, body) => json(`/admin/api/screening-hits/${encodeURIComponent(hitId)}/disposition`, { method: 'POST', body }),
    async documentBlob(contentUrl, signal) {
      // Only our own API's document URLs: the token must never be sent anywhere else.
      if (!contentUrl.startsWith('/admin/api/documents/')) throw new ApiProblem({ title: 'Unexpected document URL', status: 0, detail: contentUrl });
      return (await send(contentUrl, { signal })).blob();
    },
    bankAccountReviews: (limit, signal) => json<BankAccountCasePage>(`/admin/api/bank-accounts?${new URLSearchParams({ limit: String(limit) })}`, { signal }),
    getBankAccountCase: (bankAccountId, signal) => json<BankAccountCase>(`/admin/api/bank-accounts/${encodeURIComponent(bankAccountId)}`, { signal }),
    decideBankAccount: (bankAccountId, body) => json<BankAccount>(`/admin/api/bank-accounts/${encodeURIComponent(bankAccountId)}/decisions`, { method: 'POST', body }),
    payouts(query, signal) {
      const params = new URLSearchParams({ limit: String(query.limit) });
      if (query.status) params.set('status', query.status);
      return json<PayoutPage>(`/admin/api/withdrawals?${params}`, { signal });
    },
    getPayout: (reference, signal) => json<Payout>(`/admin/api/withdrawals/${encodeURIComponent(reference)}`, { signal }),
    movePayout: (reference, step, body) => json<Transaction>(`/admin/api/withdrawals/${encodeURIComponent(reference)}/${step}`, { method: 'POST', body }),
    treasury: (signal) => json<Treasury>('/admin/api/treasury', { signal }),
    deposits(query, signal) {
      const params = new URLSearchParams({ limit: String(query.limit) });
      if (query.status) params.set('status', query.status);
      if (query.startingAfter) params.set('startingAfter', query.startingAfter);
      return json<DepositPage>(`/admin/api/deposits?${params}`, { signal });
    },
    getDeposit: (reference, signal) => json<DepositAudit>(`/admin/api/deposits/${encodeURIComponent(reference)}`, { signal }),
    trialBalance: (signal) => json<TrialBalance>('/admin/api/ledger/trial-balance', { signal }),
    ledgerAccounts: (q, signal) => json<LedgerAccountPage>(`/admin/api/ledger/accounts?${query(q)}`, { signal }),
    getLedgerAccount: (id, asOf, signal) => json<LedgerAccountAsOf>(`/admin/api/ledger/accounts/${encodeURIComponent(id)}${asOf ? `?${query({ asOf })}` : ''}`, { signal }),
    ledgerEntries: (id, q, signal) => json<LedgerEntryPage>(`/admin/api/ledger/accounts/${encodeURIComponent(id)}/entries?${query(q)}`, { signal }),
    getLedgerTransaction: (id, signal) => json<LedgerTransaction>(`/admin/api/ledger/transactions/${encodeURIComponent(id)}`, { signal }),
    reconciliations: (q, signal) => json<RunPage>(`/admin/api/reconciliations?${query(q)}`, { signal }),
    getReconciliation: (runId, signal) => json<Run>(runUrl(runId), { signal }),
    runReconciliation: (body) => json<Run>('/admin/api/reconciliations', { method: 'POST', body }),
    resolveBreak: (runId, breakId, body) => json<ReconciliationBreak>(`${runUrl(runId)}/breaks/${encodeURIComponent(breakId)}/resolve`, { method: 'POST', body }),
    matchException: (runId, exceptionId, body) => json<ReconciliationException>(`${runUrl(runId)}/exceptions/${encodeURIComponent(exceptionId)}/match`, { method: 'POST', body }),
    resolveException: (runId, exceptionId, body) => json<ReconciliationException>(`${runUrl(runId)}/exceptions/${encodeURIComponent(exceptionId)}/resolve`, { method: 'POST', body }),
  };
}
