import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TransactionView } from '../../src/domain/transactions/transaction-view.js';
import type { SoftwareAuthenticator } from './authenticator.js';
import { settled, signedBody } from './customers.js';
import { berliner, companyInfo, entityDocs, personDocs, signedAt } from './fixtures.js';
import type { SeededIntegrator, TestServer } from './server.js';

/** What the bank-account and withdrawal helpers need of a customer (a harness Customer, or a test's own payer). */
export interface Payer {
  accountId: string;
  organizationId: string;
  walletAddress: string;
  passkey: SoftwareAuthenticator;
}

let accountNumbers = 0;

/** A signed POST in a second of its own (the replay guard refuses an identical signed write within one). */
function post(server: TestServer, who: SeededIntegrator, path: string, body: unknown) {
  server.clock.advance(1000);
  return who.client.post(path, body);
}

/**
 * A verified USD (ACH) bank account of an account whose KYC name is Maria Garcia (the californian fixture's); each
 * call a new account number unless one is given. Its bankAccountId.
 */
export async function verifiedBankAccount(server: TestServer, who: SeededIntegrator, accountId: string, accountNumber = String(40_000_000 + ++accountNumbers)): Promise<string> {
  const res = await post(server, who, '/v1/submit/create-bank-account', { accountId, currency: 'USD', accountHolderName: 'Maria Garcia', us: { accountNumber, routingNumber: '021000021', accountType: 'checking' } });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.status, 'verified', 'the holder name matches the KYC name');
  return res.body.bankAccountId;
}

/**
 * A USD withdrawal of the payer to the bank account, approved with the payer's passkey and on chain: in
 * funds_in_transfer, its fiat payout pending. The wallet must hold the crypto (anvil.setBalance).
 */
export async function withdrawalInTransfer(server: TestServer, who: SeededIntegrator, payer: Payer, bankAccountId: string, amount = '1.00'): Promise<TransactionView> {
  const created = await post(server, who, '/v1/submit/create-withdrawal', { accountId: payer.accountId, bankAccountId, chainId: 8453, amount, currency: 'USD' });
  assert.equal(created.status, 201, created.text);
  server.clock.advance(1000);
  const body = signedBody(server, payer, created.body.unsignedTransaction);
  const approved = await post(server, who, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: created.body.transactionId, signedBody: body, webAuthnStamp: payer.passkey.stamp(JSON.stringify(body)) });
  assert.equal(approved.status, 201, approved.text);
  const moved: TransactionView = await settled(who, created.body.transactionId);
  assert.equal(moved.status, 'funds_in_transfer', JSON.stringify(moved));
  return moved;
}

/** An active entity account (a representative and 100 % UBO approved, then the entity, through the sandbox). Its accountId. */
export async function activeEntity(server: TestServer, who: SeededIntegrator): Promise<string> {
  const entity = await post(server, who, '/v1/submit/create-entity-account', { entityInfo: companyInfo(), entityDocuments: entityDocs(), serviceTermsSignedAt: signedAt() });
  assert.equal(entity.status, 201, entity.text);
  const rep = await post(server, who, '/v1/submit/create-associated-person', {
    accountId: entity.body.accountId,
    userInfo: berliner({ email: `rep.${randomUUID()}@example.de` }),
    beneficiaryDetails: { beneficiaryType: ['representative', 'ubo'], title: 'Director', ownershipPercentage: 100 },
    verificationDocuments: personDocs('DEU'),
  });
  assert.equal(rep.status, 201, rep.text);
  assert.equal((await post(server, who, '/v1/sandbox/simulate-verification', { beneficiaryId: rep.body.beneficiaryId, outcome: 'approve' })).status, 200);
  const active = await post(server, who, '/v1/sandbox/simulate-verification', { accountId: entity.body.accountId, outcome: 'approve' });
  assert.equal(active.body.verificationStatus, 'active', active.text);
  return entity.body.accountId;
}
