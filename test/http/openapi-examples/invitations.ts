import type { ApiResponse } from '../../harness/client.js';
import { signedAt } from '../../harness/fixtures.js';
import { inviteeInfo, ownerInvitation, ownerlessEntity } from '../../harness/invitations.js';
import { post } from '../../harness/members.js';
import type { SeededIntegrator, TestServer } from '../../harness/server.js';

/** What these examples need of the OpenAPI suite's context. */
interface Ctx {
  server: TestServer;
  acme: SeededIntegrator;
}

interface Records {
  entityAccountId: string;
  userId: string;
  invitationId: string;
  invitationToken: string;
}

/** The invitation operations aimed at another integrator's records (the 401/403/404 sweep). */
export const INVITATION_ADDRESSED: Record<string, (c: Ctx, r: Records) => Promise<ApiResponse>> = {
  createInvitation: (c, r) => c.acme.client.post('/v1/submit/create-invitation', { accountId: r.entityAccountId, email: 'x@example.com', role: 'owner' }),
  listInvitations: (c, r) => c.acme.client.get(`/v1/query/list-invitations?accountId=${r.entityAccountId}`),
  revokeInvitation: (c, r) => c.acme.client.post('/v1/submit/revoke-invitation', { invitationId: r.invitationId }),
  resendInvitation: (c, r) => c.acme.client.post('/v1/submit/resend-invitation', { invitationId: r.invitationId }),
  acceptInvitation: (c, r) => c.acme.client.post('/v1/submit/accept-invitation', { token: r.invitationToken, userId: r.userId }),
};

/** Real calls of the invitation operations: successes and typical refusals, each on an owner-less entity of its own. */
export const INVITATION_EXAMPLES: Record<string, (c: Ctx) => Promise<ApiResponse[]>> = {
  createInvitation: async ({ server, acme }) => {
    const { accountId } = await ownerlessEntity(server, acme);
    return [
      await post(server, acme, '/v1/submit/create-invitation', { accountId, email: 'first.owner@example.com', role: 'owner' }),
      await post(server, acme, '/v1/submit/create-invitation', { accountId, email: 'viewer@example.com', role: 'viewer' }),
      await post(server, acme, '/v1/submit/create-invitation', { accountId, email: 'not-an-email', role: 'owner' }),
    ];
  },
  listInvitations: async ({ server, acme }) => {
    const { accountId } = await ownerlessEntity(server, acme);
    await ownerInvitation(server, acme, accountId);
    return [await acme.client.get(`/v1/query/list-invitations?accountId=${accountId}`)];
  },
  revokeInvitation: async ({ server, acme }) => {
    const { accountId } = await ownerlessEntity(server, acme);
    const { invitationId } = await ownerInvitation(server, acme, accountId);
    return [await post(server, acme, '/v1/submit/revoke-invitation', { invitationId }), await post(server, acme, '/v1/submit/revoke-invitation', { invitationId })];
  },
  resendInvitation: async ({ server, acme }) => {
    const { accountId } = await ownerlessEntity(server, acme);
    const { invitationId } = await ownerInvitation(server, acme, accountId);
    const tooSoon = await post(server, acme, '/v1/submit/resend-invitation', { invitationId });
    server.clock.advance(60_000);
    return [tooSoon, await post(server, acme, '/v1/submit/resend-invitation', { invitationId })];
  },
  acceptInvitation: async ({ server, acme }) => {
    const { accountId } = await ownerlessEntity(server, acme);
    const { token, email } = await ownerInvitation(server, acme, accountId);
    const body = { token, userInfo: inviteeInfo(email), serviceTermsSignedAt: signedAt() };
    return [
      await post(server, acme, '/v1/submit/accept-invitation', body),
      await post(server, acme, '/v1/submit/accept-invitation', body),
      await post(server, acme, '/v1/submit/accept-invitation', { ...body, token: `inv_${'A'.repeat(43)}` }),
    ];
  },
  getMailOutbox: async ({ acme }) => [await acme.client.get('/v1/sandbox/mail-outbox?limit=5')],
};
