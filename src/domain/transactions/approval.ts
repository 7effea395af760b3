import type { Tx } from '../../db/database.js';
import type { PasskeyRead } from '../../db/repositories/transactions.js';
import type { CheckedWrite } from '../checked-writes.js';
import type { MutationContext } from '../context.js';

/**
 * The end user's approval of one signedBody, checked before anything is written (a refused attempt uses
 * nothing up) and used up inside the database transaction that records what it approved.
 */
export interface Approval {
  kind: 'passkey' | 'otp';
  /** The passkey that stamped (passkey approvals). */
  authenticatorId: string | null;
  /** Marks the approval used by what it approved; throws when a concurrent request used it first. */
  use(tx: Tx, target: ApprovalTarget): Promise<void>;
  /**
   * `use` as writes to send with the change's own (checked-writes.ts): one round trip for the change, its events and
   * the approval; their checks throw what `use` throws.
   */
  writes(target: ApprovalTarget): CheckedWrite[];
  /**
   * Throws the reuse problem when a concurrent request has used the approval since it was checked. Asked when the
   * node refuses the pre-flight: the concurrent request may have spent the nonce, and its use is the real answer.
   */
  recheck(): Promise<void>;
}

/** What an approval was used for: a transaction (proposal, approval, transfer) or a member action (docs/members.md). */
export type ApprovalTarget = { transactionRowId: string } | { activity: string; subjectId: string };

/**
 * Checks the approval of `userId` (its passkey or OTP) over the signedBody; throws the problem when it does not
 * authorise it. A passkey approval names the passkey its stamp is for (`passkey`), so a submission reads it with its
 * own context (`read`, one round trip); `read` is used only when it was read for `userId`.
 */
export type Approve = ((ctx: MutationContext, userId: string, signedBody: unknown, read?: PasskeyRead) => Promise<Approval>) & {
  passkey?: (signedBody: unknown) => { credentialId: string; challenge: string } | undefined;
};
