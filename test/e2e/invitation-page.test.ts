import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { eq } from 'drizzle-orm';
import { authenticators } from '../../src/db/schema/index.js';
import { describeInChromium } from '../harness/chromium.js';
import { authenticatorPage, outboxMessage, stampInBrowser, tokenIn } from '../harness/invitations.js';
import { asMember, post, teamAccount } from '../harness/members.js';
import { useTenants } from '../harness/tenants.js';

// The hosted invitation page in a real browser: headless Debian Chromium with a CDP virtual authenticator opens the
// emailed link (on http://localhost, the sandbox's relying party), sees who invites to what, registers a passkey
// and accepts; the new member's passkey then approves a member action of theirs.

describeInChromium('hosted invitation page in Chromium', 'the invitation page browser test is', (backend, browser) => {
  const { server, tenants: [acme] } = useTenants(backend, ['Acme Wallet']);

  it('opens the link, shows the integrator, company and role, registers a passkey, accepts; the member’s passkey then stamps', async () => {
    const team = await teamAccount(server, acme, { active: false });
    const to = `new.admin.${randomUUID()}@example.org`;
    const invited = await post(server, acme, '/v1/submit/create-invitation', asMember(server, team, team.owner, 'create-invitation', { accountId: team.accountId, email: to, role: 'admin' }));
    assert.equal(invited.status, 201, invited.text);
    const message = await outboxMessage(acme, invited.body.invitationId);
    const token = tokenIn(message.text);
    assert.ok(message.text.includes(`http://localhost:${server.config.port}/invitations/${token}`), 'the sandbox default base URL');
    // The server listens on a free port: the same link on it.
    const link = `${server.url.replace('127.0.0.1', 'localhost')}/invitations/${token}`;

    const { page, errors } = await authenticatorPage(browser);
    const response = await page.goto(link);
    assert.equal(response?.status(), 200);
    assert.equal(response?.headers()['referrer-policy'], 'no-referrer');
    assert.equal(response?.headers()['cache-control'], 'no-store');
    assert.match(response?.headers()['content-security-policy'] ?? '', /script-src 'self'/);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Join Acme Robotics Inc.');
    const summary = await page.locator('#summary').textContent();
    assert.match(summary ?? '', /Maria Garcia invited you to join Acme Robotics Inc\. on Acme Wallet as an administrator\./);
    assert.equal(await page.locator('#email').textContent(), to);

    await page.getByLabel('First name').fill('Erika');
    await page.getByLabel('Last name').fill('Mustermann');
    assert.match((await page.locator('#role').textContent()) ?? '', /^administrator: manages initiators and viewers; moves no funds$/);
    // The terms it asks to accept are a link away (a new tab; the token never travels as a Referer).
    const [terms] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: 'service terms' }).click()]);
    await terms.waitForLoadState();
    assert.equal(await terms.getByRole('heading', { level: 1 }).textContent(), 'Service terms (sandbox)');
    await terms.close();
    await page.getByLabel(/service terms/).check();
    await page.getByRole('button', { name: 'Create passkey and accept' }).click();
    await page.getByRole('status').filter({ hasText: 'you are now a member' }).waitFor();
    assert.equal(await page.locator('#accept-form').isHidden(), true);
    assert.equal(await page.getByRole('heading', { name: 'What next' }).isVisible(), true, 'what to do next, once accepted');
    assert.match((await page.locator('#next').textContent()) ?? '', new RegExp(`sign in with ${to.replace(/\./g, '\\.')}`));

    const members = await acme.client.get(`/v1/query/list-members?accountId=${team.accountId}`);
    const member = members.body.data.find((m: { email: string }) => m.email === to);
    assert.deepEqual([member?.role, member?.firstName, member?.lastName], ['admin', 'Erika', 'Mustermann'], members.text);
    const user = await acme.client.get(`/v1/query/get-user-details?userId=${member.userId}`);
    assert.equal(user.body.isPasskeyActivated, true, user.text);
    const [passkey] = await server.database.db.select().from(authenticators).where(eq(authenticators.userId, member.userId));
    assert.ok(passkey, 'the browser’s passkey is the member’s');
    const listed = await acme.client.get(`/v1/query/list-invitations?accountId=${team.accountId}`);
    assert.deepEqual([listed.body.data[0].status, listed.body.data[0].acceptedUserId], ['accepted', member.userId]);

    // The new admin invites a viewer, approved with the passkey the page registered.
    const fields = { accountId: team.accountId, email: `viewer.${randomUUID()}@example.org`, role: 'viewer', actingUserId: member.userId };
    const signedBody = { type: 'ACTIVITY_TYPE_MEMBER_ACTION', timestampMs: String(server.clock.now().getTime()), organizationId: team.organizationId, parameters: { operation: 'create-invitation', ...fields } };
    const webAuthnStamp = await stampInBrowser(page, JSON.stringify(signedBody), passkey.credentialId);
    const byAdmin = await post(server, acme, '/v1/submit/create-invitation', { ...fields, signedBody, webAuthnStamp });
    assert.equal(byAdmin.status, 201, byAdmin.text);
    assert.equal(byAdmin.body.invitedByUserId, member.userId);
    assert.deepEqual(errors, []);

    // The used link now says so, with its status; an unknown one too.
    const used = await page.goto(link);
    assert.equal(used?.status(), 409);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'This invitation was already used, or is no longer valid');
    const unknown = await page.goto(`${server.url.replace('127.0.0.1', 'localhost')}/invitations/inv_${'x'.repeat(43)}`);
    assert.equal(unknown?.status(), 404);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'This invitation link is not valid');
    await page.close();
  });
});
