import type { Executor, Tx } from '../../db/database.js';
import type { AccountRow } from '../../db/repositories/accounts.js';
import { findMember, type MemberRow } from '../../db/repositories/members.js';
import { canonicalJson } from '../canonical-json.js';
import type { MutationContext } from '../context.js';
import { ApiError, invalidFields } from '../errors.js';
import { otpApproval } from '../transactions/otp-approval.js';
import { passkeyApproval } from '../transactions/passkey-approval.js';
import { SIGNED_BODY_WINDOW_MS } from '../transactions/send-transaction.js';
import { mayAct, type MemberAction } from './roles.js';

/** signedBody.type of every member action (member changes, invitations, policy, approving or rejecting a transaction). */
export const MEMBER_ACTION_ACTIVITY = 'ACTIVITY_TYPE_MEMBER_ACTION';

export interface MemberSignedBody {
  type: string;
  timestampMs: string;
  organizationId: string;
  parameters: object;
}

/** What a request made on behalf of a member carries (docs/members.md#acting-member). */
export interface ActingMemberInput {
  actingUserId?: string;
  signedBody?: MemberSignedBody;
  webAuthnStamp?: string;
  approvalToken?: string;
}

const APPROVAL_FIELDS = new Set(['signedBody', 'webAuthnStamp', 'approvalToken']);

/**
 * The parameters a member's signedBody must carry for a request: the operation's name and the request's own
 * fields (actingUserId included), without the approval itself.
 */
export function memberActionParameters(operation: string, body: object): Record<string, unknown> {
  const fields = Object.fromEntries(Object.entries(body).filter(([k, v]) => !APPROVAL_FIELDS.has(k) && v !== undefined));
  return { operation, ...fields };
}

export const roleNotAllowed = (detail: string) => new ApiError('role_not_allowed', detail);

/**
 * The acting member's row if its role allows the action (roles.ts), else 403: cannot_change_own_role for the actor's
 * own role, role_not_allowed for anything else (also for a user who is no member).
 */
export async function requireActingRole(db: Executor, account: AccountRow, actingUserId: string, action: MemberAction): Promise<MemberRow> {
  const member = await findMember(db, account.integratorId, account.id, actingUserId);
  if (!member) throw roleNotAllowed('actingUserId is not a member of this account');
  if (action.kind === 'change_role' && action.self) throw new ApiError('cannot_change_own_role', 'Nobody changes their own role: another member whose role allows it (an owner, for approval power) makes the change');
  if (!mayAct(member.role, action)) throw roleNotAllowed(`A member with the role ${member.role} may not ${describe(action)}`);
  return member;
}

function describe(action: MemberAction): string {
  switch (action.kind) {
    case 'read':
      return 'read';
    case 'invite':
      return `invite a member with the role ${action.role}`;
    case 'change_role':
      return `change a member’s role from ${action.from} to ${action.to}`;
    case 'remove':
      return action.self ? `leave the account (only an owner may)` : `remove a member with the role ${action.role}`;
    case 'update_policy':
      return 'change the approval policy';
    case 'delete_spending_policy':
      return 'delete a spending policy of the account';
    case 'propose_transaction':
      return 'propose transactions';
    case 'approve_transaction':
      return 'approve or reject transactions';
  }
}

/** A checked member approval, to use up inside the change's transaction. */
export interface MemberApproval {
  kind: 'passkey' | 'otp';
  authenticatorId: string | null;
  use(tx: Tx, subjectId: string): Promise<void>;
}

/**
 * Checks that the acting member approved exactly this request: signedBody of type ACTIVITY_TYPE_MEMBER_ACTION,
 * within 5 minutes of the server clock, for the account's organizationId, whose parameters are the request's
 * (memberActionParameters); stamped by one of the member's passkeys, or with an OTP approvalToken of theirs.
 * Nothing is used up here: `use` does it in the change's transaction.
 */
export async function checkMemberApproval(ctx: MutationContext, account: AccountRow, operation: string, body: ActingMemberInput & object): Promise<MemberApproval> {
  const { actingUserId, signedBody, webAuthnStamp, approvalToken } = body;
  const missing = [
    ...(actingUserId ? [] : ['actingUserId']),
    ...(signedBody ? [] : ['signedBody']),
    ...(webAuthnStamp || approvalToken ? [] : ['webAuthnStamp']),
  ];
  if (missing.length > 0 || !actingUserId || !signedBody) {
    throw invalidFields(missing.map((f) => ({ pointer: `/${f}`, code: 'required', detail: `${f} is required: this change is made on behalf of a member (docs/members.md)`, in: 'body' as const })));
  }
  if (!account.organizationId) throw new ApiError('entity_wallet_required', 'The account has no organizationId for a member to approve against yet: call create-entity-wallet first');
  const mismatch = (pointer: string, detail: string) => new ApiError('signed_body_mismatch', detail, { errors: [{ pointer, code: 'mismatch', detail, in: 'body' }] });
  if (signedBody.type !== MEMBER_ACTION_ACTIVITY) throw mismatch('/signedBody/type', `signedBody.type must be ${MEMBER_ACTION_ACTIVITY}`);
  const skew = Number(signedBody.timestampMs) - ctx.now.getTime();
  if (!Number.isSafeInteger(Number(signedBody.timestampMs)) || Math.abs(skew) > SIGNED_BODY_WINDOW_MS) {
    throw new ApiError('stale_signed_body', `signedBody.timestampMs must be within ${SIGNED_BODY_WINDOW_MS / 60_000} minutes of the server time (${ctx.now.toISOString()})`);
  }
  if (signedBody.organizationId.toLowerCase() !== account.organizationId.toLowerCase()) throw mismatch('/signedBody/organizationId', 'signedBody.organizationId is not the account’s organizationId');
  const expected = memberActionParameters(operation, body);
  if (canonicalJson(signedBody.parameters) !== canonicalJson(expected)) {
    throw mismatch('/signedBody/parameters', `signedBody.parameters must be this request’s fields with operation "${operation}" (docs/members.md#acting-member)`);
  }
  const approve = webAuthnStamp ? passkeyApproval(webAuthnStamp) : otpApproval(approvalToken!);
  const approval = await approve(ctx, actingUserId, signedBody);
  return { kind: approval.kind, authenticatorId: approval.authenticatorId, use: (tx, subjectId) => approval.use(tx, { activity: operation, subjectId }) };
}
