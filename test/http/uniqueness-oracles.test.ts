import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { generateP256KeyPair } from '../../src/crypto/p256.js';
import { accounts, authenticators, integrators, transactions, usedStampChallenges } from '../../src/db/schema/index.js';
import { ApiError } from '../../src/domain/errors.js';
import { createIntegrator } from '../../src/domain/integrators/integrators.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, settled, signedBody, unsignedTransfer, type Customer } from '../harness/customers.js';
import { californian, doc, personDocs, signedAt } from '../harness/fixtures.js';
import type { SeededIntegrator } from '../harness/server.js';
import { useTenantsOnChain } from '../harness/tenants.js';
import type { DocumentView } from '../harness/types.js';

/**
 * What one integrator's requests may reveal about another's data through uniqueness: nothing. Passkey credential
 * ids are unique per integrator; integrator public keys stay globally unique (authentication looks a key up
 * alone), and a taken key gets one answer whoever holds it (docs/authentication.md).
 */
for (const backend of backends()) {
  describe(`no cross-integrator uniqueness oracles [${backend}]`, () => {
    const { server, chain, tenants: [acme, globex] } = useTenantsOnChain(backend, 8453, ['Acme', 'Globex']);

    const authenticatorRow = async (integratorId: string, userId: string) => {
      const rows = await server.database.db
        .select()
        .from(authenticators)
        .where(and(eq(authenticators.integratorId, integratorId), eq(authenticators.userId, userId)));
      assert.equal(rows.length, 1);
      return rows[0]!;
    };

    const send = async (who: SeededIntegrator, customer: Customer, passkey: SoftwareAuthenticator, nonce: number) => {
      const body = signedBody(server, customer, unsignedTransfer(8453, nonce));
      server.clock.advance(1000);
      const request = { transactionId: randomUUID(), signedBody: body, webAuthnStamp: passkey.stamp(JSON.stringify(body)) };
      return { request, res: await who.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', request) };
    };

    it('a passkey credential id another integrator registered is accepted (201); each integrator’s stamps resolve to its own row only', async () => {
      const credentialId = randomBytes(32);
      // Two authenticators with one credential id and different keys: a stamp checked against the wrong row fails.
      const acmeKey = new SoftwareAuthenticator({ credentialId });
      const globexKey = new SoftwareAuthenticator({ credentialId });
      const alice = await createCustomer(server, acme, { passkey: acmeKey });
      const bob = await createCustomer(server, globex, { passkey: globexKey });
      const aliceRow = await authenticatorRow(acme.integratorId, alice.userId);
      const bobRow = await authenticatorRow(globex.integratorId, bob.userId);
      assert.equal(aliceRow.credentialId, bobRow.credentialId);
      assert.notEqual(aliceRow.publicKey, bobRow.publicKey);
      await chain.setBalance(alice.walletAddress, ETH);
      await chain.setBalance(bob.walletAddress, ETH);

      // The same integrator still cannot register it twice.
      server.clock.advance(1000);
      const twice = await globex.client.post('/v1/submit/create-user', {
        userInfo: californian({ email: `twice.${randomUUID()}@example.com` }),
        partnerSignedAgreementId: 'agr',
        serviceTermsSignedAt: signedAt(),
        authenticators: [globexKey.authenticator()],
      });
      assert.deepEqual([twice.status, twice.body.code], [409, 'authenticator_exists'], twice.text);

      const fromAlice = await send(acme, alice, acmeKey, 0);
      assert.equal(fromAlice.res.status, 201, fromAlice.res.text);
      const fromBob = await send(globex, bob, globexKey, 0);
      assert.equal(fromBob.res.status, 201, fromBob.res.text);
      assert.equal((await settled(acme, fromAlice.request.transactionId)).status, 'completed');
      assert.equal((await settled(globex, fromBob.request.transactionId)).status, 'completed');

      for (const [who, from, row] of [
        [acme, fromAlice, aliceRow],
        [globex, fromBob, bobRow],
      ] as const) {
        const [tx] = await server.database.db
          .select()
          .from(transactions)
          .where(and(eq(transactions.integratorId, who.integratorId), eq(transactions.transactionId, from.request.transactionId)));
        assert.equal(tx!.authenticatorId, row.id, 'the transaction names its own integrator’s passkey');
        const [used] = await server.database.db.select().from(usedStampChallenges).where(eq(usedStampChallenges.transactionRowId, tx!.id));
        assert.equal(used!.authenticatorId, row.id);
        assert.equal(used!.integratorId, who.integratorId);
      }
      // Each counter moved on its own row only.
      assert.equal((await authenticatorRow(acme.integratorId, alice.userId)).signCount, acmeKey.signCount);
      assert.equal((await authenticatorRow(globex.integratorId, bob.userId)).signCount, globexKey.signCount);

      // Alice's passkey stamping for Bob's account (Globex's request) is checked against Globex's row: refused.
      const crossed = await send(globex, bob, acmeKey, 1);
      assert.deepEqual([crossed.res.status, crossed.res.body.code, crossed.res.body.reason], [422, 'invalid_stamp', 'invalid_signature'], crossed.res.text);
    });

    it('an integrator public key already registered gets one answer, byte for byte, whether the caller or another integrator holds it', async () => {
      const own = generateP256KeyPair().publicKey;
      server.clock.advance(1000);
      const added = await acme.client.post('/v1/integrator/credentials', { label: 'own', scope: 'read_only', publicKey: own });
      assert.equal(added.status, 201, added.text);

      const attempts = [
        ['the caller’s own added key', own],
        ['the caller’s own bootstrap key', acme.publicKey],
        ['another integrator’s key', globex.publicKey],
        ['another integrator’s key in upper case', globex.publicKey.toUpperCase().replace('0X', '0x')],
      ] as const;
      const answers: { what: string; status: number; headers: string; text: string }[] = [];
      for (const [what, publicKey] of attempts) {
        server.clock.advance(1000);
        const res = await acme.client.post('/v1/integrator/credentials', { label: 'again', scope: 'read_only', publicKey });
        const requestId = res.body.requestId as string;
        assert.match(requestId, /^req_/);
        const headers = [...res.headers.entries()]
          .filter(([name]) => !['date', 'x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit-remaining', 'ratelimit-reset', 'keep-alive', 'connection'].includes(name))
          .map(([name, value]) => `${name}: ${value}`)
          .sort()
          .join('\n');
        answers.push({ what, status: res.status, headers, text: res.text.replace(requestId, 'REQUEST_ID') });
      }
      for (const answer of answers.slice(1)) {
        assert.deepEqual({ ...answer, what: '' }, { ...answers[0]!, what: '' }, `${answer.what} answers like ${answers[0]!.what}`);
      }
      assert.equal(answers[0]!.status, 409);
      assert.equal(JSON.parse(answers[0]!.text).code, 'credential_exists');
      for (const answer of answers) {
        assert.ok(!answer.text.includes(globex.integratorId) && !answer.text.includes('Globex'), 'the holder is never named');
      }
    });

    it('the operator CLI’s create (createIntegrator) refuses a taken key with the same error whoever holds it, and writes nothing', async () => {
      const before = (await server.database.db.select().from(integrators)).length;
      const failures: string[] = [];
      for (const publicKey of [acme.publicKey, globex.publicKey]) {
        const err = await createIntegrator(server.database, { name: 'Copycat', scope: 'read_write', publicKey }, server.clock.now()).then(
          () => assert.fail('a taken key was accepted'),
          (e: unknown) => e,
        );
        assert.ok(err instanceof ApiError, String(err));
        failures.push(JSON.stringify({ code: err.code, status: err.status, detail: err.detail, options: err.options }));
      }
      assert.equal(failures[0], failures[1]);
      assert.equal(JSON.parse(failures[0]!).code, 'credential_exists');
      assert.equal((await server.database.db.select().from(integrators)).length, before, 'no integrator was left behind');
    });

    it('a self-custodial wallet address and a document another integrator has are accepted as new, with no finding', async () => {
      const wallet = `0x${randomBytes(20).toString('hex')}`;
      const passport = doc('passport', 'USA');
      const created = [];
      for (const who of [acme, globex]) {
        server.clock.advance(1000);
        const res = await who.client.post('/v1/submit/create-individual-account', {
          userInfo: californian({ email: `self.${randomUUID()}@example.com` }),
          serviceTermsSignedAt: signedAt(),
          verificationDocuments: [passport, ...personDocs().filter((d) => d.documentType !== 'passport')],
          walletAddress: wallet,
        });
        assert.equal(res.status, 201, res.text);
        created.push(res.body);
      }
      const holders = (await server.database.db.select({ address: accounts.walletAddress, integratorId: accounts.integratorId }).from(accounts))
        .filter((a) => a.address?.toLowerCase() === wallet)
        .map((a) => a.integratorId)
        .sort();
      assert.deepEqual(holders, [acme.integratorId, globex.integratorId].sort(), 'both integrators’ accounts hold the address');
      const globexPassport = created[1].verificationDocuments.find((d: DocumentView) => d.documentType === 'passport');
      assert.equal(globexPassport.errors, null, `no duplicate_document finding across integrators: ${JSON.stringify(globexPassport)}`);
    });
  });
}
