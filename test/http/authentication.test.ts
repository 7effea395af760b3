import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createClient } from '../harness/client.js';
import { encodeDerSignature, flipS, parseDerSignature } from '../../src/crypto/der-signature.js';
import { generateP256KeyPair, importPrivateKey } from '../../src/crypto/p256.js';
import { signRequest } from '../../src/crypto/request-signature.js';
import { backends } from '../harness/backends.js';
import { useTenants } from '../harness/tenants.js';
import type { FieldError, Problem } from '../harness/types.js';

for (const backend of backends()) {
  describe(`authentication [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme']);

    /** Sends a request with explicitly built auth headers. */
    async function send(method: string, path: string, headers: Record<string, string>, body?: string) {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    }

    function signed(privateKey: string, method: string, path: string, body?: string, ts = server.clock.seconds()) {
      return signRequest(importPrivateKey(privateKey), String(ts), method, path, body);
    }

    function assertProblem(res: { status: number; body: Problem; headers: Headers }, status: number, code: string) {
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.equal(res.body.code, code);
      assert.equal(res.body.status, status);
      assert.equal(res.body.type, `/problems/${code}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(res.body.requestId, res.headers.get('x-request-id'));
    }

    it('accepts a signature over the path as received (with /v1)', async () => {
      const res = await acme.client.get('/v1/integrator/whoami');
      assert.equal(res.status, 200);
      assert.equal(res.body.integratorId, acme.integratorId);
      assert.equal(res.body.publicKey, acme.publicKey);
    });

    it('accepts a signature over the path without the leading /v1', async () => {
      const res = await acme.client.get('/v1/integrator/whoami', { signedPath: 'without-v1' });
      assert.equal(res.status, 200);
      const post = await acme.client.post('/v1/integrator/credentials', { label: 'no-v1', scope: 'read_only' }, { signedPath: 'without-v1' });
      assert.equal(post.status, 201);
    });

    it('covers the query string in the signed path', async () => {
      const headers = signed(acme.privateKey, 'GET', '/v1/integrator/whoami?a=1');
      assert.equal((await send('GET', '/v1/integrator/whoami?a=1', { ...headers })).status, 200);
      assertProblem(await send('GET', '/v1/integrator/whoami?a=2', { ...headers }), 401, 'invalid_signature');
    });

    it('signs the raw body bytes, not a re-serialization', async () => {
      // Unusual spacing and key order: valid JSON whose re-serialization would differ.
      const raw = '{ "scope" : "read_only",   "label":"raw-bytes" }';
      const ok = await acme.client.request('POST', '/v1/integrator/credentials', { rawBody: raw });
      assert.equal(ok.status, 201, ok.text);
      const reserialized = JSON.stringify(JSON.parse(raw));
      const headers = signed(acme.privateKey, 'POST', '/v1/integrator/credentials', reserialized);
      assertProblem(await send('POST', '/v1/integrator/credentials', { ...headers }, raw), 401, 'invalid_signature');
    });

    it('reports each missing header', async () => {
      const res = await send('GET', '/v1/integrator/whoami', {});
      assertProblem(res, 401, 'missing_auth_headers');
      assert.deepEqual(res.body.errors.map((e: FieldError) => e.pointer).sort(), ['/X-Pubkey', '/X-Signature', '/X-Timestamp']);
      const some = signed(acme.privateKey, 'GET', '/v1/integrator/whoami');
      const partial = await send('GET', '/v1/integrator/whoami', { 'X-Pubkey': some['X-Pubkey'], 'X-Timestamp': some['X-Timestamp'] });
      assertProblem(partial, 401, 'missing_auth_headers');
      assert.deepEqual(partial.body.errors.map((e: FieldError) => e.pointer), ['/X-Signature']);
    });

    it('rejects malformed public keys', async () => {
      const h = signed(acme.privateKey, 'GET', '/v1/integrator/whoami');
      for (const bad of [
        acme.publicKey.slice(2), // no 0x
        `0x04${acme.publicKey.slice(4)}`, // uncompressed prefix
        `${acme.publicKey}00`, // too long
        `0x02${'f'.repeat(64)}`, // x beyond the field: not a point
        'hello',
      ]) {
        assertProblem(await send('GET', '/v1/integrator/whoami', { ...h, 'X-Pubkey': bad }), 401, 'malformed_public_key');
      }
    });

    it('rejects malformed signatures', async () => {
      const h = signed(acme.privateKey, 'GET', '/v1/integrator/whoami');
      const der = Buffer.from(h['X-Signature'].slice(2), 'hex');
      const longForm = Buffer.concat([Buffer.from([0x30, 0x81, der.length - 2]), der.subarray(2)]);
      for (const bad of [
        h['X-Signature'].slice(2), // no 0x
        '0xzz',
        `0x${der.subarray(0, der.length - 1).toString('hex')}`, // truncated
        `0x${longForm.toString('hex')}`, // BER long-form length: not DER
        `0x${Buffer.alloc(64, 1).toString('hex')}`, // raw r||s instead of DER
      ]) {
        assertProblem(await send('GET', '/v1/integrator/whoami', { ...h, 'X-Signature': bad }), 401, 'malformed_signature');
      }
    });

    it('rejects a timestamp that is not decimal seconds', async () => {
      const h = signed(acme.privateKey, 'GET', '/v1/integrator/whoami');
      for (const bad of ['abc', '1.5', '-5', `${Date.now()}000000`]) {
        assertProblem(await send('GET', '/v1/integrator/whoami', { ...h, 'X-Timestamp': bad }), 401, 'malformed_timestamp');
      }
    });

    it('accepts a timestamp 59 or 60 s away and rejects 61 s, in both directions', async () => {
      const now = Date.UTC(2026, 10, 22, 12, 0, 0);
      server.clock.freeze(now);
      try {
        const t = now / 1000;
        for (const [offset, ok] of [
          [-61, false],
          [-60, true],
          [-59, true],
          [59, true],
          [60, true],
          [61, false],
        ] as const) {
          const h = signed(acme.privateKey, 'GET', '/v1/integrator/whoami', undefined, t + offset);
          const res = await send('GET', '/v1/integrator/whoami', { ...h });
          if (ok) assert.equal(res.status, 200, `offset ${offset}`);
          else assertProblem(res, 401, 'timestamp_out_of_window');
        }
      } finally {
        server.clock.reset();
      }
    });

    it('rejects a signature by another key, or over another method, path or body', async () => {
      const other = generateP256KeyPair();
      const h = signed(other.privateKey, 'GET', '/v1/integrator/whoami');
      assertProblem(await send('GET', '/v1/integrator/whoami', { ...h, 'X-Pubkey': acme.publicKey }), 401, 'invalid_signature');
      const get = signed(acme.privateKey, 'GET', '/v1/integrator/credentials');
      assertProblem(await send('DELETE', `/v1/integrator/credentials/${other.publicKey}`, { ...get }), 401, 'invalid_signature');
      const body = '{"label":"a","scope":"read_only"}';
      const hb = signed(acme.privateKey, 'POST', '/v1/integrator/credentials', body);
      assertProblem(await send('POST', '/v1/integrator/credentials', { ...hb }, body.replace('"a"', '"b"')), 401, 'invalid_signature');
    });

    it('accepts the high-S twin of a valid signature', async () => {
      const h = signed(acme.privateKey, 'GET', '/v1/integrator/whoami');
      const sig = parseDerSignature(Buffer.from(h['X-Signature'].slice(2), 'hex'))!;
      const twin = `0x${encodeDerSignature(flipS(sig)).toString('hex')}`;
      assert.notEqual(twin, h['X-Signature']);
      assert.equal((await send('GET', '/v1/integrator/whoami', { ...h, 'X-Signature': twin })).status, 200);
      assert.equal((await send('GET', '/v1/integrator/whoami', { ...h })).status, 200);
    });

    it('answers unknown_credential for a valid signature by an unregistered key', async () => {
      const stranger = generateP256KeyPair();
      const client = createClient({ baseUrl: server.url, privateKey: stranger.privateKey, now: () => server.clock.seconds() });
      const res = await client.get('/v1/integrator/whoami');
      assertProblem({ ...res }, 401, 'unknown_credential');
    });

    it('answers credential_inactive for a deactivated key, and accepts it again once reactivated', async () => {
      const issued = await acme.client.post('/v1/integrator/credentials', { label: 'to-deactivate', scope: 'read_write' });
      assert.equal(issued.status, 201);
      const key = issued.body.credential.publicKey;
      const other = server.clientFor(issued.body.privateKey);
      assert.equal((await other.get('/v1/integrator/whoami')).status, 200);
      assert.equal((await acme.client.patch(`/v1/integrator/credentials/${key}`, { active: false })).status, 200);
      assertProblem({ ...(await other.get('/v1/integrator/whoami')) }, 401, 'credential_inactive');
      assert.equal((await acme.client.patch(`/v1/integrator/credentials/${key}`, { active: true })).status, 200);
      assert.equal((await other.get('/v1/integrator/whoami')).status, 200);
    });

    it('refuses an identical mutating request (replay) even with the other S, but not a GET', async () => {
      const body = JSON.stringify({ label: 'replayed', scope: 'read_only' });
      const h = signed(acme.privateKey, 'POST', '/v1/integrator/credentials', body);
      assert.equal((await send('POST', '/v1/integrator/credentials', { ...h }, body)).status, 201);
      assertProblem(await send('POST', '/v1/integrator/credentials', { ...h }, body), 409, 'duplicate_request');
      const sig = parseDerSignature(Buffer.from(h['X-Signature'].slice(2), 'hex'))!;
      const twin = `0x${encodeDerSignature(flipS(sig)).toString('hex')}`;
      assertProblem(await send('POST', '/v1/integrator/credentials', { ...h, 'X-Signature': twin }, body), 409, 'duplicate_request');
      // A fresh Idempotency-Key on a captured request does not get it past the guard (headers are not signed).
      assertProblem(await send('POST', '/v1/integrator/credentials', { ...h, 'Idempotency-Key': 'k-replay' }, body), 409, 'duplicate_request');
      const g = signed(acme.privateKey, 'GET', '/v1/integrator/whoami');
      assert.equal((await send('GET', '/v1/integrator/whoami', { ...g })).status, 200);
      assert.equal((await send('GET', '/v1/integrator/whoami', { ...g })).status, 200);
    });

    it('lets a read_only credential read but not mutate (403 insufficient_scope)', async () => {
      const issued = await acme.client.post('/v1/integrator/credentials', { label: 'reader', scope: 'read_only' });
      const reader = server.clientFor(issued.body.privateKey);
      const who = await reader.get('/v1/integrator/whoami');
      assert.equal(who.status, 200);
      assert.equal(who.body.scope, 'read_only');
      assert.ok(who.body.capabilities.includes('whoami'));
      assert.ok(!who.body.capabilities.includes('createCredential'));
      assert.equal((await reader.get('/v1/health')).status, 200);
      assertProblem({ ...(await reader.post('/v1/integrator/credentials', { label: 'x', scope: 'read_only' })) }, 403, 'insufficient_scope');
      assertProblem({ ...(await reader.get('/v1/integrator/credentials')) }, 403, 'insufficient_scope');
      assertProblem({ ...(await reader.patch(`/v1/integrator/credentials/${acme.publicKey}`, { label: 'x' })) }, 403, 'insufficient_scope');
      assertProblem({ ...(await reader.delete(`/v1/integrator/credentials/${acme.publicKey}`)) }, 403, 'insufficient_scope');
    });

    it('authenticates before validating: a bad body from an unknown key is a 401', async () => {
      const stranger = generateP256KeyPair();
      const client = createClient({ baseUrl: server.url, privateKey: stranger.privateKey, now: () => server.clock.seconds() });
      const res = await client.post('/v1/integrator/credentials', { nonsense: true });
      assert.equal(res.status, 401);
    });
  });
}
