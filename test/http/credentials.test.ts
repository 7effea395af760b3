import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateP256KeyPair, importPrivateKey } from '../../src/crypto/p256.js';
import { backends } from '../harness/backends.js';
import { eventsFor } from '../harness/db.js';
import { useTenants } from '../harness/tenants.js';
import type { ChangeData, CredentialView, FieldError } from '../harness/types.js';

for (const backend of backends()) {
  describe(`integrator credentials [${backend}]`, () => {
    const { server, tenants: [acme, globex] } = useTenants(backend, ['Acme', 'Globex']);

    it('issues a generated key pair once, and the private key signs for the integrator', async () => {
      const res = await acme.client.post('/v1/integrator/credentials', { label: 'ci', scope: 'read_write' });
      assert.equal(res.status, 201);
      assert.match(res.body.privateKey, /^0x[0-9a-f]{64}$/);
      assert.equal(importPrivateKey(res.body.privateKey).publicKey, res.body.credential.publicKey);
      assert.deepEqual(Object.keys(res.body.credential).sort(), ['active', 'createdAt', 'credentialId', 'label', 'publicKey', 'scope', 'updatedAt']);
      const who = await server.clientFor(res.body.privateKey).get('/v1/integrator/whoami');
      assert.equal(who.body.integratorId, acme.integratorId);
      assert.equal(who.body.label, 'ci');
      // The listing never shows a private key.
      const list = await acme.client.get('/v1/integrator/credentials');
      assert.ok(!list.text.includes(res.body.privateKey.slice(2)));
    });

    it('registers a bring-your-own public key without returning any private key', async () => {
      const mine = generateP256KeyPair();
      const res = await acme.client.post('/v1/integrator/credentials', { label: 'byok', scope: 'read_only', publicKey: mine.publicKey.toUpperCase().replace('0X', '0x') });
      assert.equal(res.status, 201);
      assert.equal(res.body.privateKey, undefined);
      assert.equal(res.body.credential.publicKey, mine.publicKey, 'stored in canonical lower case');
      assert.equal((await server.clientFor(mine.privateKey).get('/v1/integrator/whoami')).status, 200);
    });

    it('refuses a public key that already exists, for this or another integrator (409)', async () => {
      const res = await acme.client.post('/v1/integrator/credentials', { label: 'dup', scope: 'read_only', publicKey: globex.publicKey });
      assert.equal(res.status, 409);
      assert.equal(res.body.code, 'credential_exists');
    });

    it('validates the request body field by field', async () => {
      const res = await acme.client.post('/v1/integrator/credentials', { label: '', scope: 'admin', publicKey: '0x1234', extra: true });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'validation_failed');
      const byPointer = Object.fromEntries(res.body.errors.map((e: FieldError) => [e.pointer, e.code]));
      assert.deepEqual(byPointer, { '/label': 'too_short', '/scope': 'invalid_value', '/publicKey': 'invalid_format', '/extra': 'unknown_field' });
      const missing = await acme.client.post('/v1/integrator/credentials', {});
      assert.deepEqual(missing.body.errors.map((e: FieldError) => e.pointer).sort(), ['/label', '/scope']);
      // A well-formed hex string that is not on the curve.
      const offCurve = await acme.client.post('/v1/integrator/credentials', { label: 'x', scope: 'read_only', publicKey: `0x02${'f'.repeat(64)}` });
      assert.equal(offCurve.status, 400);
      assert.equal(offCurve.body.errors[0].pointer, '/publicKey');
    });

    it('lists only the calling integrator’s credentials', async () => {
      const res = await globex.client.get('/v1/integrator/credentials');
      assert.equal(res.status, 200);
      assert.ok(res.body.credentials.length >= 1);
      assert.ok(res.body.credentials.every((c: CredentialView) => c.publicKey !== acme.publicKey));
      assert.ok(res.body.credentials.some((c: CredentialView) => c.publicKey === globex.publicKey));
    });

    it('updates label, scope and active of another credential and records credential.updated', async () => {
      const created = await acme.client.post('/v1/integrator/credentials', { label: 'before', scope: 'read_write' });
      const key = created.body.credential.publicKey;
      const res = await acme.client.patch(`/v1/integrator/credentials/${key}`, { label: 'after', scope: 'read_only', active: false });
      assert.equal(res.status, 200);
      assert.equal(res.body.label, 'after');
      assert.equal(res.body.scope, 'read_only');
      assert.equal(res.body.active, false);
      const rows = await eventsFor(server.database, created.body.credential.credentialId);
      assert.deepEqual(rows.map((r) => [r.type, r.sequence]), [['credential.created', 1], ['credential.updated', 2]]);
      const data = rows[1]!.data as ChangeData<CredentialView, 'label' | 'scope' | 'active'>;
      assert.deepEqual(data.previousAttributes.label, 'before');
      assert.deepEqual(data.previousAttributes.scope, 'read_write');
      assert.deepEqual(data.previousAttributes.active, true);
      assert.equal(data.object.label, 'after');
      // An update that changes nothing writes no event.
      await acme.client.patch(`/v1/integrator/credentials/${key}`, { label: 'after' });
      assert.equal((await eventsFor(server.database, created.body.credential.credentialId)).length, 2);
    });

    it('refuses an empty update body', async () => {
      const res = await acme.client.patch(`/v1/integrator/credentials/${globex.publicKey}`, {});
      assert.equal(res.status, 400);
    });

    it('forbids a credential to deactivate, rescope or delete itself, but allows relabelling', async () => {
      for (const patch of [{ active: false }, { scope: 'read_only' }]) {
        const res = await acme.client.patch(`/v1/integrator/credentials/${acme.publicKey}`, patch);
        assert.equal(res.status, 409, JSON.stringify(patch));
        assert.equal(res.body.code, 'cannot_modify_own_credential');
      }
      const del = await acme.client.delete(`/v1/integrator/credentials/${acme.publicKey}`);
      assert.equal(del.status, 409);
      assert.equal(del.body.code, 'cannot_modify_own_credential');
      const relabel = await acme.client.patch(`/v1/integrator/credentials/${acme.publicKey}`, { label: 'primary', scope: 'read_write', active: true });
      assert.equal(relabel.status, 200);
      assert.equal(relabel.body.label, 'primary');
      assert.equal((await acme.client.get('/v1/integrator/whoami')).status, 200);
    });

    it('answers the same 404 for another integrator’s key as for a missing one', async () => {
      const missing = generateP256KeyPair().publicKey;
      const foreign = await acme.client.patch(`/v1/integrator/credentials/${globex.publicKey}`, { label: 'hijack' });
      const absent = await acme.client.patch(`/v1/integrator/credentials/${missing}`, { label: 'hijack' });
      assert.equal(foreign.status, 404);
      const strip = (b: object) => ({ ...b, requestId: undefined });
      assert.deepEqual(strip(foreign.body), strip(absent.body));
      const delForeign = await acme.client.delete(`/v1/integrator/credentials/${globex.publicKey}`);
      const delAbsent = await acme.client.delete(`/v1/integrator/credentials/${missing}`);
      assert.equal(delForeign.status, 404);
      assert.deepEqual(strip(delForeign.body), strip(delAbsent.body));
      // Globex's credential is untouched.
      const who = await globex.client.get('/v1/integrator/whoami');
      assert.equal(who.status, 200);
      assert.equal(who.body.label, 'bootstrap');
    });

    it('answers 400 for a malformed key in the path', async () => {
      for (const bad of ['nope', '0x1234', `0x02${'f'.repeat(64)}`]) {
        const res = await acme.client.patch(`/v1/integrator/credentials/${bad}`, { label: 'x' });
        assert.equal(res.status, 400, bad);
        assert.equal(res.body.errors[0].pointer, '/pubkey');
        assert.equal(res.body.errors[0].in, 'path');
      }
    });

    it('deletes a credential (204), which then cannot authenticate, and records credential.deleted', async () => {
      const created = await acme.client.post('/v1/integrator/credentials', { label: 'doomed', scope: 'read_write' });
      const doomed = server.clientFor(created.body.privateKey);
      // Frozen, so that the wall clock crossing a second boundary cannot make the replay below a new request.
      server.clock.freeze(server.clock.now());
      try {
        const res = await acme.client.delete(`/v1/integrator/credentials/${created.body.credential.publicKey}`);
        assert.equal(res.status, 204);
        assert.equal(res.text, '');
        const after = await doomed.get('/v1/integrator/whoami');
        assert.equal(after.status, 401);
        assert.equal(after.body.code, 'unknown_credential');
        const rows = await eventsFor(server.database, created.body.credential.credentialId);
        assert.deepEqual(rows.map((r) => r.type), ['credential.created', 'credential.deleted']);
        // The same DELETE again in the same second is a replay (409); signed a second later it is a plain 404.
        assert.equal((await acme.client.delete(`/v1/integrator/credentials/${created.body.credential.publicKey}`)).body.code, 'duplicate_request');
        server.clock.advance(1000);
        assert.equal((await acme.client.delete(`/v1/integrator/credentials/${created.body.credential.publicKey}`)).status, 404);
      } finally {
        server.clock.thaw();
      }
    });

    it('writes nothing when a request fails (no partial writes)', async () => {
      const before = (await acme.client.get('/v1/integrator/credentials')).body.credentials.length;
      await acme.client.post('/v1/integrator/credentials', { label: 'x', scope: 'nope' });
      await acme.client.post('/v1/integrator/credentials', { label: 'x', scope: 'read_only', publicKey: globex.publicKey });
      const afterCount = (await acme.client.get('/v1/integrator/credentials')).body.credentials.length;
      assert.equal(afterCount, before);
    });
  });
}
