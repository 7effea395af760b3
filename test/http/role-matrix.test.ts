import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import type { ApiResponse } from '../harness/client.js';
import { ROLES, type MemberAction, type Role } from '../../src/domain/members/roles.js';
import { accountMembers } from '../../src/db/schema/index.js';
import type { Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, signedBody, unsignedTransfer, type Customer } from '../harness/customers.js';
import { asMember, post, seatMember, teamAccount, type TeamAccount } from '../harness/members.js';
import { documented } from '../harness/role-matrix.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenantsOnChain } from '../harness/tenants.js';

// Every cell of docs/members.md's role matrix, made as a real request over HTTP: for each acting role, every
// invitation (created, then revoked), every role change from one role to another, the actor's own role, every
// removal, leaving, the policy, proposing, approving and rejecting, deleting a spending policy. Allowed is 2xx;
// refused is 403 role_not_allowed (cannot_change_own_role for the actor's own role). The expectations come from the
// page (harness/role-matrix.ts).

interface Fixture {
  server: TestServer;
  acme: SeededIntegrator;
  chain: Anvil;
}

interface Cell {
  name: string;
  action: MemberAction;
  run: () => Promise<ApiResponse>;
}

/** The member row of `userId` set to `role` (or absent) straight in the database: each cell starts from a known team. */
async function setRole(server: TestServer, who: SeededIntegrator, team: TeamAccount, userId: string, role: Role | null): Promise<void> {
  const db = server.database.db;
  await db.delete(accountMembers).where(and(eq(accountMembers.accountId, team.accountId), eq(accountMembers.userId, userId)));
  if (role === null) return;
  const now = server.clock.now();
  await db.insert(accountMembers).values({ integratorId: who.integratorId, accountId: team.accountId, userId, role, createdAt: now, updatedAt: now });
}

