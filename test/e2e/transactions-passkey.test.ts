import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { build } from 'esbuild';
import { buildUnsignedTransaction, createIntegratorClient, type signedBodyFor } from '../../packages/sdk/src/index.js';
import { ETH, recipient, settled, signedBody, unsignedTransfer, type Customer } from '../harness/customers.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import { registerPasskey, stampInPage, describeWalletInChromium, walletPage } from '../harness/wallet-page.js';

// A passkey made and used by a real browser: headless Debian Chromium with a CDP virtual authenticator, on a page
// served from http://localhost (the sandbox's default relying party). The page does what an integrator's wallet
// front end does: navigator.credentials.create at sign-up, then navigator.credentials.get over the challenge of a
// signedBody (Turnkey's rule), and the server signs and broadcasts on a real anvil node.

describeWalletInChromium('passkey transaction in Chromium', 'the passkey browser test is', (f) => {
  it('registers a passkey in the browser, stamps a signedBody with it, and the server completes the transfer on anvil', async () => {
    const { server, acme } = f;
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

  it('the SDK, bundled for the browser, stamps with the page’s passkey (stampWithPasskey) and builds the body (signedBodyFor)', async () => {
    const { server, acme } = f;
    const { page, errors } = await walletPage(f.browser, f.site.url);
    await page.addScriptTag({ content: await sdkBundle() });
    const { authenticator, credentialId } = await registerPasskey(page);
    const api = createIntegratorClient({ baseUrl: server.url, privateKey: acme.privateKey, now: () => server.clock.seconds() });
    server.clock.advance(1000);
    const created = await api.createIndividualAccount({
      body: { userInfo: californian({ email: `sdk.browser.${randomUUID()}@example.com` }) as never, serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs() as never, authenticators: [authenticator] as never },
    });
    server.clock.advance(1000);
    await api.simulateVerification({ body: { accountId: created.accountId, outcome: 'approve' } });
    await f.base.setBalance(created.walletAddress!, ETH);
    const built = await buildUnsignedTransaction({ rpcUrl: f.base.url, chainId: 8453, from: created.walletAddress!, to: recipient(), value: 7n });
    // In the page, as a wallet front end would: the SDK's helpers over navigator.credentials.
    const stamped = (await page.evaluate(
      `(async (input) => {
        const body = IntegratorSdk.signedBodyFor(input);
        return { body, webAuthnStamp: await IntegratorSdk.stampWithPasskey(body, { rpId: 'localhost', credentialIds: [input.credentialId] }) };
      })(${JSON.stringify({ organizationId: created.organizationId, walletAddress: created.walletAddress, unsignedTransaction: built.unsignedTransaction, timestampMs: server.clock.now().getTime(), credentialId })})`,
    )) as { body: ReturnType<typeof signedBodyFor>; webAuthnStamp: string };
    const transactionId = randomUUID();
    const sent = await api.sendTransactionPasskey({ query: { chain_id: 8453 }, body: { transactionId, signedBody: stamped.body, webAuthnStamp: stamped.webAuthnStamp } });
    assert.equal(sent.status, 'processing');
    assert.equal((await settled(acme, transactionId)).status, 'completed');
    assert.deepEqual(errors, []);
    await page.close();
  });
});

/** packages/sdk bundled as a browser script (global IntegratorSdk), as an integrator's bundler would ship it. */
async function sdkBundle(): Promise<string> {
  const out = await build({ entryPoints: ['packages/sdk/src/index.ts'], bundle: true, format: 'iife', globalName: 'IntegratorSdk', platform: 'browser', write: false, logLevel: 'silent' });
  return out.outputFiles[0]!.text;
}
