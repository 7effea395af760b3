import { Type } from 'typebox';
import { acceptInvitation, acceptInvitationErrors, type AcceptInvitationInput } from '../../../domain/members/accept-invitation.js';
import { readMailOutbox, type InvitationDelivery } from '../../../domain/members/invitation-mail.js';
import { createInvitation, listInvitations, resendInvitation, revokeInvitation } from '../../../domain/members/invitations.js';
import { actorFrom, integratorOf } from '../../context.js';
import { exactlyOneOf } from '../../schemas/combinators.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import { AcceptedInvitationSchema, InvitationListSchema, InvitationSchema, MailOutboxSchema } from '../../schemas/invitations.js';
import { ActingMemberFields, RoleSchema } from '../../schemas/members.js';
import { Text, Uuid } from '../../schemas/onboarding/common.js';
import { AdditionalUserInfoSchema, AuthenticatorSchema, UserInfoSchema } from '../../schemas/onboarding/users.js';
import { SIGNED_READ_ERRORS, SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';

const TAGS = ['Account management'];

/** How this deployment emails invitations: SMTP, held for the sandbox outbox, or not at all (503). */
export function invitationDelivery(deps: Deps): InvitationDelivery {
  return { mail: deps.mailer ? 'smtp' : deps.config.appEnv === 'sandbox' ? 'held' : undefined, baseUrl: deps.config.invitationBaseUrl };
}

const InvitationChangeBody = Type.Object({ invitationId: Uuid(), ...ActingMemberFields }, { additionalProperties: false, title: 'InvitationChange' });

export const AcceptInvitationBody = Type.Object(
  {
    token: Text(200, { minLength: 1, description: 'The token of the invitation’s link (inv_…): from the email, or the sandbox mail outbox' }),
    userInfo: Type.Optional(UserInfoSchema),
    serviceTermsSignedAt: Type.Optional(Type.String({ format: 'date-time', description: 'With userInfo: when the new user signed the service terms' })),
    additionalUserInfo: Type.Optional(AdditionalUserInfoSchema),
    partnerSignedAgreementId: Type.Optional(Text(200, { minLength: 1 })),
    authenticator: Type.Optional(AuthenticatorSchema),
    userId: Type.Optional(Uuid('An existing user of the integrator to make the member, instead of userInfo')),
  },
  { additionalProperties: false, ...exactlyOneOf('userInfo', 'userId'), description: 'Exactly one of userInfo (a new user, as create-user) and userId (an existing user)' },
);

/** Invitations to entity accounts (docs/invitations.md); the hosted page is src/http/pages/. */
export function invitationRoutes(api: Api, deps: Deps): void {
  const delivery = invitationDelivery(deps);

  api.post(
    '/v1/submit/create-invitation',
    {
      schema: {
        operationId: 'createInvitation',
        tags: TAGS,
        summary: 'Invites someone by email to become a member with a role (a single-use link, 7 days), on behalf of a member whose role allows it',
        headers: IdempotencyHeaders,
        body: Type.Object({ accountId: Uuid(), email: Text(254, { minLength: 3 }), role: RoleSchema, ...ActingMemberFields }, { additionalProperties: false }),
        response: { 201: InvitationSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      const invitation = await createInvitation(actorFrom(request, deps), delivery, request.body);
      deps.mailQueued?.fire();
      return reply.code(201).send(invitation);
    },
  );

  api.get(
    '/v1/query/list-invitations',
    {
      schema: {
        operationId: 'listInvitations',
        tags: TAGS,
        summary: 'The invitations of an entity account, newest first',
        querystring: Type.Object({ accountId: Uuid() }, { additionalProperties: false }),
        response: { 200: InvitationListSchema, ...problemResponses(...SIGNED_READ_ERRORS, 404, 409) },
      },
    },
    async (request) => listInvitations(deps.database.db, integratorOf(request), request.query.accountId),
  );

  api.post(
    '/v1/submit/revoke-invitation',
    {
      schema: {
        operationId: 'revokeInvitation',
        tags: TAGS,
        summary: 'Revokes a pending invitation (its link stops working), on behalf of a member who may invite its role',
        headers: IdempotencyHeaders,
        body: InvitationChangeBody,
        response: { 200: InvitationSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404, 410) },
      },
    },
    async (request) => revokeInvitation(actorFrom(request, deps), request.body),
  );

  api.post(
    '/v1/submit/resend-invitation',
    {
      schema: {
        operationId: 'resendInvitation',
        tags: TAGS,
        summary: 'Emails a pending invitation again with a new link (the old one stops working) valid 7 more days; 5 sends, 60 s apart',
        headers: IdempotencyHeaders,
        body: InvitationChangeBody,
        response: { 200: InvitationSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404, 410) },
      },
    },
    async (request) => {
      const invitation = await resendInvitation(actorFrom(request, deps), delivery, request.body);
      deps.mailQueued?.fire();
      return invitation;
    },
  );

  api.post(
    '/v1/submit/accept-invitation',
    {
      config: { bodyChecks: (body: unknown) => acceptInvitationErrors(body as AcceptInvitationInput, { now: deps.clock(), policy: deps.policy }) },
      schema: {
        operationId: 'acceptInvitation',
        tags: TAGS,
        summary: 'Accepts an invitation by its token: a new user (create-user’s rules, the invited email) or an existing one becomes a member',
        headers: IdempotencyHeaders,
        body: AcceptInvitationBody,
        response: { 201: AcceptedInvitationSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404, 410) },
      },
    },
    async (request, reply) => reply.code(201).send(await acceptInvitation(actorFrom(request, deps), request.body)),
  );

  // Sandbox only; production has no such route (a plain 404).
  if (deps.config.appEnv !== 'sandbox') return;
  api.get(
    '/v1/sandbox/mail-outbox',
    {
      schema: {
        operationId: 'getMailOutbox',
        tags: ['Sandbox'],
        summary: 'Sandbox only: the emails (invitations) this integrator’s requests queued, newest first, with their text',
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) }, { additionalProperties: false }),
        response: { 200: MailOutboxSchema, ...problemResponses(...SIGNED_READ_ERRORS) },
      },
    },
    async (request) => readMailOutbox(deps.database.db, deps.secrets, integratorOf(request), request.query.limit ?? 20),
  );
}
