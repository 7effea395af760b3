import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { mailOutbox } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { eventsFor } from '../harness/db.js';
import { inviteeInfo, mailSubject, mailText, ownerlessEntity, tokenIn } from '../harness/invitations.js';
import { asMember, post, teamAccount } from '../harness/members.js';
import { signedAt } from '../harness/fixtures.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';
import { startSmtpReceiver, type SmtpReceiver } from '../harness/smtp.js';
import { startTenants } from '../harness/tenants.js';

const email = (tag = 'invitee') => `${tag}.${randomUUID()}@example.org`;
const accept = (server: TestServer, who: SeededIntegrator, token: string, to: string, extra: Record<string, unknown> = {}) =>
  post(server, who, '/v1/submit/accept-invitation', { token, userInfo: inviteeInfo(to), serviceTermsSignedAt: signedAt(), ...extra });

for (const backend of backends()) {
  describe(`invitations by email through SMTP, and production without SMTP [${backend}]`, () => {
    let smtp: SmtpReceiver;
    let server: TestServer;
    let production: TestServer;
    let acme: SeededIntegrator;

    before(async () => {
      smtp = await startSmtpReceiver();
      ({ server, tenants: [acme] } = await startTenants(backend, ['Acme Wallet'], { SMTP_URL: smtp.url, SMTP_FROM: 'Acme Wallet <team@acme.example>', INVITATION_BASE_URL: 'https://wallet.acme.example/' }));
      production = await startServer(backend, { APP_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32) });
    });
    after(async () => {
      await server?.close();
      await production?.close();
      await smtp?.close();
    });

    it('the whole journey: invite, the mail arrives with the link, accept with its token, the member is listed', async () => {
      const team = await teamAccount(server, acme, { active: false });
      const to = email('cfo');
      const created = await post(server, acme, '/v1/submit/create-invitation', asMember(server, team, team.owner, 'create-invitation', { accountId: team.accountId, email: to, role: 'approver' }));
      assert.equal(created.status, 201, created.text);
      // A round of the mail sender (the server's own rounds may have sent it already: it is sent once either way).
      await server.mail.runOnce();
      const mail = smtp.messages.find((m) => m.to.includes(to));
      assert.ok(mail, 'the receiver got the invitation');
      assert.equal(mail.from, 'team@acme.example');
      assert.match(mailSubject(mail.raw), /Maria Garcia invited you to join Acme Robotics Inc\. on Acme Wallet/);
      const text = mailText(mail.raw);
      assert.match(text, /as an approver/);
      const token = tokenIn(text);
      assert.ok(text.includes(`https://wallet.acme.example/invitations/${token}`), text);
      const [row] = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.subjectId, created.body.invitationId));
      assert.deepEqual([row!.status, row!.attempts], ['sent', 1]);

      const accepted = await accept(server, acme, token, to);
      assert.equal(accepted.status, 201, accepted.text);
      const members = await acme.client.get(`/v1/query/list-members?accountId=${team.accountId}`);
      assert.ok(members.body.data.some((m: { userId: string; role: string }) => m.userId === accepted.body.member.userId && m.role === 'approver'));
      const listed = await acme.client.get(`/v1/query/list-invitations?accountId=${team.accountId}`);
      assert.equal(listed.body.data[0].status, 'accepted');
      assert.deepEqual((await eventsFor(server.database, created.body.invitationId)).map((e) => e.type), ['invitation.created', 'invitation.accepted']);
      await server.mail.runOnce();
      assert.equal(smtp.messages.filter((m) => m.to.includes(to)).length, 1, 'sent once');
    });

    it('a mail server refusing the message: retried later with backoff, then sent', async () => {
      const team = await teamAccount(server, acme, { active: false });
      const to = email('refused');
      smtp.refuseWith = 'mailbox busy';
      try {
        const created = await post(server, acme, '/v1/submit/create-invitation', asMember(server, team, team.owner, 'create-invitation', { accountId: team.accountId, email: to, role: 'viewer' }));
        assert.equal(created.status, 201, created.text);
        await server.mail.runOnce();
        const [row] = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.subjectId, created.body.invitationId));
        assert.deepEqual([row!.status, row!.attempts], ['pending', 1]);
        const wait = row!.nextAttemptAt.getTime() - server.clock.now().getTime();
        assert.ok(wait > 25_000 && wait <= 30_000, `the first retry waits 30 s (${wait} ms left)`);
      } finally {
        smtp.refuseWith = undefined;
      }
      assert.equal((await server.mail.runOnce()).sent, 0, 'not due yet');
      server.clock.advance(30_000);
      await server.mail.runOnce();
      const [sent] = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, to));
      assert.deepEqual([sent!.status, sent!.attempts], ['sent', 2]);
      assert.ok(smtp.messages.some((m) => m.to.includes(to)));
    });

    it('production without SMTP_URL answers 503 invitations_unavailable, writes nothing, and has no mail outbox route', async () => {
      const integrator = await production.seedIntegrator('Prod');
      const entity = await ownerlessEntity(production, integrator);
      const res = await post(production, integrator, '/v1/submit/create-invitation', { accountId: entity.accountId, email: email(), role: 'owner' });
      assert.deepEqual([res.status, res.body.code], [503, 'invitations_unavailable'], res.text);
      assert.deepEqual((await integrator.client.get(`/v1/query/list-invitations?accountId=${entity.accountId}`)).body.data, []);
      assert.equal((await integrator.client.get('/v1/sandbox/mail-outbox')).status, 404);
    });
  });

}
