import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { count, eq } from 'drizzle-orm';
import { accountMembers, invitations, mailOutbox, users } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { createCustomer } from '../harness/customers.js';
import { eventsFor } from '../harness/db.js';
import { inviteeInfo, outboxMessage, ownerlessEntity, tokenIn } from '../harness/invitations.js';
import { asMember, post, teamAccount, type TeamAccount } from '../harness/members.js';
import { signedAt } from '../harness/fixtures.js';
import { type SeededIntegrator, type TestServer } from '../harness/server.js';
import { useTenants } from '../harness/tenants.js';

const ROLES = ['owner', 'admin', 'approver', 'initiator', 'viewer'] as const;
const DAY = 86_400_000;
const email = (tag = 'invitee') => `${tag}.${randomUUID()}@example.org`;

const accept = (server: TestServer, who: SeededIntegrator, token: string, to: string, extra: Record<string, unknown> = {}) =>
  post(server, who, '/v1/submit/accept-invitation', { token, userInfo: inviteeInfo(to), serviceTermsSignedAt: signedAt(), ...extra });

for (const backend of backends()) {
  describe(`invitations, sandbox outbox [${backend}]`, () => {
    const { server, tenants: [acme, globex] } = useTenants(backend, ['Acme Wallet', 'Globex']);
    let team: TeamAccount;

    before(async () => {
      team = await teamAccount(server, acme, { active: false });
    });

    /** An invitation created by the team's owner, and its token read from the sandbox outbox. */
    async function invite(role: string, to = email()) {
      const res = await post(server, acme, '/v1/submit/create-invitation', asMember(server, team, team.owner, 'create-invitation', { accountId: team.accountId, email: to, role }));
      assert.equal(res.status, 201, res.text);
      return { invitation: res.body, token: tokenIn((await outboxMessage(acme, res.body.invitationId)).text), email: to };
    }

    it('an owner-less entity: the integrator alone invites its owner; the held message has the link; accepting makes the first owner', async () => {
      const entity = await ownerlessEntity(server, acme, 'Initech GmbH');
      const to = email('founder');
      const created = await post(server, acme, '/v1/submit/create-invitation', { accountId: entity.accountId, email: to, role: 'owner' });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(Object.keys(created.body).sort(), ['acceptedUserId', 'accountId', 'createdAt', 'email', 'expiresAt', 'invitationId', 'invitedByUserId', 'lastSentAt', 'role', 'sentCount', 'status', 'updatedAt']);
      assert.deepEqual([created.body.status, created.body.role, created.body.invitedByUserId, created.body.sentCount], ['pending', 'owner', null, 1]);
      assert.equal(Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt), 7 * DAY);
      assert.doesNotMatch(created.text, /inv_/, 'the answer never carries the token');

      const message = await outboxMessage(acme, created.body.invitationId);
      assert.deepEqual([message.status, message.kind, message.recipient], ['held', 'invitation', to]);
      assert.match(message.subject, /Acme Wallet/);
      assert.match(message.text, /Initech GmbH/);
      assert.match(message.text, /as an owner/);
      const token = tokenIn(message.text);
      assert.ok(message.text.includes(`http://localhost:${server.config.port}/invitations/${token}`), message.text);
      const [row] = await server.database.db.select().from(invitations).where(eq(invitations.id, created.body.invitationId));
      assert.ok(row && !row.tokenHash.includes(token) && row.tokenHash !== token, 'only a hash is stored');
      const [mail] = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.subjectId, created.body.invitationId));
      assert.ok(mail && !mail.bodySealed.includes(token), 'the outbox body is sealed');

      const listed = await acme.client.get(`/v1/query/list-invitations?accountId=${entity.accountId}`);
      assert.equal(listed.status, 200, listed.text);
      assert.deepEqual(listed.body.data, [created.body]);

      const accepted = await accept(server, acme, token, to.toUpperCase().replace('EXAMPLE.ORG', 'example.org'));
      assert.equal(accepted.status, 201, accepted.text);
      assert.deepEqual([accepted.body.invitation.status, accepted.body.member.role], ['accepted', 'owner']);
      assert.equal(accepted.body.invitation.acceptedUserId, accepted.body.member.userId);
      const members = await acme.client.get(`/v1/query/list-members?accountId=${entity.accountId}`);
      assert.deepEqual(members.body.data.map((m: { userId: string; role: string }) => [m.userId, m.role]), [[accepted.body.member.userId, 'owner']]);
      const user = await acme.client.get(`/v1/query/get-user-details?userId=${accepted.body.member.userId}`);
      assert.equal(user.status, 200, user.text);

      const invitationEvents = (await eventsFor(server.database, created.body.invitationId)).map((e) => e.type);
      assert.deepEqual(invitationEvents, ['invitation.created', 'invitation.accepted']);
      const all = await eventsFor(server.database, created.body.invitationId);
      assert.ok(all.every((e) => !JSON.stringify(e.data).includes(token)), 'no event carries the token');
      assert.equal((all[1]!.data as { object: { acceptedUserId: string } }).object.acceptedUserId, accepted.body.member.userId);
      assert.ok((await eventsFor(server.database, entity.accountId)).some((e) => e.type === 'member.added'));
      assert.ok((await eventsFor(server.database, accepted.body.member.userId)).some((e) => e.type === 'user.created'));

      const again = await accept(server, acme, token, to);
      assert.deepEqual([again.status, again.body.code], [409, 'invitation_not_pending'], again.text);
      const second = await post(server, acme, '/v1/submit/create-invitation', { accountId: entity.accountId, email: email(), role: 'owner' });
      assert.equal(second.status, 400, 'once it has an owner, invitations need an acting member');
      assert.deepEqual(second.body.errors.map((e: { pointer: string }) => e.pointer).sort(), ['/actingUserId', '/signedBody', '/webAuthnStamp']);
    });

    it('an owner invitation the integrator made alone is void once an owner is seated: 409 invitation_superseded, on the page too', async () => {
      const entity = await ownerlessEntity(server, acme, 'Two Founders Ltd');
      const made = [];
      for (const tag of ['first', 'second']) {
        const to = email(tag);
        const created = await post(server, acme, '/v1/submit/create-invitation', { accountId: entity.accountId, email: to, role: 'owner' });
        assert.equal(created.status, 201, created.text);
        made.push({ to, token: tokenIn((await outboxMessage(acme, created.body.invitationId)).text), invitationId: created.body.invitationId });
      }
      const [first, second] = made as [(typeof made)[0], (typeof made)[0]];
      assert.equal((await accept(server, acme, first.token, first.to)).status, 201);
      const late = await accept(server, acme, second.token, second.to);
      assert.deepEqual([late.status, late.body.code], [409, 'invitation_superseded'], late.text);
      const page = await fetch(new URL(`/invitations/${second.token}`, server.url));
      assert.equal(page.status, 409);
      const members = await acme.client.get(`/v1/query/list-members?accountId=${entity.accountId}`);
      assert.equal(members.body.data.length, 1, 'one owner, seated by the first invitation only');
    });

    it('an invitation dies with its maker’s power: the inviting owner demoted, accepting is 409 invitation_superseded', async () => {
      const second = await createCustomer(server, acme);
      const seat = await server.database.db.insert(accountMembers).values({ integratorId: acme.integratorId, accountId: team.accountId, userId: second.userId, role: 'owner', createdAt: server.clock.now(), updatedAt: server.clock.now() }).returning();
      assert.equal(seat.length, 1);
      const to = email('approver');
      const created = await post(server, acme, '/v1/submit/create-invitation', asMember(server, team, second, 'create-invitation', { accountId: team.accountId, email: to, role: 'approver' }));
      assert.equal(created.status, 201, created.text);
      const token = tokenIn((await outboxMessage(acme, created.body.invitationId)).text);
      const demoted = await post(server, acme, '/v1/submit/update-member-role', asMember(server, team, team.owner, 'update-member-role', { accountId: team.accountId, userId: second.userId, role: 'viewer' }));
      assert.equal(demoted.status, 200, demoted.text);
      const seated = async () => (await server.database.db.select({ n: count() }).from(accountMembers).where(eq(accountMembers.accountId, team.accountId)))[0]!.n;
      const before = await seated();
      const late = await accept(server, acme, token, to);
      assert.deepEqual([late.status, late.body.code], [409, 'invitation_superseded'], late.text);
      assert.equal(await seated(), before, 'nobody was seated');
    });

    it('while there is no owner the integrator alone may invite only an owner (403 otherwise)', async () => {
      const entity = await ownerlessEntity(server, acme);
      for (const role of ROLES.filter((r) => r !== 'owner')) {
        const res = await post(server, acme, '/v1/submit/create-invitation', { accountId: entity.accountId, email: email(), role });
        assert.deepEqual([res.status, res.body.code], [403, 'role_not_allowed'], `${role}: ${res.text}`);
      }
      assert.deepEqual((await acme.client.get(`/v1/query/list-invitations?accountId=${entity.accountId}`)).body.data, []);
    });

    it('an owner invites an approver; the member approval is used up; accepting adds the member', async () => {
      const { invitation, token, email: to } = await invite('approver');
      assert.equal(invitation.invitedByUserId, team.owner.userId);
      const message = await outboxMessage(acme, invitation.invitationId);
      assert.match(message.text, /Maria Garcia invited you to join Acme Robotics Inc\. on Acme Wallet as an approver/);
      const accepted = await accept(server, acme, token, to);
      assert.equal(accepted.status, 201, accepted.text);
      const members = await acme.client.get(`/v1/query/list-members?accountId=${team.accountId}`);
      const member = members.body.data.find((m: { userId: string }) => m.userId === accepted.body.member.userId);
      assert.deepEqual([member.role, member.email], ['approver', to]);
    });

    it('revoke: the link stops working (409), revoking again is 409, invitation.revoked', async () => {
      const { invitation, token, email: to } = await invite('viewer');
      const res = await post(server, acme, '/v1/submit/revoke-invitation', asMember(server, team, team.owner, 'revoke-invitation', { invitationId: invitation.invitationId }));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.status, 'revoked');
      const again = await post(server, acme, '/v1/submit/revoke-invitation', asMember(server, team, team.owner, 'revoke-invitation', { invitationId: invitation.invitationId }));
      assert.deepEqual([again.status, again.body.code], [409, 'invitation_not_pending'], again.text);
      const used = await accept(server, acme, token, to);
      assert.deepEqual([used.status, used.body.code], [409, 'invitation_not_pending'], used.text);
      assert.deepEqual((await eventsFor(server.database, invitation.invitationId)).map((e) => e.type), ['invitation.created', 'invitation.revoked']);
    });

    it('a second invitation to the same address replaces the pending one (revoked, its link dead)', async () => {
      const first = await invite('viewer');
      const second = await invite('initiator', first.email.toUpperCase());
      const listed = await acme.client.get(`/v1/query/list-invitations?accountId=${team.accountId}`);
      const statuses = Object.fromEntries(listed.body.data.map((i: { invitationId: string; status: string }) => [i.invitationId, i.status]));
      assert.deepEqual([statuses[first.invitation.invitationId], statuses[second.invitation.invitationId]], ['revoked', 'pending']);
      assert.equal((await accept(server, acme, first.token, first.email)).status, 409);
      const ok = await accept(server, acme, second.token, first.email);
      assert.equal(ok.status, 201, ok.text);
      assert.equal(ok.body.member.role, 'initiator');
      const dup = await post(server, acme, '/v1/submit/create-invitation', asMember(server, team, team.owner, 'create-invitation', { accountId: team.accountId, email: first.email, role: 'viewer' }));
      assert.deepEqual([dup.status, dup.body.code], [409, 'already_member'], dup.text);
    });

    it('resend: a new link (the old one is dead), not within 60 s (429 with Retry-After), 5 sends in all', async () => {
      const { invitation, token, email: to } = await invite('viewer');
      const resend = () => post(server, acme, '/v1/submit/resend-invitation', asMember(server, team, team.owner, 'resend-invitation', { invitationId: invitation.invitationId }));
      const early = await resend();
      assert.deepEqual([early.status, early.body.code], [429, 'invitation_resend_limited'], early.text);
      const retryAfter = Number(early.headers.get('retry-after'));
      assert.ok(retryAfter > 0 && retryAfter <= 60, String(retryAfter));
      server.clock.advance(60_000);
      const resent = await resend();
      assert.equal(resent.status, 200, resent.text);
      assert.equal(resent.body.sentCount, 2);
      assert.doesNotMatch(resent.text, /inv_/);
      const newToken = tokenIn((await outboxMessage(acme, invitation.invitationId)).text);
      assert.notEqual(newToken, token);
      const old = await accept(server, acme, token, to);
      assert.deepEqual([old.status, old.body.code], [404, 'not_found'], 'the old link is dead');
      for (let sent = 3; sent <= 5; sent++) {
        server.clock.advance(61_000);
        assert.equal((await resend()).body.sentCount, sent);
      }
      server.clock.advance(61_000);
      const sixth = await resend();
      assert.deepEqual([sixth.status, sixth.body.code], [429, 'invitation_resend_limited'], sixth.text);
      const latest = tokenIn((await outboxMessage(acme, invitation.invitationId)).text);
      assert.equal((await accept(server, acme, latest, to)).status, 201);
    });

    it('expiry: after 7 days the worker expires it (invitation.expired); accepting is 410; a pending one past its date is expired on accept', async () => {
      const a = await invite('viewer');
      const b = await invite('viewer');
      server.clock.advance(7 * DAY);
      await server.mail.runOnce();
      const listed = await acme.client.get(`/v1/query/list-invitations?accountId=${team.accountId}`);
      assert.equal(listed.body.data.find((i: { invitationId: string }) => i.invitationId === a.invitation.invitationId).status, 'expired');
      const res = await accept(server, acme, a.token, a.email);
      assert.deepEqual([res.status, res.body.code], [410, 'invitation_expired'], res.text);
      assert.deepEqual((await eventsFor(server.database, b.invitation.invitationId)).map((e) => e.type), ['invitation.created', 'invitation.expired']);

      const c = await invite('viewer');
      server.clock.advance(7 * DAY + 1000);
      const late = await accept(server, acme, c.token, c.email);
      assert.deepEqual([late.status, late.body.code], [410, 'invitation_expired'], late.text);
      assert.deepEqual((await eventsFor(server.database, c.invitation.invitationId)).map((e) => e.type), ['invitation.created', 'invitation.expired']);
      const revoke = await post(server, acme, '/v1/submit/revoke-invitation', asMember(server, team, team.owner, 'revoke-invitation', { invitationId: c.invitation.invitationId }));
      assert.deepEqual([revoke.status, revoke.body.code], [410, 'invitation_expired'], revoke.text);
    });

    it('accept: exactly one of userInfo and userId; the invited address; an existing user; already a member', async () => {
      const { token, email: to } = await invite('viewer');
      const neither = await post(server, acme, '/v1/submit/accept-invitation', { token });
      assert.deepEqual([neither.status, neither.body.errors?.[0]?.pointer], [400, '/userInfo'], neither.text);
      const both = await post(server, acme, '/v1/submit/accept-invitation', { token, userInfo: inviteeInfo(to), serviceTermsSignedAt: signedAt(), userId: randomUUID() });
      assert.equal(both.status, 400, both.text);
      assert.ok(both.body.errors.some((e: { pointer: string }) => e.pointer === '/userInfo'), both.text);
      const other = await accept(server, acme, token, email('someone-else'));
      assert.deepEqual([other.status, other.body.errors?.[0]?.pointer, other.body.errors?.[0]?.code], [400, '/userInfo/email', 'email_mismatch'], other.text);
      const unknownUser = await post(server, acme, '/v1/submit/accept-invitation', { token, userId: randomUUID() });
      assert.equal(unknownUser.status, 404, unknownUser.text);
      const customer = await createCustomer(server, acme, { approve: false });
      const linked = await post(server, acme, '/v1/submit/accept-invitation', { token, userId: customer.userId });
      assert.equal(linked.status, 201, linked.text);
      assert.deepEqual([linked.body.member.userId, linked.body.member.role], [customer.userId, 'viewer']);
      const next = await invite('approver');
      const member = await post(server, acme, '/v1/submit/accept-invitation', { token: next.token, userId: customer.userId });
      assert.deepEqual([member.status, member.body.code], [409, 'already_member'], member.text);
    });

    it('tokens: unknown 404; another integrator’s token, invitation and account are 404', async () => {
      const { invitation, token, email: to } = await invite('viewer');
      const wrong = await accept(server, acme, `inv_${'A'.repeat(43)}`, to);
      assert.deepEqual([wrong.status, wrong.body.code], [404, 'not_found'], wrong.text);
      const garbage = await accept(server, acme, 'not-a-token', to);
      assert.equal(garbage.status, 404, garbage.text);
      const theirs = await accept(server, globex, token, to);
      assert.equal(theirs.status, 404, theirs.text);
      const revoke = await post(server, globex, '/v1/submit/revoke-invitation', { invitationId: invitation.invitationId });
      assert.equal(revoke.status, 404, revoke.text);
      const resend = await post(server, globex, '/v1/submit/resend-invitation', { invitationId: invitation.invitationId });
      assert.equal(resend.status, 404, resend.text);
      assert.equal((await globex.client.get(`/v1/query/list-invitations?accountId=${team.accountId}`)).status, 404);
      const create = await post(server, globex, '/v1/submit/create-invitation', { accountId: team.accountId, email: email(), role: 'owner' });
      assert.equal(create.status, 404, create.text);
      assert.ok(!(await globex.client.get('/v1/sandbox/mail-outbox')).body.data.some((m: { subjectId: string }) => m.subjectId === invitation.invitationId));
      const individual = await createCustomer(server, acme, { approve: false });
      const onIndividual = await post(server, acme, '/v1/submit/create-invitation', { accountId: individual.accountId, email: email(), role: 'owner' });
      assert.deepEqual([onIndividual.status, onIndividual.body.code], [409, 'entity_account_required'], onIndividual.text);
      assert.equal((await accept(server, acme, token, to)).status, 201, 'still the integrator’s to accept');
    });

    it('two racing accepts make one member; the other is 409', async () => {
      const { invitation, token, email: to } = await invite('approver');
      server.clock.advance(1000);
      const [a, b] = await Promise.all([
        acme.client.post('/v1/submit/accept-invitation', { token, userInfo: inviteeInfo(to, 'Ada'), serviceTermsSignedAt: signedAt() }),
        acme.client.post('/v1/submit/accept-invitation', { token, userInfo: inviteeInfo(to, 'Bea'), serviceTermsSignedAt: signedAt() }),
      ]);
      assert.deepEqual([a.status, b.status].sort(), [201, 409], `${a.text} ${b.text}`);
      assert.equal([a, b].find((r) => r.status === 409)!.body.code, 'invitation_not_pending');
      const members = await acme.client.get(`/v1/query/list-members?accountId=${team.accountId}`);
      assert.equal(members.body.data.filter((m: { email: string }) => m.email === to).length, 1);
      const invitees = (await server.database.db.select().from(users)).filter((u) => (u.userInfo as { email?: string }).email === to);
      assert.equal(invitees.length, 1, 'the loser created no user');
      assert.deepEqual((await eventsFor(server.database, invitation.invitationId)).map((e) => e.type), ['invitation.created', 'invitation.accepted']);
    });

    it('hostile bodies answer 4xx and write nothing', async () => {
      const { invitation, token, email: to } = await invite('viewer');
      const tables = async () => Promise.all([invitations, mailOutbox, users, accountMembers].map(async (t) => Number((await server.database.db.select({ n: count() }).from(t))[0]!.n)));
      const before = await tables();
      const bodies: [string, unknown][] = [
        ['/v1/submit/create-invitation', { accountId: team.accountId, email: 'not an email', role: 'viewer' }],
        ['/v1/submit/create-invitation', { accountId: team.accountId, email: email(), role: 'emperor' }],
        ['/v1/submit/create-invitation', { accountId: team.accountId, email: email(), role: 'owner', extra: 1 }],
        ['/v1/submit/create-invitation', { accountId: 42, email: ['x'], role: null }],
        ['/v1/submit/create-invitation', { accountId: team.accountId, email: `${'a'.repeat(100_000)}@example.org`, role: 'viewer' }],
        ['/v1/submit/create-invitation', []],
        ['/v1/submit/accept-invitation', { token: 'x'.repeat(100_000), userInfo: inviteeInfo(to), serviceTermsSignedAt: signedAt() }],
        ['/v1/submit/accept-invitation', { token, userInfo: { ...inviteeInfo(to), firstName: 7 }, serviceTermsSignedAt: signedAt() }],
        ['/v1/submit/accept-invitation', { token, userInfo: inviteeInfo(to), serviceTermsSignedAt: 'yesterday' }],
        ['/v1/submit/accept-invitation', { token, userInfo: inviteeInfo(to), serviceTermsSignedAt: signedAt(), authenticator: { authenticatorName: 'x', challenge: 'y', attestation: { credentialId: 'z', clientDataJson: 'e30', attestationObject: 'oA', transports: [] } } }],
        ['/v1/submit/accept-invitation', { token, userInfo: inviteeInfo(to), serviceTermsSignedAt: signedAt(), __proto__: { polluted: true }, constructor: 1 }],
        ['/v1/submit/accept-invitation', { token: null }],
        ['/v1/submit/revoke-invitation', { invitationId: 'nope' }],
        ['/v1/submit/resend-invitation', { invitationId: invitation.invitationId, actingUserId: team.owner.userId, signedBody: 'x' }],
      ];
      for (const [path, body] of bodies) {
        const res = await post(server, acme, path, body);
        assert.ok(res.status >= 400 && res.status < 500, `${path} ${JSON.stringify(body).slice(0, 200)}: ${res.status} ${res.text.slice(0, 300)}`);
      }
      assert.deepEqual(await tables(), before);
    });
  });

}
