/**
 * The request body examples of the operators' OpenAPI document (/admin/openapi.json): what /admin/docs pre-fills in
 * Try it out, one for every admin operation that takes a JSON body. The few ids are placeholders (EXAMPLE_IDS'
 * prefix); test/http/openapi-request-examples-count.test.ts checks every example against its operation's schema and
 * that no body operation of either document goes without one.
 */
const DOCUMENT_ID = '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b80';

export const ADMIN_REQUEST_EXAMPLES: Record<string, Record<string, unknown>> = {
  // Reviews: a case's decisions, notes and the four-eyes proposal.
  decideCase: { decision: 'request_resubmission', reasons: ['The passport photo is blurred: the machine-readable zone cannot be read'], documents: [DOCUMENT_ID] },
  addCaseNote: { body: 'Called the customer: a new passport photo is on its way.' },
  closeCase: { note: 'Both hits dismissed (born in another country); nothing else to review.' },
  proposeDecision: { decision: 'approve', reasons: ['The only screening hit is a false positive: different date of birth'] },
  confirmProposal: { note: 'Checked the hit disposition and the documents: agreed.' },
  overturnProposal: { note: 'The proof of address is older than three months.' },
  disposeScreeningHit: { disposition: 'false_positive', note: 'Different date and place of birth than the listed person.' },
  // Money: deposits by reference, bank accounts, payouts of withdrawals.
  receiveDepositFunds: { amount: '250.00' },
  cancelDeposit: { reason: 'The customer asked to cancel; no funds arrived.' },
  decideBankAccount: { outcome: 'reject', reason: 'The holder name is not the customer’s name.' },
  markWithdrawalPayoutSent: { reason: 'Sent in the 14:00 ACH batch.' },
  settleWithdrawalPayout: { reason: 'Seen on the bank statement of the day.' },
  returnWithdrawalPayout: { reason: 'R03: no account or unable to locate account.' },
  // Reconciliation: a run (the chain's; a bank run sends { kind: 'bank', statement: <camt.053 XML> }) and its work.
  runReconciliation: { kind: 'chain' },
  resolveReconciliationBreak: { note: 'A fee the custody provider charged on chain; posted to the ledger.', adjust: true },
  matchReconciliationException: { kind: 'deposit', reference: 'DEP-7K3M9Q2X5B8N', note: 'The sender wrote the reference without its dash.' },
  resolveReconciliationException: { note: 'A test credit the bank reversed the same day.' },
};
