import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { and, asc, eq } from 'drizzle-orm';
import { importPrivateKey } from '../../src/crypto/p256.js';
import { signRequest } from '../../src/crypto/request-signature.js';
import { spendingPolicyChanges, usedStampChallenges } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { createCustomer, recipient, type Customer } from '../harness/customers.js';
import { eventsFor } from '../harness/db.js';
import { asMember, memberAction, post, seatMember, teamAccount, type TeamAccount } from '../harness/members.js';
import { useTenants } from '../harness/tenants.js';

// Deleting a spending policy of an entity account takes one of its owners' approval, given in the DELETE's body like
// every member action (docs/policies.md#who-may-change-a-policy); other policies are deleted by the credential alone.

const DELAY_HOURS = 48;

for (const backend of backends()) {
  describe(`an entity owner approves deleting the entity's policy [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme']);
    let team: TeamAccount;
    let approver: Customer;

    before(async () => {
      team = await teamAccount(server, acme);
      approver = await seatMember(server, acme, team, 'approver');
    });

    /** A policy of `accountId` (the team's by default) that delays new destinations: visible in the address book. */
    const policy = async (accountId: string | null = team.accountId) => {
      const rules = accountId === null ? [{ type: 'allowed_destinations', addresses: [recipient()] }] : [{ type: 'new_destination_delay', hours: DELAY_HOURS }];
      const res = await post(server, acme, '/v1/policies', { ...(accountId === null ? {} : { accountId }), rules });
      assert.equal(res.status, 201, res.text);
      return res.body.policyId as string;
    };
    const del = (policyId: string, body?: unknown) => {
      server.clock.advance(1000);
      return acme.client.request('DELETE', `/v1/policies/${policyId}`, body === undefined ? {} : { body });
    };
    /** The DELETE's body approved by `member`'s passkey: the path's policyId is signed, not sent in the body. */
    const approved = (policyId: string, member: Pick<Customer, 'userId' | 'passkey'> = team.owner) => {
      const { policyId: _, ...body }: Record<string, unknown> = asMember(server, team, member, 'delete-policy', { policyId });
      return body;
    };
    const otpToken = async (userId: string) => {
      assert.equal((await post(server, acme, '/v1/otp/init', { userId, channel: 'email' })).status, 201);
      const outbox = await acme.client.get(`/v1/sandbox/otp-outbox?userId=${userId}`);
      const verified = await post(server, acme, '/v1/otp/verify', { userId, code: outbox.body.data[0].code });
      assert.equal(verified.status, 200, verified.text);
      return verified.body.approvalToken as string;
    };
    const audit = (policyId: string) =>
      server.database.db.select().from(spendingPolicyChanges).where(eq(spendingPolicyChanges.policyId, policyId)).orderBy(asc(spendingPolicyChanges.id));
    /** The policy is in force: not deleted, listed, and a new destination of the team waits its delay. */
    const assertInForce = async (policyId: string) => {
      const got = await acme.client.get(`/v1/policies/${policyId}`);
      assert.equal(got.body.deletedAt, null, got.text);
      const listed = await acme.client.get(`/v1/policies?accountId=${team.accountId}&limit=100`);
      assert.ok(listed.body.data.some((p: { policyId: string }) => p.policyId === policyId), 'still listed');
      const entry = await post(server, acme, `/v1/accounts/${team.accountId}/address-book`, { address: recipient(), label: 'Supplier' });
      assert.equal(entry.status, 201, entry.text);
      assert.ok(Date.parse(entry.body.usableAt) - Date.parse(entry.body.createdAt) >= DELAY_HOURS * 3_600_000, 'the delay still applies');
    };

    it('without an owner’s approval: 400 naming the missing fields (no body, or an empty one), and the policy still applies', async () => {
      const policyId = await policy();
      for (const body of [undefined, {}]) {
        const res = await del(policyId, body);
        assert.equal(res.status, 400, res.text);
        assert.equal(res.body.code, 'validation_failed');
        assert.deepEqual(res.body.errors.map((e: { pointer: string }) => e.pointer).sort(), ['/actingUserId', '/signedBody', '/webAuthnStamp']);
      }
      const { webAuthnStamp: _, ...unstamped } = approved(policyId);
      assert.deepEqual((await del(policyId, unstamped)).body.errors.map((e: { pointer: string }) => e.pointer), ['/webAuthnStamp']);
      const extra = await del(policyId, { ...approved(policyId), policyId });
      assert.deepEqual([extra.status, extra.body.errors?.[0]?.pointer, extra.body.errors?.[0]?.code], [400, '/policyId', 'unknown_field'], extra.text);
      await assertInForce(policyId);
      assert.deepEqual((await audit(policyId)).map((r) => r.action), ['created']);
    });

    it('an owner’s passkey approval deletes it (204): audit row with acting_user_id, policy.deleted, out of force, the stamp used up', async () => {
      const policyId = await policy();
      const body = approved(policyId);
      const res = await del(policyId, body);
      assert.equal(res.status, 204, res.text);
      const got = await acme.client.get(`/v1/policies/${policyId}`);
      assert.ok(got.body.deletedAt, got.text);
      const rows = await audit(policyId);
      assert.deepEqual(rows.map((r) => [r.action, r.actorType, r.actingUserId]), [['created', 'integrator', null], ['deleted', 'integrator', team.owner.userId]]);
      assert.ok(rows[1]!.actorId, 'the credential that signed is recorded too');
      const events = await eventsFor(server.database, policyId);
      assert.deepEqual(events.map((e) => e.type), ['policy.created', 'policy.deleted']);
      assert.deepEqual((events[1]!.data as { object: unknown }).object, got.body);
      const used = await server.database.db.select().from(usedStampChallenges).where(and(eq(usedStampChallenges.activity, 'delete-policy'), eq(usedStampChallenges.subjectId, policyId)));
      assert.equal(used.length, 1, 'the stamp is used up with the deletion');

      // The same approval again: the policy is gone (a stamp names its policy, so it deletes no other).
      const again = await del(policyId, body);
      assert.deepEqual([again.status, again.body.code], [409, 'policy_deleted'], again.text);
      const listed = await acme.client.get(`/v1/policies?accountId=${team.accountId}&limit=100`);
      assert.ok(!listed.body.data.some((p: { policyId: string }) => p.policyId === policyId), 'no longer in force');
    });

    it('an approver (not an owner) is refused with 403 role_not_allowed; a stamp for another policy is 422 signed_body_mismatch', async () => {
      const policyId = await policy();
      const byApprover = await del(policyId, approved(policyId, approver));
      assert.deepEqual([byApprover.status, byApprover.body.code], [403, 'role_not_allowed'], byApprover.text);
      assert.match(byApprover.body.detail, /delete a spending policy/);

      const other = await policy();
      const mismatch = await del(policyId, approved(other));
      assert.deepEqual([mismatch.status, mismatch.body.code, mismatch.body.errors?.[0]?.pointer], [422, 'signed_body_mismatch', '/signedBody/parameters'], mismatch.text);
      const { policyId: _, ...wrong }: Record<string, unknown> = asMember(server, team, team.owner, 'update-approval-policy', { policyId });
      assert.equal((await del(policyId, wrong)).body.code, 'signed_body_mismatch');
      await assertInForce(policyId);
      await assertInForce(other);
      // Refused, nothing was used up: the owner's approval of `other` still deletes it.
      assert.equal((await del(other, approved(other))).status, 204);
    });

    it('an owner’s OTP approval token deletes it; the same token cannot approve a second deletion (409 approval_token_reused)', async () => {
      const [first, second] = [await policy(), await policy()];
      const approvalToken = await otpToken(team.owner.userId);
      const unstamped = (policyId: string) => {
        const { policyId: _, ...body }: Record<string, unknown> = memberAction(server, team, team.owner.userId, 'delete-policy', { policyId });
        return { ...body, approvalToken };
      };
      const res = await del(first, unstamped(first));
      assert.equal(res.status, 204, res.text);
      assert.equal((await audit(first))[1]!.actingUserId, team.owner.userId);
      const replay = await del(second, unstamped(second));
      assert.deepEqual([replay.status, replay.body.code], [409, 'approval_token_reused'], replay.text);
      await assertInForce(second);
    });

    it('the signature covers the DELETE’s body: a body other than the one signed is 401 invalid_signature', async () => {
      const policyId = await policy();
      server.clock.advance(1000);
      const path = `/v1/policies/${policyId}`;
      const headers = signRequest(importPrivateKey(acme.privateKey), String(server.clock.seconds()), 'DELETE', path, JSON.stringify(approved(policyId, approver)));
      const sent = await fetch(`${server.url}${path}`, { method: 'DELETE', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(approved(policyId)) });
      const body = (await sent.json()) as { code: string };
      assert.deepEqual([sent.status, body.code], [401, 'invalid_signature']);
      await assertInForce(policyId);
    });

    it('a policy of an individual account, and an integrator-wide one, are deleted without a body; an approval given for them is refused (400 not_allowed)', async () => {
      const individual = (await createCustomer(server, acme)).accountId;
      for (const policyId of [await policy(individual), await policy(null)]) {
        const withApproval = await del(policyId, approved(policyId));
        assert.equal(withApproval.status, 400, withApproval.text);
        assert.deepEqual(Object.fromEntries(withApproval.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code])), { '/actingUserId': 'not_allowed', '/signedBody': 'not_allowed', '/webAuthnStamp': 'not_allowed' });
        const res = await del(policyId);
        assert.equal(res.status, 204, res.text);
        assert.deepEqual((await audit(policyId)).map((r) => [r.action, r.actingUserId]), [['created', null], ['deleted', null]]);
      }
    });
  });
}
