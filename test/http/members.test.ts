import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { backends } from '../harness/backends.js';
import { createCustomer } from '../harness/customers.js';
import { eventsFor } from '../harness/db.js';
import { asMember, post, seatMember, teamAccount, type TeamAccount } from '../harness/members.js';
import { useTenants } from '../harness/tenants.js';

for (const backend of backends()) {
  describe(`members and roles [${backend}]`, () => {
    const { server, tenants: [acme, globex] } = useTenants(backend, ['Acme', 'Globex']);
    let team: TeamAccount;

    before(async () => {
      team = await teamAccount(server, acme, { active: false });
    });

    it('the representative who is a user of the integrator becomes the first owner, with member.added', async () => {
      const res = await acme.client.get(`/v1/query/list-members?accountId=${team.accountId}`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body.data.map((m: { userId: string; role: string }) => [m.userId, m.role]),
        [[team.owner.userId, 'owner']],
      );
      assert.equal(res.body.data[0].email, team.owner.email);
      const events = await eventsFor(server.database, team.accountId);
      assert.ok(events.some((e) => e.type === 'member.added'), JSON.stringify(events.map((e) => e.type)));
    });

    it('update-member-role by an owner changes the role, writes member.role_changed and uses the stamp up', async () => {
      const member = await seatMember(server, acme, team, 'viewer');
      const body = asMember(server, team, team.owner, 'update-member-role', { accountId: team.accountId, userId: member.userId, role: 'approver' });
      const res = await post(server, acme, '/v1/submit/update-member-role', body);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.role, 'approver');
      const again = await post(server, acme, '/v1/submit/update-member-role', { ...body, role: 'initiator', signedBody: { ...body.signedBody, parameters: { ...body.signedBody.parameters, role: 'initiator' } } });
      assert.equal(again.status, 422, 'a stamp over other parameters does not verify');
      const same = await post(server, acme, '/v1/submit/update-member-role', asMember(server, team, team.owner, 'update-member-role', { accountId: team.accountId, userId: member.userId, role: 'approver' }));
      assert.equal(same.status, 200, 'the same role again is no change (nothing written)');
      const events = (await eventsFor(server.database, team.accountId)).filter((e) => e.type === 'member.role_changed');
      assert.equal(events.length, 1);
    });

    it('a stamp is single-use: the same request again is 409 stamp_reused (retries use an Idempotency-Key)', async () => {
      const member = await seatMember(server, acme, team, 'viewer');
      const body = asMember(server, team, team.owner, 'update-member-role', { accountId: team.accountId, userId: member.userId, role: 'initiator' });
      assert.equal((await post(server, acme, '/v1/submit/update-member-role', body)).status, 200);
      const replay = await post(server, acme, '/v1/submit/update-member-role', body);
      assert.deepEqual([replay.status, replay.body.code], [409, 'stamp_reused'], replay.text);
    });

    it('signedBody must be the request: parameters, organizationId, type and time are checked (422), nothing written', async () => {
      const member = await seatMember(server, acme, team, 'viewer');
      const fields = { accountId: team.accountId, userId: member.userId, role: 'admin' };
      const wrongParams = asMember(server, team, team.owner, 'update-member-role', fields, { parameters: { operation: 'update-member-role', ...fields, role: 'owner', actingUserId: team.owner.userId } });
      const r1 = await post(server, acme, '/v1/submit/update-member-role', wrongParams);
      assert.deepEqual([r1.status, r1.body.code, r1.body.errors?.[0]?.pointer], [422, 'signed_body_mismatch', '/signedBody/parameters'], r1.text);
      const wrongOperation = asMember(server, team, team.owner, 'remove-member', fields);
      assert.equal((await post(server, acme, '/v1/submit/update-member-role', wrongOperation)).body.code, 'signed_body_mismatch');
      const wrongOrg = asMember(server, { organizationId: randomUUID() }, team.owner, 'update-member-role', fields);
      assert.equal((await post(server, acme, '/v1/submit/update-member-role', wrongOrg)).body.errors?.[0]?.pointer, '/signedBody/organizationId');
      const stale = asMember(server, team, team.owner, 'update-member-role', fields, { timestampMs: String(server.clock.now().getTime() - 6 * 60_000) });
      assert.equal((await post(server, acme, '/v1/submit/update-member-role', stale)).body.code, 'stale_signed_body');
      const missing = await post(server, acme, '/v1/submit/update-member-role', fields);
      assert.equal(missing.status, 400, missing.text);
      assert.deepEqual(missing.body.errors.map((e: { pointer: string }) => e.pointer).sort(), ['/actingUserId', '/signedBody', '/webAuthnStamp']);
      const unchanged = await acme.client.get(`/v1/query/list-members?accountId=${team.accountId}`);
      assert.equal(unchanged.body.data.find((m: { userId: string }) => m.userId === member.userId).role, 'viewer');
    });

    it('an OTP approval token of the acting member approves a change (and only theirs)', async () => {
      const token = async (userId: string) => {
        assert.equal((await post(server, acme, '/v1/otp/init', { userId, channel: 'email' })).status, 201);
        const outbox = await acme.client.get(`/v1/sandbox/otp-outbox?userId=${userId}`);
        const verified = await post(server, acme, '/v1/otp/verify', { userId, code: outbox.body.data[0].code });
        assert.equal(verified.status, 200, verified.text);
        return verified.body.approvalToken as string;
      };
      const member = await seatMember(server, acme, team, 'viewer');
      const fields = { accountId: team.accountId, userId: member.userId, role: 'admin' };
      const { webAuthnStamp: _, ...unstamped } = asMember(server, team, team.owner, 'update-member-role', fields);
      const others = await post(server, acme, '/v1/submit/update-member-role', { ...unstamped, approvalToken: await token(member.userId) });
      assert.deepEqual([others.status, others.body.code, others.body.reason], [422, 'invalid_approval_token', 'user_mismatch'], others.text);
      const res = await post(server, acme, '/v1/submit/update-member-role', { ...unstamped, approvalToken: await token(team.owner.userId) });
      assert.deepEqual([res.status, res.body.role], [200, 'admin'], res.text);
    });

    it('another member’s passkey does not approve for actingUserId (422 invalid_stamp)', async () => {
      const member = await seatMember(server, acme, team, 'viewer');
      const body = asMember(server, team, { userId: team.owner.userId, passkey: member.passkey }, 'update-member-role', { accountId: team.accountId, userId: member.userId, role: 'admin' });
      const res = await post(server, acme, '/v1/submit/update-member-role', body);
      assert.deepEqual([res.status, res.body.code], [422, 'invalid_stamp'], res.text);
    });

    it('the last owner can neither leave (409 last_owner) nor change their own role (403); with two owners one may go', async () => {
      const own = await teamAccount(server, acme, { active: false });
      // Demoting the last owner would take another owner, and there is none: their own role is theirs to keep.
      const demote = await post(server, acme, '/v1/submit/update-member-role', asMember(server, own, own.owner, 'update-member-role', { accountId: own.accountId, userId: own.owner.userId, role: 'admin' }));
      assert.deepEqual([demote.status, demote.body.code], [403, 'cannot_change_own_role'], demote.text);
      const remove = await post(server, acme, '/v1/submit/remove-member', asMember(server, own, own.owner, 'remove-member', { accountId: own.accountId, userId: own.owner.userId }));
      assert.deepEqual([remove.status, remove.body.code], [409, 'last_owner'], remove.text);
      const second = await seatMember(server, acme, own, 'owner');
      const removed = await post(server, acme, '/v1/submit/remove-member', asMember(server, own, second, 'remove-member', { accountId: own.accountId, userId: own.owner.userId }));
      assert.equal(removed.status, 200, removed.text);
      assert.equal(removed.body.role, 'owner');
      const events = (await eventsFor(server.database, own.accountId)).map((e) => e.type);
      assert.ok(events.includes('member.removed'));
    });

    it('approval policy: owners set 1..approvers; more is 409 quorum_unreachable; losing an approver below it is refused', async () => {
      const own = await teamAccount(server, acme, { active: false });
      const initial = await acme.client.get(`/v1/query/get-approval-policy?accountId=${own.accountId}`);
      assert.deepEqual(initial.body, { accountId: own.accountId, requiredApprovals: 1, approvers: 1 });
      const approver = await seatMember(server, acme, own, 'approver');
      const tooMany = await post(server, acme, '/v1/submit/update-approval-policy', asMember(server, own, own.owner, 'update-approval-policy', { accountId: own.accountId, requiredApprovals: 3 }));
      assert.deepEqual([tooMany.status, tooMany.body.code], [409, 'quorum_unreachable'], tooMany.text);
      const byApprover = await post(server, acme, '/v1/submit/update-approval-policy', asMember(server, own, approver, 'update-approval-policy', { accountId: own.accountId, requiredApprovals: 2 }));
      assert.deepEqual([byApprover.status, byApprover.body.code], [403, 'role_not_allowed']);
      const two = await post(server, acme, '/v1/submit/update-approval-policy', asMember(server, own, own.owner, 'update-approval-policy', { accountId: own.accountId, requiredApprovals: 2 }));
      assert.deepEqual(two.body, { accountId: own.accountId, requiredApprovals: 2, approvers: 2 }, two.text);
      const demote = await post(server, acme, '/v1/submit/update-member-role', asMember(server, own, own.owner, 'update-member-role', { accountId: own.accountId, userId: approver.userId, role: 'viewer' }));
      assert.deepEqual([demote.status, demote.body.code], [409, 'quorum_unreachable'], demote.text);
      const events = (await eventsFor(server.database, own.accountId)).map((e) => e.type);
      assert.ok(events.includes('account.approval_policy_updated'));
    });

    it('individual and self-custodial accounts: policy 1 and 0, changes refused; members are for entities (409)', async () => {
      const person = await createCustomer(server, acme, { approve: false });
      const policy = await acme.client.get(`/v1/query/get-approval-policy?accountId=${person.accountId}`);
      assert.deepEqual(policy.body, { accountId: person.accountId, requiredApprovals: 1, approvers: null });
      const members = await acme.client.get(`/v1/query/list-members?accountId=${person.accountId}`);
      assert.deepEqual([members.status, members.body.code], [409, 'entity_account_required']);
    });

    it('another integrator’s account is 404 on every member operation', async () => {
      const probes = [
        await globex.client.get(`/v1/query/list-members?accountId=${team.accountId}`),
        await globex.client.get(`/v1/query/get-approval-policy?accountId=${team.accountId}`),
        await post(server, globex, '/v1/submit/update-member-role', asMember(server, team, team.owner, 'update-member-role', { accountId: team.accountId, userId: team.owner.userId, role: 'admin' })),
        await post(server, globex, '/v1/submit/remove-member', asMember(server, team, team.owner, 'remove-member', { accountId: team.accountId, userId: team.owner.userId })),
        await post(server, globex, '/v1/submit/update-approval-policy', asMember(server, team, team.owner, 'update-approval-policy', { accountId: team.accountId, requiredApprovals: 1 })),
      ];
      assert.deepEqual(probes.map((r) => r.status), [404, 404, 404, 404, 404], probes.map((r) => r.text).join('\n'));
    });
  });
}
