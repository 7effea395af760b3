import { Type } from 'typebox';
import { MEMBER_ROLES } from '../../db/schema/index.js';
import { MEMBER_ACTION_ACTIVITY } from '../../domain/members/member-action.js';
import { Nullable, Text, Uuid } from './onboarding/common.js';
import { FORMATS, patterned } from './patterns.js';

// Members, invitations and approval policies of entity accounts (docs/members.md), shared by their route files.

export const RoleSchema = Type.Enum([...MEMBER_ROLES], { type: 'string', description: 'docs/members.md#roles' });

export const MemberSignedBodySchema = Type.Object(
  {
    type: Text(100, { description: MEMBER_ACTION_ACTIVITY }),
    timestampMs: patterned(FORMATS.timestampMs, { description: 'Milliseconds since the epoch, within 5 minutes of the server clock' }),
    organizationId: Text(100, { description: 'The entity account’s organizationId' }),
    parameters: Type.Object({}, { additionalProperties: true, maxProperties: 32, description: 'The request’s own fields (actingUserId included, the approval excluded) and operation: the operation’s path name' }),
  },
  { additionalProperties: false, title: 'MemberSignedBody', description: 'What the acting member stamps (docs/members.md#acting-member)' },
);

/** The fields of a request made on behalf of a member: who acts, and that member's approval over the request. */
export const ActingMemberFields = {
  actingUserId: Type.Optional(Uuid('The member on whose behalf the change is made')),
  signedBody: Type.Optional(MemberSignedBodySchema),
  webAuthnStamp: Type.Optional(Text(65_536, { minLength: 1, description: 'The acting member’s passkey stamp over signedBody (X-Stamp-Webauthn value); or approvalToken' })),
  approvalToken: Type.Optional(Text(200, { minLength: 1, description: 'The acting member’s OTP approval token (otp/verify); or webAuthnStamp' })),
};

export const MemberSchema = Type.Object(
  {
    accountId: Uuid(),
    userId: Uuid(),
    role: RoleSchema,
    firstName: Nullable(Type.String()),
    lastName: Nullable(Type.String()),
    email: Nullable(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, title: 'Member', description: 'A member of an entity account: a user with one role' },
);

export const MemberListSchema = Type.Object({ data: Type.Array(MemberSchema) }, { additionalProperties: false, description: 'Every member of the account, oldest first' });

export const ApprovalPolicySchema = Type.Object(
  {
    accountId: Uuid(),
    requiredApprovals: Type.Integer({ minimum: 0, description: '0 self-custodial, 1 individual, 1..approvers for an entity' }),
    approvers: Nullable(Type.Integer({ minimum: 0, description: 'Members who count towards the quorum (owners and approvers); null for individual accounts' })),
  },
  { additionalProperties: false, title: 'ApprovalPolicy', description: 'How many member approvals a transaction from the account’s wallet needs' },
);
