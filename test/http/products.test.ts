import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import type { Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, signedBody, unsignedTransfer } from '../harness/customers.js';
import { eventsFor } from '../harness/db.js';
import { berliner, californian, personDocs, signedAt } from '../harness/fixtures.js';
import { post } from '../harness/members.js';
import { verifiedBankAccount } from '../harness/money.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants, startTenantsOnChain } from '../harness/tenants.js';

type Status = { productId: string; status: string; reasons: string[] };
const statuses = async (who: SeededIntegrator, accountId: string): Promise<Record<string, [string, string[]]>> => {
  const res = await who.client.get(`/v1/query/list-account-products?accountId=${accountId}`);
  assert.equal(res.status, 200, res.text);
  return Object.fromEntries((res.body.data as Status[]).map((p) => [p.productId, [p.status, p.reasons]]));
};

for (const backend of backends()) {
  describe(`products: catalogue, eligibility, enable and disable [${backend}]`, () => {
    let server: TestServer;
    let chain: Anvil;
    let acme: SeededIntegrator;
    let globex: SeededIntegrator;

    before(async () => {
      ({ server, chain, tenants: [acme, globex] } = await startTenantsOnChain(backend, 8453, ['Acme', 'Globex'], { PRODUCT_COUNTRIES: 'yield_vaults=!USA,CAN;fiat_withdrawals=USA,DEU' }));
    });
    after(() => server?.close());

    it('list-products: the catalogue with each product’s requirements and country rule', async () => {
      const res = await acme.client.get('/v1/query/list-products');
      assert.equal(res.status, 200, res.text);
      const byId = Object.fromEntries(res.body.data.map((p: { productId: string }) => [p.productId, p]));
      assert.deepEqual(Object.keys(byId), ['custodial_wallet', 'fiat_deposits', 'fiat_withdrawals', 'yield_vaults']);
      assert.deepEqual(byId.yield_vaults.requirements, { accountTypes: ['individual', 'entity'], verificationStatus: 'active', custodialWallet: true, countries: { allowed: null, excluded: ['USA', 'CAN'] }, termsRequired: true });
      assert.deepEqual(byId.fiat_withdrawals.requirements.countries, { allowed: ['USA', 'DEU'], excluded: [] });
      assert.equal(byId.custodial_wallet.enabledByDefault, true);
      assert.equal(byId.yield_vaults.enabledByDefault, false);
    });

    it('the eligibility matrix: status, wallet, custody and country decide; the products accounts always had are enabled by default', async () => {
      const us = await createCustomer(server, acme);
      assert.deepEqual(await statuses(acme, us.accountId), {
        custodial_wallet: ['enabled', []],
        fiat_deposits: ['enabled', []],
        fiat_withdrawals: ['enabled', []],
        yield_vaults: ['unavailable', ['country_not_supported']],
      });
      const pending = await createCustomer(server, acme, { approve: false });
      assert.deepEqual((await statuses(acme, pending.accountId)).custodial_wallet, ['unavailable', ['verification_not_active']]);
      const german = await post(server, acme, '/v1/submit/create-individual-account', { userInfo: berliner({ email: `de.${randomUUID()}@example.de` }), serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs('DEU') });
      await post(server, acme, '/v1/sandbox/simulate-verification', { accountId: german.body.accountId, outcome: 'approve' });
      assert.deepEqual((await statuses(acme, german.body.accountId)).yield_vaults, ['available', []]);
      const selfCustodial = await post(server, acme, '/v1/submit/create-individual-account', { userInfo: californian({ email: `sc.${randomUUID()}@example.com` }), serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs(), walletAddress: privateKeyToAccount(generatePrivateKey()).address });
      await post(server, acme, '/v1/sandbox/simulate-verification', { accountId: selfCustodial.body.accountId, outcome: 'approve' });
      const sc = await statuses(acme, selfCustodial.body.accountId);
      assert.deepEqual([sc.custodial_wallet, sc.fiat_deposits], [['unavailable', ['self_custodial_account']], ['enabled', []]]);
      const walletless = await post(server, acme, '/v1/submit/create-user', { userInfo: { ...californian({ email: `nw.${randomUUID()}@example.com` }), residentialAddress: null }, serviceTermsSignedAt: signedAt(), partnerSignedAgreementId: 'agreement-1' });
      assert.equal(walletless.status, 201, walletless.text);
      const nw = await statuses(acme, walletless.body.accountId);
      assert.deepEqual(nw.custodial_wallet, ['unavailable', ['verification_not_active', 'wallet_missing']]);
      assert.deepEqual(nw.fiat_withdrawals, ['unavailable', ['verification_not_active', 'country_unknown', 'wallet_missing']]);
    });

    it('enable-product: terms required for yield vaults, ineligible is 409 product_unavailable; enable twice and disable write one event each', async () => {
      const german = await post(server, acme, '/v1/submit/create-individual-account', { userInfo: berliner({ email: `de.${randomUUID()}@example.de` }), serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs('DEU') });
      const accountId = german.body.accountId;
      const early = await post(server, acme, '/v1/submit/enable-product', { accountId, productId: 'yield_vaults', termsAcceptedAt: signedAt() });
      assert.deepEqual([early.status, early.body.code, early.body.reasons], [409, 'product_unavailable', ['verification_not_active']], early.text);
      await post(server, acme, '/v1/sandbox/simulate-verification', { accountId, outcome: 'approve' });
      const noTerms = await post(server, acme, '/v1/submit/enable-product', { accountId, productId: 'yield_vaults' });
      assert.deepEqual([noTerms.status, noTerms.body.errors?.[0]?.pointer], [400, '/termsAcceptedAt'], noTerms.text);
      const future = await post(server, acme, '/v1/submit/enable-product', { accountId, productId: 'yield_vaults', termsAcceptedAt: new Date(server.clock.now().getTime() + 3_600_000).toISOString() });
      assert.equal(future.status, 400, future.text);
      const at = new Date(server.clock.now().getTime() - 60_000).toISOString();
      const enabled = await post(server, acme, '/v1/submit/enable-product', { accountId, productId: 'yield_vaults', termsAcceptedAt: at });
      assert.deepEqual([enabled.status, enabled.body.status, enabled.body.termsAcceptedAt], [200, 'enabled', at], enabled.text);
      const again = await post(server, acme, '/v1/submit/enable-product', { accountId, productId: 'yield_vaults', termsAcceptedAt: at });
      assert.equal(again.body.status, 'enabled');
      const disabled = await post(server, acme, '/v1/submit/disable-product', { accountId, productId: 'yield_vaults' });
      assert.deepEqual([disabled.status, disabled.body.status], [200, 'available'], disabled.text);
      const types = (await eventsFor(server.database, accountId)).map((e) => e.type).filter((t) => t.startsWith('account.product'));
      assert.deepEqual(types, ['account.product_enabled', 'account.product_disabled']);
      const unknown = await post(server, acme, '/v1/submit/enable-product', { accountId, productId: 'moon_shots' });
      assert.equal(unknown.status, 404, unknown.text);
    });

    it('a disabled product refuses its operations (409 product_not_enabled) until enabled again', async () => {
      const alice = await createCustomer(server, acme);
      await chain.setBalance(alice.walletAddress, ETH);
      for (const productId of ['custodial_wallet', 'fiat_deposits', 'fiat_withdrawals']) assert.equal((await post(server, acme, '/v1/submit/disable-product', { accountId: alice.accountId, productId })).body.status, 'available');
      const body = signedBody(server, alice, unsignedTransfer(8453, 0));
      const transfer = await post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: randomUUID(), signedBody: body, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body)) });
      assert.deepEqual([transfer.status, transfer.body.code], [409, 'product_not_enabled'], transfer.text);
      const deposit = await post(server, acme, '/v1/submit/create-deposit', { accountId: alice.accountId, amount: '10.00', currency: 'USD', chainId: 8453 });
      assert.deepEqual([deposit.status, deposit.body.code], [409, 'product_not_enabled'], deposit.text);
      const bankAccountId = await verifiedBankAccount(server, acme, alice.accountId);
      const withdrawal = await post(server, acme, '/v1/submit/create-withdrawal', { accountId: alice.accountId, bankAccountId, chainId: 8453, amount: '1.00', currency: 'USD' });
      assert.deepEqual([withdrawal.status, withdrawal.body.code], [409, 'product_not_enabled'], withdrawal.text);

      for (const productId of ['custodial_wallet', 'fiat_deposits']) assert.equal((await post(server, acme, '/v1/submit/enable-product', { accountId: alice.accountId, productId })).body.status, 'enabled');
      const body2 = signedBody(server, alice, unsignedTransfer(8453, 0));
      const sent = await post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: randomUUID(), signedBody: body2, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body2)) });
      assert.equal(sent.status, 201, sent.text);
      assert.equal((await post(server, acme, '/v1/submit/create-deposit', { accountId: alice.accountId, amount: '10.00', currency: 'USD', chainId: 8453 })).status, 201);
    });

    it('another integrator’s account is 404 on every product operation', async () => {
      const alice = await createCustomer(server, acme, { approve: false });
      const probes = [
        await globex.client.get(`/v1/query/list-account-products?accountId=${alice.accountId}`),
        await post(server, globex, '/v1/submit/enable-product', { accountId: alice.accountId, productId: 'fiat_deposits' }),
        await post(server, globex, '/v1/submit/disable-product', { accountId: alice.accountId, productId: 'fiat_deposits' }),
      ];
      assert.deepEqual(probes.map((r) => r.status), [404, 404, 404]);
    });
  });

  describe(`products a deployment does not offer [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;
    before(async () => {
      ({ server, tenants: [acme] } = await startTenants(backend, ['Acme'], { PRODUCTS: 'custodial_wallet,fiat_withdrawals', CHAIN_RPC_URLS: '8453=http://127.0.0.1:9' }));
    });
    after(() => server?.close());

    it('are not listed, cannot be enabled (404), and their operations answer 409 product_not_enabled', async () => {
      const listed = await acme.client.get('/v1/query/list-products');
      assert.deepEqual(listed.body.data.map((p: { productId: string }) => p.productId), ['custodial_wallet', 'fiat_withdrawals']);
      const alice = await createCustomer(server, acme);
      assert.deepEqual(Object.keys(await statuses(acme, alice.accountId)), ['custodial_wallet', 'fiat_withdrawals']);
      assert.equal((await post(server, acme, '/v1/submit/enable-product', { accountId: alice.accountId, productId: 'fiat_deposits' })).status, 404);
      const deposit = await post(server, acme, '/v1/submit/create-deposit', { accountId: alice.accountId, amount: '10.00', currency: 'USD', chainId: 8453 });
      assert.deepEqual([deposit.status, deposit.body.code], [409, 'product_not_enabled'], deposit.text);
    });
  });
}