function cells(f: Fixture, team: TeamAccount, actor: Customer, actorRole: Role, target: Customer, proposer: Customer, nonce: { next: number }): Cell[] {
  const { server, acme } = f;
  const as = (operation: string, fields: Record<string, unknown>) => asMember(server, team, actor, operation, fields);
  const seat = (role: Role | null, who: Customer = target) => setRole(server, acme, team, who.userId, role);
  const propose = (member: Customer) => {
    const body = signedBody(server, team, unsignedTransfer(8453, nonce.next++));
    return post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: randomUUID(), signedBody: body, actingUserId: member.userId, webAuthnStamp: member.passkey.stamp(JSON.stringify(body)) });
  };
  const waiting = async () => {
    const proposed = await propose(proposer);
    assert.equal(proposed.body.status, 'created', proposed.text);
    return proposed.body.transactionId as string;
  };
  const list: Cell[] = [];
  for (const role of ROLES) {
    list.push({
      name: `invite ${role}`,
      action: { kind: 'invite', role },
      run: () => post(server, acme, '/v1/submit/create-invitation', as('create-invitation', { accountId: team.accountId, email: `${randomUUID()}@example.com`, role })),
    });
    list.push({
      name: `revoke an invitation of ${role}`,
      action: { kind: 'invite', role },
      run: async () => {
        const invited = await post(server, acme, '/v1/submit/create-invitation', asMember(server, team, team.owner, 'create-invitation', { accountId: team.accountId, email: `${randomUUID()}@example.com`, role }));
        assert.equal(invited.status, 201, invited.text);
        return post(server, acme, '/v1/submit/revoke-invitation', as('revoke-invitation', { invitationId: invited.body.invitationId }));
      },
    });
  }
  for (const from of ROLES) {
    for (const to of ROLES.filter((r) => r !== from)) {
      list.push({
        name: `change ${from} to ${to}`,
        action: { kind: 'change_role', from, to, self: false },
        run: async () => {
          await seat(from);
          return post(server, acme, '/v1/submit/update-member-role', as('update-member-role', { accountId: team.accountId, userId: target.userId, role: to }));
        },
      });
    }
  }
  for (const to of ROLES.filter((r) => r !== actorRole)) {
    list.push({
      name: `change their own role to ${to}`,
      action: { kind: 'change_role', from: actorRole, to, self: true },
      run: () => post(server, acme, '/v1/submit/update-member-role', as('update-member-role', { accountId: team.accountId, userId: actor.userId, role: to })),
    });
  }
  for (const role of ROLES) {
    list.push({
      name: `remove ${role}`,
      action: { kind: 'remove', role, self: false },
      run: async () => {
        await seat(role);
        return post(server, acme, '/v1/submit/remove-member', as('remove-member', { accountId: team.accountId, userId: target.userId }));
      },
    });
  }
  list.push({
    name: 'change the approval policy',
    action: { kind: 'update_policy' },
    run: () => post(server, acme, '/v1/submit/update-approval-policy', as('update-approval-policy', { accountId: team.accountId, requiredApprovals: 2 })),
  });
  // From here the policy is 2 (the owner sets it whatever the actor could), so proposals wait for a second approval.
  list.push({
    name: 'approve a transaction',
    action: { kind: 'approve_transaction' },
    run: async () => {
      const policy = await post(server, acme, '/v1/submit/update-approval-policy', asMember(server, team, team.owner, 'update-approval-policy', { accountId: team.accountId, requiredApprovals: 2 }));
      assert.equal(policy.status, 200, policy.text);
      return post(server, acme, '/v1/submit/approve-transaction', as('approve-transaction', { transactionId: await waiting() }));
    },
  });
  list.push({
    name: 'reject a transaction',
    action: { kind: 'approve_transaction' },
    run: async () => post(server, acme, '/v1/submit/reject-transaction', as('reject-transaction', { transactionId: await waiting() })),
  });
  list.push({ name: 'propose a transaction', action: { kind: 'propose_transaction' }, run: () => propose(actor) });
  // After the proposals: a policy the actor may not lift stays, and would delay their new destinations.
  list.push({
    name: 'delete a spending policy of the account',
    action: { kind: 'delete_spending_policy' },
    run: async () => {
      const created = await post(server, acme, '/v1/policies', { accountId: team.accountId, rules: [{ type: 'new_destination_delay', hours: 24 }] });
      assert.equal(created.status, 201, created.text);
      const { policyId, ...body }: Record<string, unknown> = as('delete-policy', { policyId: created.body.policyId });
      server.clock.advance(1000);
      return acme.client.request('DELETE', `/v1/policies/${String(policyId)}`, { body });
    },
  });
  list.push({
    name: 'leave (remove themselves)',
    action: { kind: 'remove', role: actorRole, self: true },
    run: () => post(server, acme, '/v1/submit/remove-member', as('remove-member', { accountId: team.accountId, userId: actor.userId })),
  });
  return list;
}

for (const backend of backends()) {
  describe(`role matrix over HTTP, every cell of docs/members.md [${backend}]`, () => {
    const f = {} as Fixture;
    before(async () => {
      const started = await startTenantsOnChain(backend, 8453, ['Acme']);
      Object.assign(f, { server: started.server, chain: started.chain, acme: started.tenants[0] });
    });
    after(() => f.server?.close());

    for (const actorRole of ROLES) {
      it(`a member with the role ${actorRole}`, async () => {
        const team = await teamAccount(f.server, f.acme);
        await f.chain.setBalance(team.walletAddress, ETH);
        // The team's owner stays one (so an owner target or actor is never the last), a verified approver proposes,
        // and the actor is a member of their own (a second owner when the role is owner).
        const proposer = await seatMember(f.server, f.acme, team, 'approver');
        const actor = await seatMember(f.server, f.acme, team, actorRole);
        const target = await createCustomer(f.server, f.acme);
        const outcomes: Record<string, string> = {};
        const expected: Record<string, string> = {};
        for (const cell of cells(f, team, actor, actorRole, target, proposer, { next: 0 })) {
          const res = await cell.run();
          const refusal = cell.action.kind === 'change_role' && cell.action.self ? '403 cannot_change_own_role' : '403 role_not_allowed';
          outcomes[cell.name] = res.status < 300 ? 'allowed' : `${res.status} ${res.body.code}`;
          expected[cell.name] = documented(actorRole, cell.action) ? 'allowed' : refusal;
        }
        assert.deepEqual(outcomes, expected);
      });
    }
  });
}
