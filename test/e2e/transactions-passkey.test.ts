import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { CHROMIUM, chromiumMissing, launchChromium } from '../harness/chromium.js';
import { ETH, recipient, settled, signedBody, unsignedTransfer, type Customer } from '../harness/customers.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';

// A passkey made and used by a real browser: headless Debian Chromium with a CDP virtual authenticator, on a page
// served from http://localhost (the sandbox's default relying party). The page does what an integrator's wallet
// front end does: navigator.credentials.create at sign-up, then navigator.credentials.get over the challenge of a
// signedBody (Turnkey's rule), and the server signs and broadcasts on a real anvil node.

// The browser-side functions the test calls (defined by the page's script); the test project has no DOM library.
declare const window: {
  register(challenge: string, userId: string): Promise<{ credentialId: string; clientDataJson: string; attestationObject: string; transports: string[] }>;
  stamp(stampedBody: string, credentialId: string): Promise<string>;
};


const skipBrowser = chromiumMissing('the passkey browser test is');

/** The wallet page: base64url helpers, a registration and a Turnkey-style stamp, nothing else. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>E2E wallet</title><script>
const b64u = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const fromB64u = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));
window.register = async (challenge, userId) => {
  const credential = await navigator.credentials.create({ publicKey: {
    rp: { id: 'localhost', name: 'E2E Wallet' },
    user: { id: fromB64u(userId), name: 'alice@example.com', displayName: 'Alice' },
    challenge: fromB64u(challenge),
    pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    attestation: 'none',
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    timeout: 10000,
  } });
  return {
    credentialId: b64u(credential.rawId),
    clientDataJson: b64u(credential.response.clientDataJSON),
    attestationObject: b64u(credential.response.attestationObject),
    transports: credential.response.getTransports(),
  };
};
window.stamp = async (stampedBody, credentialId) => {
  // Turnkey's challenge: the UTF-8 bytes of the hex SHA-256 of the body text.
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(stampedBody));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  const assertion = await navigator.credentials.get({ publicKey: {
    challenge: new TextEncoder().encode(hex),
    rpId: 'localhost',
    allowCredentials: [{ type: 'public-key', id: fromB64u(credentialId) }],
    userVerification: 'preferred',
    timeout: 10000,
  } });
  return JSON.stringify({
    authenticatorData: b64u(assertion.response.authenticatorData),
    clientDataJson: b64u(assertion.response.clientDataJSON),
    credentialId: b64u(assertion.rawId),
    signature: b64u(assertion.response.signature),
  });
};
</script><p>wallet</p>`;

describe('passkey transaction in Chromium', { skip: skipBrowser ? `${CHROMIUM} is missing` : false }, () => {
  let browser: Browser;
  let site: Server;
  let siteUrl: string;
  let base: Anvil;

  before(async () => {
    [browser, base] = await Promise.all([launchChromium(), startAnvil(8453)]);
    site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    // localhost, not 127.0.0.1: browsers refuse IP addresses as relying-party ids.
    siteUrl = `http://localhost:${(site.address() as AddressInfo).port}/`;
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await base?.stop();
  });

  /** A fresh page with a virtual platform authenticator (user verification on, presence automatic); fails on console errors. */
  async function walletPage(): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await page.goto(siteUrl);
    return { page, errors };
  }

  for (const backend of backends()) {
    describe(`[${backend}]`, () => {
      let server: TestServer;
      let acme: SeededIntegrator;

      before(async () => {
        ({ server, tenants: [acme] } = await startTenants(backend, ['Acme'], { CHAIN_RPC_URLS: `8453=${base.url}` }));
      });
      after(() => server?.close());

      it('registers a passkey in the browser, stamps a signedBody with it, and the server completes the transfer on anvil', async () => {
        const { page, errors } = await walletPage();
        const challenge = randomBytes(32).toString('base64url');
        const attestation = await page.evaluate(([c, u]) => window.register(c, u), [challenge, randomBytes(16).toString('base64url')] as const);
        assert.deepEqual(attestation.transports, ['internal']);

        server.clock.advance(1000);
        const created = await acme.client.post('/v1/submit/create-individual-account', {
          userInfo: californian({ email: `browser.${randomUUID()}@example.com` }),
          serviceTermsSignedAt: signedAt(),
          verificationDocuments: personDocs(),
          authenticators: [{ authenticatorName: 'Chromium passkey', challenge, attestation }],
        });
        assert.equal(created.status, 201, created.text);
        server.clock.advance(1000);
        const approved = await acme.client.post('/v1/sandbox/simulate-verification', { accountId: created.body.accountId, outcome: 'approve' });
        assert.equal(approved.body.verificationStatus, 'active', approved.text);
        const user = await acme.client.get(`/v1/query/get-user-details?userId=${created.body.userId}`);
        assert.equal(user.body.isPasskeyActivated, true);

        const alice = { organizationId: created.body.organizationId, walletAddress: created.body.walletAddress } as Customer;
        await base.setBalance(alice.walletAddress, ETH);
        const to = recipient();
        const nonce = Number(await base.rpc<string>('eth_getTransactionCount', [alice.walletAddress, 'pending']));
        const body = signedBody(server, alice, unsignedTransfer(8453, nonce, to, 54_321n));
        const webAuthnStamp = await page.evaluate(([text, id]) => window.stamp(text, id), [JSON.stringify(body), attestation.credentialId] as const);

        const transactionId = randomUUID();
        server.clock.advance(1000);
        const sent = await acme.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId, signedBody: body, webAuthnStamp });
        assert.equal(sent.status, 201, sent.text);
        const done = await settled(acme, transactionId);
        assert.equal(done.status, 'completed', JSON.stringify(done));
        assert.equal(done.transactionReceipt.from.toLowerCase(), alice.walletAddress.toLowerCase());
        assert.equal(BigInt(await base.rpc<string>('eth_getBalance', [to, 'latest'])), 54_321n);

        // The browser's stamp is single-use like any other.
        server.clock.advance(1000);
        const again = await acme.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: randomUUID(), signedBody: body, webAuthnStamp });
        assert.deepEqual([again.status, again.body.code], [409, 'stamp_reused'], again.text);

        // A second stamp from the same passkey (its counter moves on) authorises the next transfer.
        const next = signedBody(server, alice, unsignedTransfer(8453, nonce + 1, to, 1n));
        const secondStamp = await page.evaluate(([text, id]) => window.stamp(text, id), [JSON.stringify(next), attestation.credentialId] as const);
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
