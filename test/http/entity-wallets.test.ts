import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { accounts, wallets } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { createCustomer, ETH, settled, unsignedTransfer } from '../harness/customers.js';
import { eventsFor } from '../harness/db.js';
import { companyInfo, entityDocs, signedAt } from '../harness/fixtures.js';
import { activeEntity } from '../harness/money.js';
import type { SeededIntegrator } from '../harness/server.js';
import { useTenantsOnChain } from '../harness/tenants.js';

interface AccountView {
  accountId: string;
  type: string;
  walletAddress: string | null;
  custody: string | null;
  organizationId?: string;
  requiredApprovals: number | null;
}

for (const backend of backends()) {
  describe(`entity wallets [${backend}]`, () => {
    const { server, chain, tenants: [acme, globex] } = useTenantsOnChain(backend, 8453, ['Acme', 'Globex']);

    before(async () => {
      await chain.setBalance(server.treasury!.address, 10n * ETH);
    });

    const post = (path: string, body: unknown, who: SeededIntegrator = acme) => {
      server.clock.advance(1000);
      return who.client.post(path, body);
    };
    const details = async (accountId: string): Promise<AccountView> => (await acme.client.get(`/v1/query/get-account-details?accountId=${accountId}`)).body;

    /** What an entity account made before entities had wallets looks like. */
    async function withoutWallet(accountId: string): Promise<void> {
      await server.database.db.delete(wallets).where(eq(wallets.accountId, accountId));
      await server.database.db.update(accounts).set({ walletAddress: null, custody: null, organizationId: null, requiredApprovals: null }).where(eq(accounts.id, accountId));
    }

    it('a new entity account has a custodial wallet with its own organization, like an individual’s', async () => {
      const entity = await post('/v1/submit/create-entity-account', { entityInfo: companyInfo(), entityDocuments: entityDocs(), serviceTermsSignedAt: signedAt() });
      const account = await details(entity.body.accountId);
      assert.equal(account.type, 'entity');
      assert.match(account.walletAddress ?? '', /^0x[0-9a-fA-F]{40}$/);
      assert.equal(account.custody, 'custodial');
      assert.match(account.organizationId ?? '', /^[0-9a-f-]{36}$/);
      assert.equal(account.requiredApprovals, 1);
      const [wallet] = await server.database.db.select().from(wallets).where(eq(wallets.accountId, entity.body.accountId));
      assert.ok(wallet?.privateKeySealed && !wallet.privateKeySealed.includes(wallet.address.slice(2)), 'the key is sealed');
      const created = (await eventsFor(server.database, entity.body.accountId)).find((e) => e.type === 'account.created');
      assert.equal((created?.data as { object: AccountView }).object.walletAddress, account.walletAddress, 'account.created carries the wallet');

      const again = await post('/v1/submit/create-entity-wallet', { accountId: entity.body.accountId });
      assert.equal(again.status, 200, again.text);
      assert.equal(again.body.walletAddress, account.walletAddress, 'idempotent: the same wallet');
    });

    it('create-entity-wallet gives an older entity account its wallet once; deposits then pay out to it on chain', async () => {
      const accountId = await activeEntity(server, acme);
      await withoutWallet(accountId);
      const refused = await post('/v1/submit/create-deposit', { accountId, amount: '5.00', currency: 'USD', chainId: 8453 });
      assert.deepEqual([refused.status, refused.body.code], [409, 'account_without_wallet'], refused.text);

      const created = await post('/v1/submit/create-entity-wallet', { accountId });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.custody, 'custodial');
      const walletAddress: string = created.body.walletAddress;
      const again = await post('/v1/submit/create-entity-wallet', { accountId });
      assert.deepEqual([again.status, again.body.walletAddress], [200, walletAddress]);
      assert.deepEqual((await eventsFor(server.database, accountId)).filter((e) => e.type === 'account.wallet_created').length, 1);

      const deposit = await post('/v1/submit/create-deposit', { accountId, amount: '5.00', currency: 'USD', chainId: 8453 });
      assert.equal(deposit.status, 201, deposit.text);
      await post('/v1/sandbox/simulate-deposit', { transactionId: deposit.body.transactionId, amount: '5.00' });
      const paid = await settled(acme, deposit.body.transactionId, 'funds_in_transfer').then((t) => (t.status === 'processing' ? settled(acme, t.transactionId) : t));
      assert.equal(paid.status, 'completed', JSON.stringify(paid));
      assert.equal(BigInt(await chain.rpc<string>('eth_getBalance', [walletAddress, 'latest'])), 5n * 10n ** 12n);
    });

    it('nothing leaves the wallet of an entity without an owner: transfers, and the approval of a withdrawal, are 409 member_approval_required', async () => {
      const accountId = await activeEntity(server, acme);
      const account = await details(accountId);
      const unsignedTransaction = unsignedTransfer(8453, 0);
      const body = { type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', timestampMs: String(server.clock.now().getTime()), organizationId: account.organizationId, parameters: { signWith: account.walletAddress, unsignedTransaction, type: 'TRANSACTION_TYPE_ETHEREUM' } };
      const transfer = await post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: randomUUID(), signedBody: body, webAuthnStamp: new SoftwareAuthenticator().stamp(JSON.stringify(body)) });
      assert.deepEqual([transfer.status, transfer.body.code], [409, 'member_approval_required'], transfer.text);
      const bank = await post('/v1/submit/create-bank-account', { accountId, currency: 'USD', accountHolderName: 'Acme Robotics Inc', us: { accountNumber: '12345678', routingNumber: '021000021', accountType: 'checking' } });
      assert.equal(bank.body.status, 'verified', bank.text);
      const withdrawal = await post('/v1/submit/create-withdrawal', { accountId, bankAccountId: bank.body.bankAccountId, chainId: 8453, amount: '1.00', currency: 'USD' });
      assert.equal(withdrawal.status, 201, 'the quote is issued; its approval is the members’');
      const approvalBody = { ...body, parameters: { ...body.parameters, unsignedTransaction: withdrawal.body.unsignedTransaction } };
      const approval = await post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: withdrawal.body.transactionId, signedBody: approvalBody, webAuthnStamp: new SoftwareAuthenticator().stamp(JSON.stringify(approvalBody)) });
      assert.deepEqual([approval.status, approval.body.code], [409, 'member_approval_required'], approval.text);
    });

    it('refuses individual accounts (409) and another integrator’s entity (404, as a missing one)', async () => {
      const alice = await createCustomer(server, acme);
      const individual = await post('/v1/submit/create-entity-wallet', { accountId: alice.accountId });
      assert.deepEqual([individual.status, individual.body.code], [409, 'entity_account_required']);
      const entity = await post('/v1/submit/create-entity-account', { entityInfo: companyInfo(), entityDocuments: entityDocs(), serviceTermsSignedAt: signedAt() });
      const foreign = await post('/v1/submit/create-entity-wallet', { accountId: entity.body.accountId }, globex);
      const missing = await post('/v1/submit/create-entity-wallet', { accountId: randomUUID() }, globex);
      assert.equal(foreign.status, 404);
      assert.deepEqual({ ...foreign.body, requestId: 0, instance: 0 }, { ...missing.body, requestId: 0, instance: 0 });
    });
  });
}
