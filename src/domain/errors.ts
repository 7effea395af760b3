/**
 * The closed table of error codes. Every failure the API reports is one of these; the HTTP layer renders
 * them as RFC 9457 problem details. Adding a code means adding a row here (and to docs/errors.md).
 */
export const ERROR_CODES = {
  validation_failed: { status: 400, title: 'The request is invalid' },
  malformed_json: { status: 400, title: 'The request body is not valid JSON' },
  malformed_url: { status: 400, title: 'The request URL is not valid' },
  additional_user_info_required: { status: 400, title: 'additionalUserInfo is required for this user (over 60 or high risk)' },
  missing_auth_headers: { status: 401, title: 'Authentication headers are missing' },
  malformed_public_key: { status: 401, title: 'X-Pubkey is not a compressed P-256 public key' },
  malformed_signature: { status: 401, title: 'X-Signature is not a DER-encoded ECDSA signature' },
  malformed_timestamp: { status: 401, title: 'X-Timestamp is not a Unix time in seconds' },
  timestamp_out_of_window: { status: 401, title: 'X-Timestamp is outside the accepted window' },
  invalid_signature: { status: 401, title: 'The signature does not match the request' },
  unknown_credential: { status: 401, title: 'No credential has this public key' },
  credential_inactive: { status: 401, title: 'The credential is deactivated' },
  insufficient_scope: { status: 403, title: 'The credential scope does not allow this operation' },
  role_not_allowed: { status: 403, title: 'The acting member’s role does not allow this' },
  cannot_change_own_role: { status: 403, title: 'Nobody changes their own role' },
  sanctioned_address: { status: 403, title: 'The recipient address is on a sanctions list' },
  policy_denied: { status: 403, title: 'A spending policy refused the transaction' },
  supervisor_required: { status: 403, title: 'Only a supervisor operator may do this' },
  four_eyes_same_operator: { status: 403, title: 'Four eyes: another operator than the one who proposed the decision, or who marked a hit of the case a false positive, makes it' },
  not_the_proposer: { status: 403, title: 'Only the operator who proposed a decision withdraws it' },
  case_not_held: { status: 403, title: 'The case is held by another operator' },
  not_found: { status: 404, title: 'Not found' },
  route_not_found: { status: 404, title: 'No such endpoint' },
  method_not_allowed: { status: 405, title: 'Method not allowed on this endpoint' },
  duplicate_request: { status: 409, title: 'This signed request was already received' },
  credential_exists: { status: 409, title: 'A credential with this public key already exists' },
  authenticator_exists: { status: 409, title: 'An authenticator with this credential id is already registered' },
  cannot_modify_own_credential: { status: 409, title: 'A credential cannot deactivate, rescope or delete itself' },
  idempotency_request_in_progress: { status: 409, title: 'A request with this Idempotency-Key is still in progress' },
  invalid_state_transition: { status: 409, title: 'This verification status change is not allowed' },
  four_eyes_required: { status: 409, title: 'This decision takes two operators: propose it for a supervisor to confirm' },
  proposal_pending: { status: 409, title: 'The case already has a proposed decision waiting for confirmation' },
  no_proposal: { status: 409, title: 'The case has no proposed decision' },
  case_claimed: { status: 409, title: 'Another operator holds the case' },
  hit_already_dispositioned: { status: 409, title: 'The screening hit has a disposition already' },
  open_hits_remain: { status: 409, title: 'The case has screening hits without a disposition' },
  case_not_open: { status: 409, title: 'The case is not open' },
  statement_already_imported: { status: 409, title: 'This bank statement was imported already' },
  reconciliation_item_closed: { status: 409, title: 'The break or exception was worked already' },
  already_matched: { status: 409, title: 'A statement line is matched to this movement already' },
  webhook_subscription_disabled: { status: 409, title: 'The webhook subscription is disabled' },
  account_not_active: { status: 409, title: 'The account is not active' },
  self_custodial_account: { status: 409, title: 'The account is self-custodial: the server holds no key for it' },
  stamp_reused: { status: 409, title: 'This webAuthnStamp was already used' },
  approval_token_reused: { status: 409, title: 'This approvalToken was already used' },
  transaction_id_reused: { status: 409, title: 'This transactionId was already used with a different request' },
  nonce_too_low: { status: 409, title: 'The transaction nonce was already used on chain' },
  invalid_transaction_state: { status: 409, title: 'The transaction is not in a state that allows this' },
  account_without_wallet: { status: 409, title: 'The account has no wallet' },
  entity_account_required: { status: 409, title: 'This operation is for entity accounts only' },
  member_approval_required: { status: 409, title: 'An entity wallet sends only with its members’ approvals' },
  last_owner: { status: 409, title: 'The last owner can be neither removed nor demoted' },
  quorum_unreachable: { status: 409, title: 'The approval policy would need more approvers than the account has' },
  already_member: { status: 409, title: 'The user is a member of this account already' },
  invitation_not_pending: { status: 409, title: 'The invitation was accepted or revoked' },
  onboarding_link_closed: { status: 409, title: 'The onboarding link was completed, revoked or expired' },
  invitation_superseded: { status: 409, title: 'Whoever made the invitation may no longer make it (an owner was seated since, or the inviter lost the role)' },
  member_not_verified: { status: 409, title: 'The member’s user is not verified: members act on transactions only once active' },
  product_not_enabled: { status: 409, title: 'The account has not enabled this product' },
  product_unavailable: { status: 409, title: 'The account cannot have this product' },
  entity_wallet_required: { status: 409, title: 'The entity account has no wallet yet (create-entity-wallet)' },
  bank_account_exists: { status: 409, title: 'The account already has a bank account with this number' },
  bank_account_limit_reached: { status: 409, title: 'The account holds the most bank accounts allowed' },
  bank_account_removed: { status: 409, title: 'The bank account was removed' },
  bank_account_not_pending: { status: 409, title: 'The bank account is not waiting for review' },
  bank_account_not_verified: { status: 409, title: 'The bank account is not verified' },
  policy_deleted: { status: 409, title: 'The policy was deleted' },
  address_book_entry_exists: { status: 409, title: 'The account’s address book has this address already' },
  transaction_mismatch: { status: 409, title: 'The approval is not for the transaction that was issued' },
  quote_expired: { status: 409, title: 'The prepared transaction (a withdrawal’s quote, a vault call) expired before its approval' },
  invitation_expired: { status: 410, title: 'The invitation expired' },
  payload_too_large: { status: 413, title: 'The request body is too large' },
  unsupported_media_type: { status: 415, title: 'Request bodies must be application/json' },
  idempotency_key_reused: { status: 422, title: 'This Idempotency-Key was used with a different request' },
  idempotency_key_other_credential: { status: 422, title: 'This Idempotency-Key holds a secret answer that only the credential which made the request may replay' },
  verification_requirements_missing: { status: 422, title: 'Verification cannot be requested while required items are missing' },
  webhook_url_not_allowed: { status: 422, title: 'The webhook URL is not allowed' },
  unsupported_chain: { status: 422, title: 'This chain is not supported' },
  not_offered: { status: 422, title: 'This deployment does not offer the currency, currency and token pair, or payout rail asked for' },
  stale_signed_body: { status: 422, title: 'signedBody.timestampMs is too far from the server time' },
  sign_with_mismatch: { status: 422, title: 'signWith is not the wallet of the organization named' },
  chain_mismatch: { status: 422, title: 'The unsigned transaction is for another chain than chain_id' },
  signed_body_mismatch: { status: 422, title: 'signedBody does not approve this request' },
  invalid_stamp: { status: 422, title: 'The webAuthnStamp does not authorise this body' },
  invalid_approval_token: { status: 422, title: 'The approvalToken does not authorise this request' },
  otp_invalid: { status: 422, title: 'The one-time code is wrong' },
  otp_expired: { status: 422, title: 'No one-time code is pending: it expired, was used, or none was sent' },
  otp_attempts_exhausted: { status: 422, title: 'The one-time code allowed no more guesses' },
  otp_destination_missing: { status: 422, title: 'The user has no address for this channel' },
  insufficient_funds: { status: 422, title: 'The wallet cannot pay for this transaction' },
  rate_limited: { status: 429, title: 'Too many requests' },
  auth_rate_limited: { status: 429, title: 'Too many failed authentications from this address' },
  invitation_resend_limited: { status: 429, title: 'The invitation was sent too recently or too often' },
  otp_rate_limited: { status: 429, title: 'A code was sent to this user too recently' },
  internal_error: { status: 500, title: 'Internal server error' },
  chain_rejected: { status: 502, title: 'The chain node refused the transaction' },
  chain_unavailable: { status: 502, title: 'The chain node could not be reached' },
  vault_unreadable: { status: 502, title: 'The vault did not answer as an ERC-4626 vault' },
  otp_delivery_failed: { status: 502, title: 'The mail server did not accept the one-time code' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
  resource_busy: { status: 503, title: 'The records this request changes were busy; nothing was changed' },
  database_unavailable: { status: 503, title: 'The database could not be reached or did not answer in time' },
  otp_unavailable: { status: 503, title: 'One-time codes cannot be sent: no mail transport is configured' },
  invitations_unavailable: { status: 503, title: 'Invitations cannot be emailed: no mail transport is configured' },
  onboarding_links_unavailable: { status: 503, title: 'Onboarding links cannot be served: no hosted page base URL is configured' },
  deposits_unavailable: { status: 503, title: 'Deposits are not configured on this deployment' },
  withdrawals_unavailable: { status: 503, title: 'Withdrawals are not configured on this deployment' },
  custody_unavailable: { status: 503, title: 'The custody keys could not be used; nothing was signed or changed' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface FieldError {
  /** JSON pointer into the part named by `in` (the body unless stated). */
  pointer: string;
  code: string;
  detail: string;
  in?: 'body' | 'query' | 'path' | 'header';
}

/** The extension members a problem may carry beyond the standard ones. */
export interface ProblemExtensions {
  missingDocuments?: string[];
  missingCompanyData?: string[];
  fromStatus?: string;
  toStatus?: string;
  action?: string;
  /** invalid_stamp: why (docs/passkeys.md, e.g. challenge_mismatch); chain_rejected: the node's reason code. */
  reason?: string;
  /** product_unavailable: why the account cannot have the product (docs/products.md#statuses). */
  reasons?: string[];
  /** otp_invalid: wrong guesses the code still allows. */
  attemptsRemaining?: number;
  /** A node's refusal after the transaction was recorded: the transaction, now failed (docs/transactions.md#sending). */
  transactionId?: string;
  /** statement_already_imported: the run that imported the statement. */
  runId?: string | null;
  /** policy_denied: the refusing policy, its rule's type and its index in the policy's rules. */
  policyId?: string;
  ruleType?: string;
  ruleIndex?: number;
}

export class ApiError extends Error {
  readonly status: number;
  readonly title: string;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly options: {
      errors?: FieldError[];
      headers?: Record<string, string>;
      /** RFC 9457 extension members, declared in the Problem schema (e.g. missingDocuments). */
      extensions?: ProblemExtensions;
    } = {},
  ) {
    super(detail);
    // A field error names its part; the domain's checks are of bodies unless they say otherwise.
    if (options.errors) this.options = { ...options, errors: options.errors.map((e) => (e.in ? e : { ...e, in: 'body' })) };
    this.name = 'ApiError';
    this.status = ERROR_CODES[code].status;
    this.title = ERROR_CODES[code].title;
  }
}

/**
 * The one way to build a 400 for bad fields: every error found at once, each naming its part (`in`), with a
 * count as detail unless the caller says something more useful.
 */
export function invalidFields(errors: readonly FieldError[], detail = `${errors.length} field(s) failed validation`): ApiError {
  return new ApiError('validation_failed', detail, { errors: [...errors] });
}

/**
 * A choice of the client's that this deployment does not offer (a deposit currency without bank details, a currency
 * and token pair without a rate, a payout rail): 422, naming the body member and what to configure. Not a 503: trying
 * again does not help; 503 is for what may pass (docs/errors.md).
 */
export function notOffered(pointer: string, code: string, detail: string): ApiError {
  return new ApiError('not_offered', detail, { errors: [{ pointer, code, detail, in: 'body' }] });
}

/** One 404 for a missing record and for another integrator's record, so existence never leaks. */
export function notFound(what: string): ApiError {
  return new ApiError('not_found', `${what} not found`);
}
