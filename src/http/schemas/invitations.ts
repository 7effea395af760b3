import { Type } from 'typebox';
import { INVITATION_STATUSES } from '../../db/schema/index.js';
import { MemberSchema, RoleSchema } from './members.js';
import { Nullable, Uuid } from './onboarding/common.js';

// Invitations to entity accounts (docs/invitations.md), shared by the API routes and the hosted page.

const DateTime = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });

export const InvitationSchema = Type.Object(
  {
    invitationId: Uuid(),
    accountId: Uuid(),
    email: Type.String(),
    role: RoleSchema,
    status: Type.Enum([...INVITATION_STATUSES], { type: 'string' }),
    expiresAt: DateTime('The link stops working then (7 days after the last send)'),
    invitedByUserId: Nullable(Uuid('The acting member who invited; null: the integrator alone (first owner)')),
    acceptedUserId: Nullable(Uuid('The user who accepted')),
    sentCount: Type.Integer({ minimum: 1, description: 'Emails sent (at most 5)' }),
    lastSentAt: DateTime(),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { additionalProperties: false, title: 'Invitation', description: 'An invitation to become a member (never its token)' },
);

export const InvitationListSchema = Type.Object({ data: Type.Array(InvitationSchema) }, { additionalProperties: false, description: 'The account’s invitations, newest first' });

export const AcceptedInvitationSchema = Type.Object(
  { invitation: InvitationSchema, member: MemberSchema },
  { additionalProperties: false, description: 'The accepted invitation and the new member' },
);

export const MailOutboxSchema = Type.Object(
  {
    data: Type.Array(
      Type.Object(
        {
          id: Uuid(),
          kind: Type.Enum(['invitation'], { type: 'string' }),
          subjectId: Uuid('What the message is about (an invitation’s id)'),
          recipient: Type.String(),
          subject: Type.String(),
          text: Type.String({ description: 'The plain-text body, as emailed (an invitation’s holds its link)' }),
          status: Type.Enum(['pending', 'sent', 'held', 'failed'], { type: 'string', description: 'held: sandbox without SMTP_URL, never sent' }),
          createdAt: DateTime(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, description: 'The integrator’s emails, newest first, opened' },
);
