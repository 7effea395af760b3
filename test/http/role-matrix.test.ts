import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { ApiResponse } from '../../src/client/index.js';
import type { Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { ETH, signedBody, unsignedTransfer, type Customer } from '../harness/customers.js';
import { asMember, post, seatMember, teamAccount, type TeamAccount } from '../harness/members.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenantsOnChain } from '../harness/tenants.js';

// Every member operation x every role, over HTTP: allowed (2xx) or 403 role_not_allowed, as docs/members.md#roles
// states it. The expectations are written out here, not taken from the code's own table.

const ROLES = ['owner', 'admin', 'approver', 'initiator', 'viewer'] as const;
type RoleName = (typeof ROLES)[number];

const ALLOWED: Record<string, readonly RoleName[]> = {
  'update-member-role (viewer to initiator)': ['owner', 'admin'],
  'update-member-role (viewer to owner)': ['owner'],
  'remove-member (a viewer)': ['owner', 'admin'],
  'update-approval-policy': ['owner'],
  'create-invitation (a viewer)': ['owner', 'admin'],
  'create-invitation (an owner)': ['owner'],
  'revoke-invitation (a viewer’s)': ['owner', 'admin'],
  'propose a transaction': ['owner', 'approver', 'initiator'],
  'approve-transaction': ['owner', 'approver'],
  'reject-transaction': ['owner', 'approver'],
};

interface Fixture {
  server: TestServer;
  acme: SeededIntegrator;
  chain: Anvil;
}

/** The operations, each as a request `actor` makes on `team` (fresh targets each time, so the outcome is the role's alone). */
function operations(f: Fixture, team: TeamAccount, actor: Customer, approver: Customer, nonce: { next: number }): Record<string, () => Promise<ApiResponse>> {
  const { server, acme } = f;
  const as = (operation: string, fields: Record<string, unknown>) => asMember(server, team, actor, operation, fields);
  const proposal = async (member: Customer) => {
    const body = signedBody(server, team, unsignedTransfer(8453, nonce.next++));
    return post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: randomUUID(), signedBody: body, actingUserId: member.userId, webAuthnStamp: member.passkey.stamp(JSON.stringify(body)) });
  };
  return {
    'update-member-role (viewer to initiator)': async () => {
      const target = await seatMember(server, acme, team, 'viewer');
      return post(server, acme, '/v1/submit/update-member-role', as('update-member-role', { accountId: team.accountId, userId: target.userId, role: 'initiator' }));
    },
    'update-member-role (viewer to owner)': async () => {
      const target = await seatMember(server, acme, team, 'viewer');
      return post(server, acme, '/v1/submit/update-member-role', as('update-member-role', { accountId: team.accountId, userId: target.userId, role: 'owner' }));
    },
    'remove-member (a viewer)': async () => {
      const target = await seatMember(server, acme, team, 'viewer');
      return post(server, acme, '/v1/submit/remove-member', as('remove-member', { accountId: team.accountId, userId: target.userId }));
    },
    'update-approval-policy': () => post(server, acme, '/v1/submit/update-approval-policy', as('update-approval-policy', { accountId: team.accountId, requiredApprovals: 2 })),
    'create-invitation (a viewer)': () => post(server, acme, '/v1/submit/create-invitation', as('create-invitation', { accountId: team.accountId, email: `${randomUUID()}@example.com`, role: 'viewer' })),
    'create-invitation (an owner)': () => post(server, acme, '/v1/submit/create-invitation', as('create-invitation', { accountId: team.accountId, email: `${randomUUID()}@example.com`, role: 'owner' })),
    'revoke-invitation (a viewer’s)': async () => {
      const invited = await post(server, acme, '/v1/submit/create-invitation', asMember(server, team, team.owner, 'create-invitation', { accountId: team.accountId, email: `${randomUUID()}@example.com`, role: 'viewer' }));
      assert.equal(invited.status, 201, invited.text);
      return post(server, acme, '/v1/submit/revoke-invitation', as('revoke-invitation', { invitationId: invited.body.invitationId }));
    },
    'propose a transaction': () => proposal(actor),
    'approve-transaction': async () => {
      const proposed = await proposal(approver);
      assert.equal(proposed.body.status, 'created', proposed.text);
      return post(server, acme, '/v1/submit/approve-transaction', as('approve-transaction', { transactionId: proposed.body.transactionId }));
    },
    'reject-transaction': async () => {
      const proposed = await proposal(approver);
      return post(server, acme, '/v1/submit/reject-transaction', as('reject-transaction', { transactionId: proposed.body.transactionId }));
    },
  };
}

for (const backend of backends()) {
  describe(`role matrix over HTTP [${backend}]`, () => {
    const f = {} as Fixture;
    before(async () => {
      const started = await startTenantsOnChain(backend, 8453, ['Acme']);
      Object.assign(f, { server: started.server, chain: started.chain, acme: started.tenants[0] });
    });
    after(() => f.server?.close());

    for (const role of ROLES) {
      it(`a member with the role ${role}`, async () => {
        const team = await teamAccount(f.server, f.acme);
        await f.chain.setBalance(team.walletAddress, ETH);
        // A second approver, so that the policy may be 2 and a proposal waits for an approval.
        const approver = await seatMember(f.server, f.acme, team, 'approver');
        const policy = await post(f.server, f.acme, '/v1/submit/update-approval-policy', asMember(f.server, team, team.owner, 'update-approval-policy', { accountId: team.accountId, requiredApprovals: 2 }));
        assert.equal(policy.status, 200, policy.text);
        const actor = role === 'owner' ? team.owner : await seatMember(f.server, f.acme, team, role);
        const ops = operations(f, team, actor, approver, { next: 0 });
        const outcomes: Record<string, number> = {};
        for (const [name, run] of Object.entries(ops)) {
          const res = await run();
          outcomes[name] = res.status;
          if (res.status === 403) assert.equal(res.body.code, 'role_not_allowed', `${name}: ${res.text}`);
          else assert.ok(res.status === 200 || res.status === 201, `${role} ${name}: ${res.text}`);
        }
        const expected = Object.fromEntries(Object.keys(ops).map((name) => [name, ALLOWED[name]!.includes(role) ? (name === 'propose a transaction' || name.startsWith('create-') ? 201 : 200) : 403]));
        assert.deepEqual(outcomes, expected);
      });
    }
  });
}
