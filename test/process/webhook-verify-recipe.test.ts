import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { berliner, signedAt } from '../harness/fixtures.js';
import { startServer, type TestServer } from '../harness/server.js';
import { documentedBlock } from '../harness/documented.js';

const run = promisify(execFile);

/** docs/webhooks.md's openssl recipe, exactly as documented. */
const recipe = (): string => documentedBlock('docs/webhooks.md', 'verify-recipe');

interface Arrival {
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

describe('the webhook verification recipe (openssl only)', () => {
  let server: TestServer;
  let receiver: http.Server;
  let arrived: (a: Arrival) => void;
  const first = new Promise<Arrival>((resolve) => (arrived = resolve));
  const dir = mkdtempSync(join(tmpdir(), 'webhook-recipe-'));

  before(async () => {
    server = await startServer('pglite', { WEBHOOK_ALLOW_PRIVATE: '1' });
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        arrived({ headers: req.headers, body: Buffer.concat(chunks) });
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await server.close();
    receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('verifies a real delivery, and refuses it once a byte of the body changes', async () => {
    const acme = await server.seedIntegrator('Acme');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const sub = await acme.client.post('/v1/webhooks/subscriptions', { name: 'recipe', url, eventTypes: ['user.created'] });
    assert.equal(sub.status, 201, sub.text);
    server.clock.advance(1000);
    const user = await acme.client.post('/v1/submit/create-individual-account', { userInfo: berliner(), serviceTermsSignedAt: signedAt() });
    assert.equal(user.status, 201, user.text);

    const delivery = await first;
    writeFileSync(join(dir, 'body.json'), delivery.body);
    const env = {
      ...process.env,
      PUBKEY: sub.body.publicKey,
      WEBHOOK_ID: String(delivery.headers['webhook-id']),
      WEBHOOK_TIMESTAMP: String(delivery.headers['webhook-timestamp']),
      SIG: String(delivery.headers['webhook-signature']).split(' ')[0]!,
    };
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', recipe()], { cwd: dir, env, timeout: 20_000 });
    assert.match(stdout, /Signature Verified Successfully/);

    const tampered = Buffer.from(delivery.body);
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 2) ^ 1, tampered.length - 2);
    writeFileSync(join(dir, 'body.json'), tampered);
    await assert.rejects(run('bash', ['-euo', 'pipefail', '-c', recipe()], { cwd: dir, env, timeout: 20_000 }));
  });
});
