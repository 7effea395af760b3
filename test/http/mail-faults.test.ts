import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { otpCodes } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { createCustomer } from '../harness/customers.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';

/**
 * A mail server that is down (connections refused at once) or silent (the connection opens, no greeting ever
 * comes): a one-time code costs at most the SMTP timeouts, is answered 502 with nothing kept, and the rest of the
 * service goes on meanwhile. The "mail server" is a bare TCP listener in one of those two moods.
 */
async function startBrokenMailServer() {
  const sockets = new Set<Socket>();
  let connected: (() => void)[] = [];
  const front = {
    mode: 'refuse' as 'refuse' | 'silent',
    /** Resolves at the next connection. */
    nextConnection: () => new Promise<void>((resolve) => connected.push(resolve)),
  };
  const server = createServer((socket) => {
    connected.forEach((resolve) => resolve());
    connected = [];
    if (front.mode === 'refuse') return void socket.destroy();
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    front,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

for (const backend of backends()) {
  describe(`one-time codes while the mail server is down or silent [${backend}]`, () => {
    let mail: Awaited<ReturnType<typeof startBrokenMailServer>>;
    let server: TestServer;
    let acme: SeededIntegrator;

    before(async () => {
      mail = await startBrokenMailServer();
      // Short SMTP timeouts for the test, in the URL's query as an operator would set them (docs/otp.md).
      server = await startServer(backend, { SMTP_URL: `smtp://127.0.0.1:${mail.port}/?connectionTimeout=1500&greetingTimeout=1500&socketTimeout=1500`, SMTP_FROM: 'codes@acme.example' });
      acme = await server.seedIntegrator('Acme');
    });
    after(async () => {
      await server?.close();
      await mail?.close();
    });

    const init = (userId: string) => {
      server.clock.advance(1000);
      return acme.client.post('/v1/otp/init', { userId, channel: 'email' });
    };
    const codesOf = async (userId: string) => (await server.database.db.select().from(otpCodes).where(eq(otpCodes.userId, userId))).length;

    it('refused connections: 502 otp_delivery_failed, no code kept', async () => {
      mail.front.mode = 'refuse';
      const user = await createCustomer(server, acme, { approve: false });
      const res = await init(user.userId);
      assert.deepEqual([res.status, res.body.code], [502, 'otp_delivery_failed'], res.text);
      assert.equal(await codesOf(user.userId), 0);
    });

    it('a silent server: the request waits for the greeting timeout only, other requests are served meanwhile, then 502', async () => {
      mail.front.mode = 'silent';
      const user = await createCustomer(server, acme, { approve: false });
      const connection = mail.front.nextConnection();
      let settled = false;
      const pending = init(user.userId).finally(() => (settled = true));
      await connection;
      // The code's database transaction committed before the mail went out: writes and reads go on.
      server.clock.advance(1000);
      const other = await acme.client.post('/v1/submit/create-individual-account', {
        userInfo: californian({ email: `meanwhile.${randomUUID()}@example.com` }),
        serviceTermsSignedAt: signedAt(),
        verificationDocuments: personDocs(),
      });
      assert.equal(other.status, 201, other.text);
      assert.equal((await acme.client.get('/v1/integrator/whoami')).status, 200);
      assert.equal(settled, false, 'the code was still waiting for the mail server');
      const res = await pending;
      assert.deepEqual([res.status, res.body.code], [502, 'otp_delivery_failed'], res.text);
      assert.equal(await codesOf(user.userId), 0, 'no code kept');
    });
  });
}
