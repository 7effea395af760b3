import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { importPrivateKey } from '../../src/crypto/p256.js';
import { signRequest } from '../../src/crypto/request-signature.js';
import { COMPRESSION_THRESHOLD_BYTES } from '../../src/http/compression.js';
import { backends } from '../harness/backends.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/** node:http, not fetch: fetch asks for and inflates compressed answers itself, and the test must see the bytes sent. */
function raw(url: string, method: string, headers: Record<string, string>, body?: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

for (const backend of backends()) {
  describe(`response compression [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;

    before(async () => {
      ({ server, tenants: [acme] } = await startTenants(backend, ['Acme']));
    });
    after(() => server?.close());

    const signed = (method: string, path: string, extra: Record<string, string>, body?: Buffer) => {
      const auth = signRequest(importPrivateKey(acme.privateKey), String(server.clock.seconds()), method, path, body);
      return raw(`${server.url}${path}`, method, { 'content-type': 'application/json', ...auth, ...extra }, body);
    };

    it('answers a signed read with brotli or gzip as asked, the same JSON once inflated, and says it varies', async () => {
      const plain = await signed('GET', '/v1/integrator/whoami', {});
      assert.equal(plain.status, 200);
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.ok(plain.bytes.length >= COMPRESSION_THRESHOLD_BYTES, `whoami is ${plain.bytes.length} bytes: above the threshold`);
      const expected = JSON.parse(plain.bytes.toString('utf8'));

      const br = await signed('GET', '/v1/integrator/whoami', { 'accept-encoding': 'gzip, deflate, br' });
      assert.equal(br.headers['content-encoding'], 'br');
      assert.match(String(br.headers.vary), /accept-encoding/i);
      assert.ok(br.bytes.length < plain.bytes.length / 2, `${br.bytes.length} of ${plain.bytes.length} bytes`);
      assert.deepEqual(JSON.parse(brotliDecompressSync(br.bytes).toString('utf8')), expected);
      assert.equal(Number(br.headers['content-length']), br.bytes.length);

      const gz = await signed('GET', '/v1/integrator/whoami', { 'accept-encoding': 'gzip' });
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.deepEqual(JSON.parse(gunzipSync(gz.bytes).toString('utf8')), expected);

      // An encoding we do not offer, or identity preferred, is answered as is.
      for (const asked of ['deflate', 'identity', 'br;q=0, gzip;q=0']) {
        const res = await signed('GET', '/v1/integrator/whoami', { 'accept-encoding': asked });
        assert.equal(res.headers['content-encoding'], undefined, asked);
        assert.deepEqual(JSON.parse(res.bytes.toString('utf8')), expected, asked);
      }
    });

    it('leaves small answers and problem bodies under the threshold as they are', async () => {
      const res = await signed('GET', '/v1/users/00000000-0000-7000-8000-000000000000', { 'accept-encoding': 'br, gzip' });
      assert.equal(res.status, 404);
      assert.ok(res.bytes.length < COMPRESSION_THRESHOLD_BYTES);
      assert.equal(res.headers['content-encoding'], undefined);
      assert.equal(JSON.parse(res.bytes.toString('utf8')).status, 404);
    });

    it('compresses the pages and the OpenAPI document, which need no signature', async () => {
      for (const path of ['/', '/openapi.json', '/admin/openapi.json']) {
        const res = await raw(`${server.url}${path}`, 'GET', { 'accept-encoding': 'gzip', accept: 'text/html' });
        assert.equal(res.status, 200, path);
        assert.equal(res.headers['content-encoding'], 'gzip', path);
        assert.ok(gunzipSync(res.bytes).length >= COMPRESSION_THRESHOLD_BYTES, path);
      }
    });

    it('never inflates a request body: a gzip body, signed as sent, is refused as malformed JSON and nothing is written', async () => {
      const zipped = gzipSync(JSON.stringify({ label: 'zipped', scope: 'read_only' }));
      const before = (await acme.client.get('/v1/integrator/credentials')).body.credentials.length;
      server.clock.advance(1000);
      const res = await signed('POST', '/v1/integrator/credentials', { 'content-encoding': 'gzip' }, zipped);
      assert.equal(res.status, 400, res.bytes.toString('utf8'));
      assert.equal(JSON.parse(res.bytes.toString('utf8')).code, 'malformed_json');
      assert.equal((await acme.client.get('/v1/integrator/credentials')).body.credentials.length, before);
    });
  });
}
