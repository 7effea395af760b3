import type { CustodyKeys } from '../chain/custody-keys.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { RelyingPartyPolicy } from '../crypto/webauthn/relying-party.js';
import type { Database, Tx } from '../db/database.js';
import type { ScreeningLists } from './screening/lists.js';
import type { AddressScreen } from './screening/address-screen.js';
import { markCommittedWrite } from '../db/repositories/idempotency-keys.js';
import { exactlyOne, runCheckedWrites, type CheckedWrite } from './checked-writes.js';
import { ApiError } from './errors.js';

/** Who is acting, and when. Every domain mutation takes one. */
export interface Actor {
  integratorId: string;
  /** The credential that signed the request; undefined for the operator CLI. */
  credentialId?: string;
  publicKey?: string;
  kind: 'integrator' | 'operator';
}

/** An Idempotency-Key claimed by the HTTP layer; the mutation commits it atomically with its change. */
export interface IdempotencyClaim {
  integratorId: string;
  key: string;
  lockedAt: Date;
}

/** Rules that depend on configuration rather than code. */
export interface Policy {
  /** Alpha-3 codes whose nationals or residents need additionalUserInfo. */
  highRiskCountries: ReadonlySet<string>;
  /**
   * The screening lists (SCREENING_LISTS, WATCHLIST_FILE; the shipped sample in sandbox), reloaded when their files
   * change (docs/screening.md); none: names are not screened.
   */
  screening?: ScreeningLists;
  /**
   * Wallet addresses on the screening lists (docs/screening.md#wallet-addresses): money is not sent to them. Read at
   * each use (a list reloaded replaces it); none: addresses are not screened.
   */
  addressScreen?: AddressScreen;
  /**
   * Relying-party ids and origins passkeys may come from (WEBAUTHN_RP_IDS, WEBAUTHN_ORIGINS). The server
   * always sets it; absent (a policy built by hand, e.g. in a test), no passkey registration is accepted.
   */
  webauthn?: RelyingPartyPolicy;
}

export interface MutationContext {
  db: Database;
  actor: Actor;
  now: Date;
  idempotency?: IdempotencyClaim;
  /** Seals secrets at rest (SSNs, documents, wallet keys). */
  secrets: SecretBox;
  /** Custody keys (CUSTODY_KEYS): the processes always set it; absent (a context built by hand), sealed under `secrets`. */
  custody?: CustodyKeys;
  policy: Policy;
}

/**
 * Runs a change in one transaction. The change writes its own events through `tx`; if the request holds an
 * idempotency claim, marking it committed happens in the same transaction, so a retry can never run a
 * committed change twice (and a change whose claim was taken over by a retry rolls back).
 */
export async function runMutation<T>(ctx: MutationContext, change: (tx: Tx) => Promise<T>): Promise<T> {
  return ctx.db.db.transaction(async (tx) => {
    const result = await change(tx);
    await runCheckedWrites(tx, claimCommitWrites(ctx));
    return result;
  });
}

/**
 * The write that marks the request's idempotency claim committed (none without a claim), for a change made in one
 * statement instead of runMutation's transaction: sent with the change's own writes, it commits with them or
 * fails them all.
 */
export function claimCommitWrites(ctx: MutationContext): CheckedWrite[] {
  const claim = ctx.idempotency;
  if (!claim) return [];
  return [exactlyOne(markCommittedWrite(claim.integratorId, claim.key, claim.lockedAt), () => new ApiError('idempotency_request_in_progress', 'Another request with this Idempotency-Key took over; nothing was changed'))];
}
