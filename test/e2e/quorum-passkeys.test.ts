import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { ETH, recipient, settled, signedBody, unsignedTransfer } from '../harness/customers.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import { asMember, memberAction, post, seatUser, teamAccount } from '../harness/members.js';
import { registerPasskey, stampInPage, describeWalletInChromium, walletPage } from '../harness/wallet-page.js';

// A company's transfer approved 2 of 3 by its members with passkeys made and used in a real browser (headless
// Debian Chromium, CDP virtual authenticator): one approver proposes, a second approves, the server signs and
// broadcasts on anvil.

describeWalletInChromium('quorum of passkey approvals in Chromium', 'the quorum browser test is', (f) => {
  it('2 of 3: an approver proposes with a browser passkey, another approves with theirs, the transfer is mined once', async () => {
    const { server, acme } = f;
    const { page, errors } = await walletPage(f.browser, f.site.url);
    const team = await teamAccount(server, acme);
    const approvers = [];
    for (const name of ['Ana', 'Ben']) {
      const { authenticator, credentialId } = await registerPasskey(page, `${name}'s passkey`);
      const created = await post(server, acme, '/v1/submit/create-user', { userInfo: californian({ firstName: name, email: `${name}.${randomUUID()}@example.com` }), serviceTermsSignedAt: signedAt(), partnerSignedAgreementId: 'agreement-1', verificationDocuments: personDocs(), authenticators: [authenticator] });
      assert.equal(created.status, 201, created.text);
      // A member's approval counts once their user is verified (docs/members.md#verified-members).
      const verified = await post(server, acme, '/v1/sandbox/simulate-verification', { accountId: created.body.accountId, outcome: 'approve' });
      assert.equal(verified.body.verificationStatus, 'active', verified.text);
      await seatUser(server, acme, team, created.body.userId, 'approver');
      approvers.push({ userId: created.body.userId as string, credentialId });
    }
    const [ana, ben] = approvers as [(typeof approvers)[0], (typeof approvers)[0]];
    const policy = await post(server, acme, '/v1/submit/update-approval-policy', asMember(server, team, team.owner, 'update-approval-policy', { accountId: team.accountId, requiredApprovals: 2 }));
    assert.deepEqual(policy.body, { accountId: team.accountId, requiredApprovals: 2, approvers: 3 }, policy.text);
    await f.base.setBalance(team.walletAddress, ETH);

    const to = recipient();
    const body = signedBody(server, team, unsignedTransfer(8453, 0, to, 77_777n));
    const transactionId = randomUUID();
    const proposed = await post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId, signedBody: body, actingUserId: ana.userId, webAuthnStamp: await stampInPage(page, body, ana.credentialId) });
    assert.deepEqual([proposed.status, proposed.body.status, proposed.body.approvals], [201, 'created', { required: 2, received: [{ userId: ana.userId, at: proposed.body.approvals.received[0].at }] }], proposed.text);

    // Ben approves: the approval is a member action, stamped in the browser like any signedBody.
    server.clock.advance(1000);
    const decision = memberAction(server, team, ben.userId, 'approve-transaction', { transactionId });
    const approved = await acme.client.post('/v1/submit/approve-transaction', { ...decision, webAuthnStamp: await stampInPage(page, decision.signedBody, ben.credentialId) });
    assert.deepEqual([approved.status, approved.body.status], [200, 'processing'], approved.text);
    const done = await settled(acme, transactionId);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.equal(done.transactionReceipt.from.toLowerCase(), team.walletAddress.toLowerCase());
    assert.equal(BigInt(await f.base.rpc<string>('eth_getBalance', [to, 'latest'])), 77_777n);
    assert.deepEqual(done.approvals.received.map((r: { userId: string }) => r.userId), [ana.userId, ben.userId]);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
