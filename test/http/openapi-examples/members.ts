import { randomUUID } from 'node:crypto';
import type { ApiResponse } from '../../harness/client.js';
import type { Anvil } from '../../harness/anvil.js';
import { ETH, signedBody, unsignedTransfer } from '../../harness/customers.js';
import { asMember, post, seatMember, teamAccount, type TeamAccount } from '../../harness/members.js';
import type { SeededIntegrator, TestServer } from '../../harness/server.js';

/** What these examples need of the OpenAPI suite's context. */
interface Ctx {
  server: TestServer;
  acme: SeededIntegrator;
}

interface Records {
  userId: string;
  accountId: string;
  entityAccountId: string;
  transactionId: string;
}

/** The member operations, aimed at another integrator's records (the 401/403/404 sweep): the account or transaction is what is not found. */
export const MEMBER_ADDRESSED: Record<string, (c: Ctx, r: Records) => Promise<ApiResponse>> = {
  listMembers: (c, r) => c.acme.client.get(`/v1/query/list-members?accountId=${r.entityAccountId}`),
  updateMemberRole: (c, r) => c.acme.client.post('/v1/submit/update-member-role', { accountId: r.entityAccountId, userId: r.userId, role: 'viewer' }),
  removeMember: (c, r) => c.acme.client.post('/v1/submit/remove-member', { accountId: r.entityAccountId, userId: r.userId }),
  getApprovalPolicy: (c, r) => c.acme.client.get(`/v1/query/get-approval-policy?accountId=${r.entityAccountId}`),
  updateApprovalPolicy: (c, r) => c.acme.client.post('/v1/submit/update-approval-policy', { accountId: r.entityAccountId, requiredApprovals: 1 }),
  approveTransaction: (c, r) => c.acme.client.post('/v1/submit/approve-transaction', { transactionId: r.transactionId }),
  rejectTransaction: (c, r) => c.acme.client.post('/v1/submit/reject-transaction', { transactionId: r.transactionId }),
};

/** Real calls of the member operations (their successes and typical refusals), on one funded team made on first use. */
export function memberExamples(chain: () => Anvil): Record<string, (c: Ctx) => Promise<ApiResponse[]>> {
  // One team per server: the suite runs once per database backend.
  const teams = new WeakMap<TestServer, Promise<{ account: TeamAccount; approver: Awaited<ReturnType<typeof seatMember>>; nonce: number }>>();
  const teamOf = (c: Ctx) => {
    let team = teams.get(c.server);
    if (!team) {
      team = (async () => {
        const account = await teamAccount(c.server, c.acme);
        const approver = await seatMember(c.server, c.acme, account, 'approver');
        await chain().setBalance(account.walletAddress, ETH);
        return { account, approver, nonce: 0 };
      })();
      teams.set(c.server, team);
    }
    return team;
  };
  async function proposal(c: Ctx): Promise<string> {
    const t = await teamOf(c);
    const body = signedBody(c.server, t.account, unsignedTransfer(8453, t.nonce++));
    const res = await post(c.server, c.acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: randomUUID(), signedBody: body, actingUserId: t.approver.userId, webAuthnStamp: t.approver.passkey.stamp(JSON.stringify(body)) });
    return res.body.transactionId;
  }
  return {
    listMembers: async (c) => {
      const { account } = await teamOf(c);
      return [await c.acme.client.get(`/v1/query/list-members?accountId=${account.accountId}`), await c.acme.client.get(`/v1/query/list-members?accountId=${account.owner.accountId}`)];
    },
    updateMemberRole: async (c) => {
      const { account } = await teamOf(c);
      const viewer = await seatMember(c.server, c.acme, account, 'viewer');
      const fields = { accountId: account.accountId, userId: viewer.userId, role: 'initiator' };
      return [
        await post(c.server, c.acme, '/v1/submit/update-member-role', asMember(c.server, account, account.owner, 'update-member-role', fields)),
        await post(c.server, c.acme, '/v1/submit/update-member-role', asMember(c.server, account, viewer, 'update-member-role', { ...fields, role: 'owner' })),
        await post(c.server, c.acme, '/v1/submit/update-member-role', asMember(c.server, account, account.owner, 'update-member-role', { ...fields, userId: account.owner.userId, role: 'admin' })),
        await post(c.server, c.acme, '/v1/submit/update-member-role', asMember(c.server, account, account.owner, 'remove-member', fields)),
        await post(c.server, c.acme, '/v1/submit/update-member-role', fields),
      ];
    },
    removeMember: async (c) => {
      const { account } = await teamOf(c);
      const viewer = await seatMember(c.server, c.acme, account, 'viewer');
      return [
        await post(c.server, c.acme, '/v1/submit/remove-member', asMember(c.server, account, account.owner, 'remove-member', { accountId: account.accountId, userId: viewer.userId })),
        await post(c.server, c.acme, '/v1/submit/remove-member', asMember(c.server, account, account.owner, 'remove-member', { accountId: account.accountId, userId: account.owner.userId })),
      ];
    },
    getApprovalPolicy: async (c) => {
      const { account } = await teamOf(c);
      return [await c.acme.client.get(`/v1/query/get-approval-policy?accountId=${account.accountId}`), await c.acme.client.get(`/v1/query/get-approval-policy?accountId=${account.owner.accountId}`)];
    },
    updateApprovalPolicy: async (c) => {
      const { account } = await teamOf(c);
      return [
        await post(c.server, c.acme, '/v1/submit/update-approval-policy', asMember(c.server, account, account.owner, 'update-approval-policy', { accountId: account.accountId, requiredApprovals: 2 })),
        await post(c.server, c.acme, '/v1/submit/update-approval-policy', asMember(c.server, account, account.owner, 'update-approval-policy', { accountId: account.accountId, requiredApprovals: 9 })),
      ];
    },
    approveTransaction: async (c) => {
      const { account } = await teamOf(c);
      const transactionId = await proposal(c);
      return [
        await post(c.server, c.acme, '/v1/submit/approve-transaction', asMember(c.server, account, account.owner, 'approve-transaction', { transactionId })),
        await post(c.server, c.acme, '/v1/submit/approve-transaction', asMember(c.server, account, account.owner, 'approve-transaction', { transactionId })),
      ];
    },
    rejectTransaction: async (c) => {
      const { account, approver } = await teamOf(c);
      const transactionId = await proposal(c);
      return [
        await post(c.server, c.acme, '/v1/submit/reject-transaction', asMember(c.server, account, approver, 'reject-transaction', { transactionId })),
        await post(c.server, c.acme, '/v1/submit/reject-transaction', asMember(c.server, account, approver, 'reject-transaction', { transactionId })),
      ];
    },
  };
}
