import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { backends } from '../harness/backends.js';
import { CHROMIUM, chromiumMissing } from '../harness/chromium.js';
import { ETH, recipient, settled, signedBody, unsignedTransfer, type Customer } from '../harness/customers.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';
import { registerPasskey, stampInPage, useWalletBrowser, walletPage } from '../harness/wallet-page.js';

// A passkey made and used by a real browser: headless Debian Chromium with a CDP virtual authenticator, on a page
// served from http://localhost (the sandbox's default relying party). The page does what an integrator's wallet
// front end does: navigator.credentials.create at sign-up, then navigator.credentials.get over the challenge of a
// signedBody (Turnkey's rule), and the server signs and broadcasts on a real anvil node.

const skipBrowser = chromiumMissing('the passkey browser test is');

describe('passkey transaction in Chromium', { skip: skipBrowser ? `${CHROMIUM} is missing` : false }, () => {
  const f = useWalletBrowser();

  for (const backend of backends()) {
    describe(`[${backend}]`, () => {
      let server: TestServer;
      let acme: SeededIntegrator;

      before(async () => {
        ({ server, tenants: [acme] } = await startTenants(backend, ['Acme'], { CHAIN_RPC_URLS: `8453=${f.base.url}` }));
      });
      after(() => server?.close());

      it('registers a passkey in the browser, stamps a signedBody with it, and the server completes the transfer on anvil', async () => {
        const { page, errors } = await walletPage(f.browser, f.site.url);
        const { authenticator, credentialId } = await registerPasskey(page);
        assert.deepEqual(authenticator.attestation.transports, ['internal']);

        server.clock.advance(1000);
        const created = await acme.client.post('/v1/submit/create-individual-account', {
          userInfo: californian({ email: `browser.${randomUUID()}@example.com` }),
          serviceTermsSignedAt: signedAt(),
          verificationDocuments: personDocs(),
          authenticators: [authenticator],
        });
        assert.equal(created.status, 201, created.text);
        server.clock.advance(1000);
        const approved = await acme.client.post('/v1/sandbox/simulate-verification', { accountId: created.body.accountId, outcome: 'approve' });
        assert.equal(approved.body.verificationStatus, 'active', approved.text);
        const user = await acme.client.get(`/v1/query/get-user-details?userId=${created.body.userId}`);
        assert.equal(user.body.isPasskeyActivated, true);

        const alice = { organizationId: created.body.organizationId, walletAddress: created.body.walletAddress } as Customer;
        await f.base.setBalance(alice.walletAddress, ETH);
        const to = recipient();
        const nonce = Number(await f.base.rpc<string>('eth_getTransactionCount', [alice.walletAddress, 'pending']));
        const body = signedBody(server, alice, unsignedTransfer(8453, nonce, to, 54_321n));
        const webAuthnStamp = await stampInPage(page, body, credentialId);

        const transactionId = randomUUID();
        server.clock.advance(1000);
        const sent = await acme.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId, signedBody: body, webAuthnStamp });
        assert.equal(sent.status, 201, sent.text);
        const done = await settled(acme, transactionId);
        assert.equal(done.status, 'completed', JSON.stringify(done));
        assert.equal(done.transactionReceipt.from.toLowerCase(), alice.walletAddress.toLowerCase());
        assert.equal(BigInt(await f.base.rpc<string>('eth_getBalance', [to, 'latest'])), 54_321n);

        // The browser's stamp is single-use like any other.
        server.clock.advance(1000);
        const again = await acme.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: randomUUID(), signedBody: body, webAuthnStamp });
        assert.deepEqual([again.status, again.body.code], [409, 'stamp_reused'], again.text);

        // A second stamp from the same passkey (its counter moves on) authorises the next transfer.
        const next = signedBody(server, alice, unsignedTransfer(8453, nonce + 1, to, 1n));
        const secondStamp = await stampInPage(page, next, credentialId);
        const nextId = randomUUID();
        server.clock.advance(1000);
        const second = await acme.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: nextId, signedBody: next, webAuthnStamp: secondStamp });
        assert.equal(second.status, 201, second.text);
        assert.equal((await settled(acme, nextId)).status, 'completed');

        assert.deepEqual(errors, []);
        await page.close();
      });
    });
  }
});
