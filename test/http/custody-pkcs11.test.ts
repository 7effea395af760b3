import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { renameSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { count, eq } from 'drizzle-orm';
import { hexToBytes, type Hex } from 'viem';
import { publicKeyToAddress } from 'viem/accounts';
import { events, transactions, usedStampChallenges, users, wallets } from '../../src/db/schema/index.js';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, settled, signedBody, unsignedTransfer, type Customer } from '../harness/customers.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import { dumpDatabase, findWalletKeys } from '../harness/key-search.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';
import { createTestToken, SOFTHSM_MODULE, softHsmMissing, type TestToken } from '../harness/softhsm.js';
import { approveAs, teamWithPendingTransfer } from '../harness/entity-team.js';

/*
 * CUSTODY_KEYS=pkcs11 on a SoftHSM2 token (docs/key-management.md): wallets are generated inside the token, transfers
 * are signed there and mined on anvil, and a token that goes away answers 503 custody_unavailable with nothing written.
 */
const skip = softHsmMissing('the PKCS#11 custody tests');

for (const backend of backends()) {
  describe(`custody keys on a PKCS#11 token [${backend}]`, { skip: skip ? `${SOFTHSM_MODULE} is missing` : false }, () => {
    let token: TestToken;
    let node: Anvil;
    let server: TestServer;
    let acme: SeededIntegrator;
    let alice: Customer;
    let nonce = 0;

    before(async () => {
      token = await createTestToken();
      node = await startAnvil(8453);
      server = await startServer(backend, { CHAIN_RPC_URLS: `8453=${node.url}`, ...token.env });
      acme = await server.seedIntegrator('Acme');
      alice = await createCustomer(server, acme);
      await node.setBalance(alice.walletAddress, ETH);
    });
    after(async () => {
      await server?.close();
      await node?.stop();
    });

    const walletRow = async (address: string) => (await server.database.db.select().from(wallets).where(eq(wallets.address, address)))[0]!;
    const transfer = (who: Customer, txNonce: number) => {
      const body = signedBody(server, who, unsignedTransfer(8453, txNonce));
      return { transactionId: randomUUID(), signedBody: body, webAuthnStamp: who.passkey.stamp(JSON.stringify(body)) };
    };
    const send = (request: ReturnType<typeof transfer>) => acme.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', request);

    it('creates a wallet inside the token: the row keeps its label and public key, and no sealed key', async () => {
      assert.equal(server.custody.backend, 'pkcs11');
      const row = await walletRow(alice.walletAddress);
      assert.equal(row.privateKeySealed, null);
      assert.equal(row.keyLabel, `wallet:${row.id}`);
      assert.equal(publicKeyToAddress(row.publicKey as Hex), alice.walletAddress);
      assert.deepEqual(await server.custody.token!.publicKey(row.keyLabel), Buffer.from(hexToBytes(row.publicKey as Hex)));
    });

    it('signs a transfer on the token; it is mined on anvil from the wallet’s address', async () => {
      server.clock.advance(1000);
      const request = transfer(alice, nonce++);
      const res = await send(request);
      assert.equal(res.status, 201, res.text);
      assert.equal((await settled(acme, request.transactionId)).status, 'completed');
      const receipt = await server.chains.get(8453)!.receipt(res.body.transactionHash);
      assert.equal(receipt?.from.toLowerCase(), alice.walletAddress.toLowerCase());
    });

    it('signs for several requests at once, each mined', async () => {
      const customers = await Promise.all([1, 2, 3, 4].map(() => createCustomer(server, acme)));
      await Promise.all(customers.map((c) => node.setBalance(c.walletAddress, ETH)));
      server.clock.advance(1000);
      const requests = [...customers.map((c) => transfer(c, 0)), transfer(alice, nonce++)];
      const answers = await Promise.all(requests.map(send));
      answers.forEach((res) => assert.equal(res.status, 201, res.text));
      for (const request of requests) assert.equal((await settled(acme, request.transactionId)).status, 'completed');
    });

    it('a dump of the database holds no wallet’s private key, in clear or sealed', async () => {
      const rows = await server.database.db.select().from(wallets);
      assert.ok(rows.length >= 5);
      assert.ok(rows.every((row) => row.privateKeySealed === null && row.keyLabel && row.publicKey));
      assert.deepEqual(findWalletKeys(await dumpDatabase(server.database), rows, server.secrets), []);
    });

    it('an entity’s wallet is on the token too, and the approval that reaches the quorum signs there', async () => {
      const team = await teamWithPendingTransfer(server, node, acme);
      const row = await walletRow(team.account.walletAddress);
      assert.deepEqual([row.privateKeySealed, row.keyLabel], [null, `wallet:${row.id}`]);
      const approved = await approveAs(server, acme, team.account, team.approver, team.transactionId);
      assert.equal(approved.status, 200, approved.text);
      assert.equal((await settled(acme, team.transactionId)).status, 'completed');
    });

    // Last: SoftHSM2 does not take a token back once its files went away (a real HSM reconnects as its vendor says).
    it('the token gone mid-run: 503 custody_unavailable with Retry-After, and nothing written', async () => {
      // A proposal one approval short of its quorum, made while the token was there.
      const team = await teamWithPendingTransfer(server, node, acme);
      renameSync(token.dir, `${token.dir}.gone`);
      const counts = async () => ({
        transactions: (await server.database.db.select({ n: count() }).from(transactions))[0]!.n,
        stamps: (await server.database.db.select({ n: count() }).from(usedStampChallenges))[0]!.n,
        events: (await server.database.db.select({ n: count() }).from(events))[0]!.n,
        users: (await server.database.db.select({ n: count() }).from(users))[0]!.n,
      });
      const before = await counts();
      server.clock.advance(1000);
      const request = transfer(alice, nonce);
      const res = await send(request);
      assert.equal(res.status, 503, res.text);
      assert.equal(res.body.code, 'custody_unavailable');
      assert.equal(res.headers.get('retry-after'), '5');
      assert.ok(!JSON.stringify(res.body).includes('CKR_'), 'the token’s error is the operator’s, not the client’s');
      const lookup = await acme.client.get(`/v1/query/get-transaction?transactionId=${request.transactionId}`);
      assert.equal(lookup.status, 404, 'no transaction was recorded');

      // The approval that reaches the quorum signs inside its database transaction: it is rolled back whole.
      server.clock.advance(1000);
      const approval = await approveAs(server, acme, team.account, team.approver, team.transactionId);
      assert.equal(approval.status, 503, approval.text);
      assert.equal(approval.body.code, 'custody_unavailable');
      const proposal = await acme.client.get(`/v1/query/get-transaction?transactionId=${team.transactionId}`);
      assert.deepEqual([proposal.body.status, proposal.body.approvals?.received.length], ['created', 1], 'still one approval of two');

      // A new wallet needs the token too: the account is not created either.
      server.clock.advance(1000);
      const created = await acme.client.post('/v1/submit/create-individual-account', { userInfo: californian({ email: `gone.${process.pid}@example.com` }), serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs(), authenticators: [new SoftwareAuthenticator().authenticator()] });
      assert.equal(created.status, 503, created.text);
      assert.equal(created.body.code, 'custody_unavailable');
      assert.deepEqual(await counts(), before, 'no transaction, used stamp, event or user was written');
    });
  });
}
