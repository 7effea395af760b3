import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { backends } from '../harness/backends.js';
import { createCustomer } from '../harness/customers.js';
import type { TestServer } from '../harness/server.js';
import { useTenants } from '../harness/tenants.js';

// Security review, class 2: stored idempotent answers are sealed (they carry personal data and, for two operations,
// secrets), and an answer carrying a secret is replayed only to the credential that made the request.

for (const backend of backends()) {
  describe(`idempotency records hold no secret in clear [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme'], { OTP_RESEND_SECONDS: '0' });
    let second: ReturnType<TestServer['clientFor']>;

    before(async () => {
      const issued = await acme.client.post('/v1/integrator/credentials', { label: 'second', scope: 'read_write' });
      assert.equal(issued.status, 201, issued.text);
      second = server.clientFor(issued.body.privateKey);
    });

    /** Every stored idempotency row, each column as text. */
    const storedRows = async (): Promise<string> => {
      const result = await server.database.db.execute<{ row: string }>(sql`select t::text as row from idempotency_keys t`);
      return (result as unknown as { rows: { row: string }[] }).rows.map((r) => r.row).join('\n');
    };

    it('a generated private key is sealed at rest, replayed to its own credential, refused to another one', async () => {
      server.clock.advance(1000);
      const headers = { 'Idempotency-Key': 'cred-key-1' };
      const first = await acme.client.post('/v1/integrator/credentials', { label: 'ci', scope: 'read_only' }, { headers });
      assert.equal(first.status, 201, first.text);
      const privateKey: string = first.body.privateKey;
      assert.match(privateKey, /^0x[0-9a-f]{64}$/);

      const rows = await storedRows();
      assert.ok(rows.includes('cred-key-1'), 'the record exists');
      assert.ok(!rows.includes(privateKey.slice(2)), 'the private key is not in any column in clear');
      assert.ok(!rows.includes(first.body.credential.publicKey), 'nor the rest of the answer');

      server.clock.advance(1000);
      const replay = await acme.client.post('/v1/integrator/credentials', { label: 'ci', scope: 'read_only' }, { headers });
      assert.equal(replay.status, 201);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.equal(replay.body.privateKey, privateKey, 'the same credential gets its answer back');

      server.clock.advance(1000);
      const other = await second.post('/v1/integrator/credentials', { label: 'ci', scope: 'read_only' }, { headers });
      assert.equal(other.status, 422, other.text);
      assert.equal(other.body.code, 'idempotency_key_other_credential');
      assert.ok(!other.text.includes(privateKey.slice(2)), 'the other credential learns nothing of the key');
    });

    it('an OTP approval token is sealed at rest and replayed to its own credential only', async () => {
      const alice = await createCustomer(server, acme);
      server.clock.advance(1000);
      assert.equal((await acme.client.post('/v1/otp/init', { userId: alice.userId, channel: 'email' })).status, 201);
      const code = (await acme.client.get(`/v1/sandbox/otp-outbox?userId=${alice.userId}`)).body.data[0].code as string;
      const headers = { 'Idempotency-Key': 'otp-verify-1' };
      server.clock.advance(1000);
      const verified = await acme.client.post('/v1/otp/verify', { userId: alice.userId, code }, { headers });
      assert.equal(verified.status, 200, verified.text);
      const token: string = verified.body.approvalToken;

      const rows = await storedRows();
      assert.ok(!rows.includes(token), 'the approval token is not stored in clear');
      assert.ok(!rows.includes(token.slice(5)), 'not even its random part');

      server.clock.advance(1000);
      const replay = await acme.client.post('/v1/otp/verify', { userId: alice.userId, code }, { headers });
      assert.deepEqual([replay.status, replay.body.approvalToken], [200, token]);
      server.clock.advance(1000);
      const other = await second.post('/v1/otp/verify', { userId: alice.userId, code }, { headers });
      assert.deepEqual([other.status, other.body.code], [422, 'idempotency_key_other_credential']);
    });

    it('answers without secrets are sealed too (personal data) and replayed to any credential of the integrator', async () => {
      server.clock.advance(1000);
      const headers = { 'Idempotency-Key': 'user-1' };
      const body = {
        userInfo: { firstName: 'Zelda', lastName: 'Quartermaine', email: 'zelda.quartermaine@example.com' },
        partnerSignedAgreementId: 'agr-9',
        serviceTermsSignedAt: new Date(server.clock.now().getTime() - 60_000).toISOString(),
      };
      const created = await acme.client.post('/v1/submit/create-user', body, { headers });
      assert.equal(created.status, 201, created.text);
      const rows = await storedRows();
      assert.ok(!rows.includes('Quartermaine') && !rows.includes('zelda.quartermaine'), 'no personal data in clear');

      server.clock.advance(1000);
      const replay = await second.post('/v1/submit/create-user', body, { headers });
      assert.deepEqual([replay.status, replay.body.userId, replay.headers.get('idempotent-replayed')], [201, created.body.userId, 'true']);
    });

    it('a sealed answer moved to another record does not open (integrator and key are bound)', async () => {
      const result = await server.database.db.execute<{ key: string; response_sealed: string }>(
        sql`select key, response_sealed from idempotency_keys where key in ('user-1', 'cred-key-1') order by key`,
      );
      const [cred, user] = (result as unknown as { rows: { key: string; response_sealed: string }[] }).rows;
      assert.ok(cred && user);
      const integratorId = acme.integratorId;
      assert.throws(() => server.secrets.open(user.response_sealed, `idempotency:${integratorId}:cred-key-1`));
      assert.doesNotThrow(() => server.secrets.open(user.response_sealed, `idempotency:${integratorId}:user-1`));
    });
  });
}
