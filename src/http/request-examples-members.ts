/** Request examples of entity accounts' members, approval policies, invitations and quorum decisions. */
import { EXAMPLE_IDS, EXAMPLE_VALUES } from './request-examples-ids.js';

/**
 * A member action (docs/members.md#acting-member): the operation's fields, the acting member, the signedBody of
 * type ACTIVITY_TYPE_MEMBER_ACTION over them (operation: the path's last segment), and the member's passkey stamp.
 */
function memberAction(operation: string, fields: Record<string, unknown>): Record<string, unknown> {
  const body = { ...fields, actingUserId: EXAMPLE_IDS.actingUserId };
  const signedBody = { type: 'ACTIVITY_TYPE_MEMBER_ACTION', timestampMs: EXAMPLE_VALUES.timestampMs, organizationId: EXAMPLE_IDS.organizationId, parameters: { operation, ...body } };
  return { ...body, signedBody, webAuthnStamp: EXAMPLE_VALUES.webAuthnStamp };
}

export const MEMBER_EXAMPLES: Record<string, Record<string, unknown>> = {
  updateMemberRole: memberAction('update-member-role', { accountId: EXAMPLE_IDS.entityAccountId, userId: EXAMPLE_IDS.memberUserId, role: 'approver' }),
  removeMember: memberAction('remove-member', { accountId: EXAMPLE_IDS.entityAccountId, userId: EXAMPLE_IDS.memberUserId }),
  updateApprovalPolicy: memberAction('update-approval-policy', { accountId: EXAMPLE_IDS.entityAccountId, requiredApprovals: 2 }),
  // The first owner of an entity that has none: the integrator alone may invite them (docs/members.md).
  createInvitation: { accountId: EXAMPLE_IDS.entityAccountId, email: 'erika.mustermann@example.com', role: 'owner' },
  resendInvitation: { invitationId: EXAMPLE_IDS.invitationId },
  revokeInvitation: { invitationId: EXAMPLE_IDS.invitationId },
  acceptInvitation: {
    token: EXAMPLE_VALUES.invitationToken,
    userInfo: { firstName: 'Erika', lastName: 'Mustermann', email: 'erika.mustermann@example.com' },
    serviceTermsSignedAt: '2026-11-02T09:30:00Z',
  },
  approveTransaction: memberAction('approve-transaction', { transactionId: EXAMPLE_IDS.transactionId }),
  rejectTransaction: memberAction('reject-transaction', { transactionId: EXAMPLE_IDS.transactionId }),
};

const stamped =
  'The example’s actingUserId approves with a passkey: signedBody is made per request (timestampMs now, parameters the request’s own fields and operation), ' +
  'and webAuthnStamp by `stampWithPasskey(signedBody)` of the SDK (docs/sdk.md#passkey-stamps); an approvalToken of otp/verify may replace the stamp (docs/members.md#acting-member).';

export const MEMBER_EXAMPLE_NOTES: Record<string, string> = {
  updateMemberRole: stamped,
  removeMember: stamped,
  updateApprovalPolicy: stamped,
  approveTransaction: stamped,
  rejectTransaction: stamped,
  createInvitation: 'The example invites the first owner of an entity that has none (docs/members.md#first-owner); on an account with owners the request carries an acting member’s approval, as update-member-role’s example shows.',
  acceptInvitation: 'The token is the one of the invitation’s link (in the sandbox: GET /v1/sandbox/mail-outbox).',
};
