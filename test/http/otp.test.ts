import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { otpApprovalTokens, otpCodes, sandboxOtpOutbox, transactions } from '../../src/db/schema/index.js';
import type { Anvil } from '../harness/anvil.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, recipient, settled, signedBody, unsignedTransfer, type Customer } from '../harness/customers.js';
import { eventsFor, rowsContaining } from '../harness/db.js';
import { codeIn, startSmtpReceiver, type SmtpReceiver } from '../harness/smtp.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';
import { startTenantsOnChain } from '../harness/tenants.js';
import type { ChangeData, UserAccountView } from '../harness/types.js';

const MINUTE = 60_000;

for (const backend of backends()) {
  describe(`OTP: init, verify and send-transaction-otp, sandbox outbox [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;
    let globex: SeededIntegrator;
    let base: Anvil;
    let alice: Customer;
    let bob: Customer;
    let nonce = 0;

    before(async () => {
      ({ server, chain: base, tenants: [acme, globex] } = await startTenantsOnChain(backend, 8453, ['Acme', 'Globex']));
      // Frozen (and moved by hand): expiry times are asserted to the millisecond.
      server.clock.freeze(Date.now());
      alice = await createCustomer(server, acme);
      bob = await createCustomer(server, acme);
      await base.setBalance(alice.walletAddress, ETH);
    });
    after(() => server?.close());

    /** Each signed request in its own second (identical signed requests within one are replays). */
    const post = (path: string, body: unknown, who: SeededIntegrator = acme) => {
      server.clock.advance(1000);
      return who.client.post(path, body);
    };
    /** Past the resend interval, so the next init of the user is allowed. */
    const init = (userId: string, who: SeededIntegrator = acme) => {
      server.clock.advance(31_000);
      return post('/v1/otp/init', { userId, channel: 'email' }, who);
    };
    const outbox = async (userId: string, who: SeededIntegrator = acme) => who.client.get(`/v1/sandbox/otp-outbox?userId=${userId}`);
    const latestCode = async (userId: string) => {
      const res = await outbox(userId);
      assert.equal(res.status, 200, res.text);
      return res.body.data[0].code as string;
    };
    const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    async function approvalToken(who: Customer): Promise<string> {
      assert.equal((await init(who.userId)).status, 201);
      const verified = await post('/v1/otp/verify', { userId: who.userId, code: await latestCode(who.userId) });
      assert.equal(verified.status, 200, verified.text);
      return verified.body.approvalToken;
    }
    const otpTransfer = (who: Customer, token: string, chainId = 8453, transactionId: string = randomUUID(), to = recipient()) => ({
      transactionId,
      signedBody: signedBody(server, who, unsignedTransfer(chainId, nonce, to, 1000n)),
      approvalToken: token,
    });
    const submit = (body: unknown, who: SeededIntegrator = acme) => post('/v1/submit/send-transaction-otp?chain_id=8453', body, who);

    it('init sends a six-digit code to the outbox; verify with the right code returns an approval token and activates OTP', async () => {
      const before = await acme.client.get(`/v1/query/get-user-details?userId=${alice.userId}`);
      assert.equal(before.body.isOtpActivated, false);

      const sent = await init(alice.userId);
      assert.equal(sent.status, 201, sent.text);
      assert.deepEqual(Object.keys(sent.body).sort(), ['attemptsAllowed', 'channel', 'destination', 'expiresAt', 'resendAvailableAt', 'userId']);
      assert.equal(sent.body.destination, `${alice.email[0]}***@example.com`);
      assert.equal(sent.body.attemptsAllowed, 5);
      assert.equal(Date.parse(sent.body.expiresAt) - server.clock.now().getTime(), 10 * MINUTE);

      const box = await outbox(alice.userId);
      assert.equal(box.status, 200, box.text);
      const [message] = box.body.data;
      assert.equal(message.destination, alice.email);
      assert.match(message.code, /^\d{6}$/);
      assert.equal(codeIn(message.body), message.code);

      const [stored] = await server.database.db.select().from(otpCodes).where(eq(otpCodes.userId, alice.userId));
      assert.ok(stored && !stored.codeHash.includes(message.code) && stored.codeHash.length === 64, 'only a keyed hash of the code is stored');
      // The sandbox outbox keeps the message and its code sealed: the integrator reads them opened, nobody else.
      assert.deepEqual(await rowsContaining(server.database, message.body), [], 'no row holds the message in clear');
      const [kept] = await server.database.db.select().from(sandboxOtpOutbox).where(eq(sandboxOtpOutbox.id, message.id));
      assert.ok(kept && kept.code !== message.code && !kept.code.includes(message.code), 'the code is sealed in the outbox');

      const miss = await post('/v1/otp/verify', { userId: alice.userId, code: wrong(message.code) });
      assert.deepEqual([miss.status, miss.body.code, miss.body.attemptsRemaining], [422, 'otp_invalid', 4], miss.text);

      const ok = await post('/v1/otp/verify', { userId: alice.userId, code: message.code });
      assert.equal(ok.status, 200, ok.text);
      assert.match(ok.body.approvalToken, /^otpa_[A-Za-z0-9_-]{43}$/);
      assert.equal(Date.parse(ok.body.expiresAt) - server.clock.now().getTime(), 5 * MINUTE);

      const again = await post('/v1/otp/verify', { userId: alice.userId, code: message.code });
      assert.deepEqual([again.status, again.body.code], [422, 'otp_expired'], 'a code works once');

      const afterwards = await acme.client.get(`/v1/query/get-user-details?userId=${alice.userId}`);
      assert.equal(afterwards.body.isOtpActivated, true);
      const updates = (await eventsFor(server.database, alice.userId)).filter((e) => e.type === 'user.updated');
      assert.deepEqual(
        updates.map((e) => [(e.data as ChangeData<UserAccountView, 'isOtpActivated'>).object.isOtpActivated, (e.data as ChangeData<UserAccountView, 'isOtpActivated'>).previousAttributes]),
        [[true, { isOtpActivated: false }]],
      );
    });

    it('rate-limits sending: 429 with Retry-After within 30 s, and ten codes an hour; a new code supersedes the pending one', async () => {
      const user = (await createCustomer(server, acme)).userId;
      assert.equal((await init(user)).status, 201);
      const first = await latestCode(user);
      const soon = await post('/v1/otp/init', { userId: user, channel: 'email' });
      assert.deepEqual([soon.status, soon.body.code], [429, 'otp_rate_limited'], soon.text);
      const retryAfter = Number(soon.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 30, `Retry-After ${retryAfter}`);

      server.clock.advance(retryAfter * 1000);
      const later = await post('/v1/otp/init', { userId: user, channel: 'email' });
      assert.equal(later.status, 201, later.text);
      const second = await latestCode(user);
      if (second !== first) {
        const old = await post('/v1/otp/verify', { userId: user, code: first });
        assert.deepEqual([old.status, old.body.code], [422, 'otp_invalid'], 'the superseded code no longer works');
      }
      for (let sent = 2; sent < 10; sent++) assert.equal((await init(user)).status, 201);
      const capped = await init(user);
      assert.deepEqual([capped.status, capped.body.code], [429, 'otp_rate_limited'], capped.text);
      assert.ok(Number(capped.headers.get('retry-after')) > 60, 'the hourly cap waits for the oldest code of the hour to age out');
      assert.equal((await outbox(user)).body.data.length, 10);
    });

    it('five wrong guesses lock the code (even the right one is refused then); codes expire after 10 minutes', async () => {
      const user = (await createCustomer(server, acme)).userId;
      assert.equal((await init(user)).status, 201);
      const code = await latestCode(user);
      for (let left = 4; left >= 0; left--) {
        const res = await post('/v1/otp/verify', { userId: user, code: wrong(code) });
        assert.deepEqual([res.status, res.body.code, res.body.attemptsRemaining], [422, 'otp_invalid', left], res.text);
      }
      const locked = await post('/v1/otp/verify', { userId: user, code });
      assert.deepEqual([locked.status, locked.body.code], [422, 'otp_attempts_exhausted'], locked.text);

      assert.equal((await init(user)).status, 201);
      const fresh = await latestCode(user);
      server.clock.advance(10 * MINUTE);
      const late = await post('/v1/otp/verify', { userId: user, code: fresh });
      assert.deepEqual([late.status, late.body.code], [422, 'otp_expired'], late.text);
    });

    it('validates input, and another integrator’s user is a plain 404 everywhere', async () => {
      const bad = await post('/v1/otp/init', { userId: alice.userId, channel: 'sms' });
      assert.deepEqual([bad.status, bad.body.errors?.[0]?.pointer], [400, '/channel'], bad.text);
      const short = await post('/v1/otp/verify', { userId: alice.userId, code: '12345' });
      assert.deepEqual([short.status, short.body.errors?.[0]?.pointer], [400, '/code'], short.text);

      const foreign = [
        await init(alice.userId, globex),
        await post('/v1/otp/verify', { userId: alice.userId, code: '123456' }, globex),
        await outbox(alice.userId, globex),
      ];
      for (const res of foreign) assert.deepEqual([res.status, res.body.code], [404, 'not_found'], res.text);
    });

    it('send-transaction-otp signs and broadcasts with an approval token, completes, and records approval otp; a replay answers 200', async () => {
      const token = await approvalToken(alice);
      const to = recipient();
      const request = otpTransfer(alice, token, 8453, randomUUID(), to);
      const res = await submit(request);
      assert.equal(res.status, 201, res.text);
      nonce++;
      assert.equal(res.body.status, 'processing');
      const done = await settled(acme, request.transactionId);
      assert.equal(done.status, 'completed');
      assert.equal(done.transactionReceipt.from.toLowerCase(), alice.walletAddress.toLowerCase());
      assert.equal(BigInt(await base.rpc<string>('eth_getBalance', [to, 'latest'])), 1000n);

      const [row] = await server.database.db.select().from(transactions).where(eq(transactions.transactionId, request.transactionId));
      assert.deepEqual([row!.approval, row!.authenticatorId], ['otp', null]);
      const [used] = await server.database.db.select().from(otpApprovalTokens).where(eq(otpApprovalTokens.transactionRowId, row!.id));
      assert.ok(used?.usedAt, 'the token is marked used by this transaction');

      const replay = await submit(request);
      assert.deepEqual([replay.status, replay.body.transactionId], [200, request.transactionId], replay.text);

      const reuse = await submit(otpTransfer(alice, token));
      assert.deepEqual([reuse.status, reuse.body.code], [409, 'approval_token_reused'], reuse.text);
    });

    it('two requests racing with one token: exactly one is signed and broadcast, the other is 409 approval_token_reused', async () => {
      const token = await approvalToken(alice);
      const requests = [otpTransfer(alice, token), otpTransfer(alice, token)];
      server.clock.advance(1000);
      const answers = await Promise.all(requests.map((r) => acme.client.post('/v1/submit/send-transaction-otp?chain_id=8453', r)));
      nonce++;
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409], answers.map((a) => a.text).join('\n'));
      assert.equal(answers.find((a) => a.status === 409)!.body.code, 'approval_token_reused');
      const winner = answers.find((a) => a.status === 201)!.body.transactionId as string;
      assert.equal((await settled(acme, winner)).status, 'completed');
      const rows = await Promise.all(requests.map((r) => server.database.db.select().from(transactions).where(eq(transactions.transactionId, r.transactionId))));
      assert.deepEqual(rows.map((r) => r.length).sort(), [0, 1], 'the loser left nothing behind');
    });

    it('refuses tokens that do not approve: unknown, another user’s, another integrator’s, expired; a refused attempt uses nothing up', async () => {
      const unknown = await submit(otpTransfer(alice, `otpa_${'A'.repeat(43)}`));
      assert.deepEqual([unknown.status, unknown.body.code, unknown.body.reason], [422, 'invalid_approval_token', 'unknown'], unknown.text);

      const bobs = await approvalToken(bob);
      const mismatch = await submit(otpTransfer(alice, bobs));
      assert.deepEqual([mismatch.status, mismatch.body.code, mismatch.body.reason], [422, 'invalid_approval_token', 'user_mismatch'], mismatch.text);

      const carol = await createCustomer(server, globex);
      assert.equal((await init(carol.userId, globex)).status, 201);
      const carolCode = (await outbox(carol.userId, globex)).body.data[0].code;
      const carolToken = (await post('/v1/otp/verify', { userId: carol.userId, code: carolCode }, globex)).body.approvalToken;
      const crossed = await submit(otpTransfer(alice, carolToken));
      assert.deepEqual([crossed.status, crossed.body.code, crossed.body.reason], [422, 'invalid_approval_token', 'unknown'], crossed.text);

      const token = await approvalToken(alice);
      server.clock.advance(5 * MINUTE);
      const expired = await submit(otpTransfer(alice, token));
      assert.deepEqual([expired.status, expired.body.code, expired.body.reason], [422, 'invalid_approval_token', 'expired'], expired.text);
      const tokens = await server.database.db.select().from(otpApprovalTokens).where(eq(otpApprovalTokens.userId, bob.userId));
      assert.deepEqual(tokens.map((t) => t.usedAt), [null], 'the refused token of bob was not used up');
    });

    it('the same account rules as the passkey path: inactive account, wrong chain, insufficient funds (the token survives it)', async () => {
      const pending = await createCustomer(server, acme, { approve: false });
      const pendingToken = await approvalToken(pending);
      const inactive = await submit(otpTransfer(pending, pendingToken));
      assert.deepEqual([inactive.status, inactive.body.code], [409, 'account_not_active'], inactive.text);

      const poor = await createCustomer(server, acme);
      const token = await approvalToken(poor);
      const wrongChain = { transactionId: randomUUID(), signedBody: signedBody(server, poor, unsignedTransfer(1, 0)), approvalToken: token };
      const mismatch = await submit(wrongChain);
      assert.deepEqual([mismatch.status, mismatch.body.code], [422, 'chain_mismatch'], mismatch.text);

      const request = { transactionId: randomUUID(), signedBody: signedBody(server, poor, unsignedTransfer(8453, 0)), approvalToken: token };
      const broke = await submit(request);
      assert.deepEqual([broke.status, broke.body.code], [422, 'insufficient_funds'], broke.text);
      assert.equal((await server.database.db.select().from(transactions).where(eq(transactions.transactionId, request.transactionId))).length, 0);

      await base.setBalance(poor.walletAddress, ETH);
      const funded = await submit({ ...request, signedBody: signedBody(server, poor, unsignedTransfer(8453, 0)) });
      assert.equal(funded.status, 201, funded.text);
      assert.equal((await settled(acme, request.transactionId)).status, 'completed');
    });
  });

  describe(`OTP over SMTP, and production without SMTP [${backend}]`, () => {
    let smtp: SmtpReceiver;
    let server: TestServer;
    let production: TestServer;
    let acme: SeededIntegrator;

    before(async () => {
      smtp = await startSmtpReceiver();
      server = await startServer(backend, { SMTP_URL: smtp.url, SMTP_FROM: 'Acme Wallet <codes@acme.example>' });
      production = await startServer(backend, { APP_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32) });
      acme = await server.seedIntegrator('Acme');
    });
    after(async () => {
      await server?.close();
      await production?.close();
      await smtp?.close();
    });

    it('sends the code through the SMTP server; the sandbox outbox stays empty', async () => {
      const user = await createCustomer(server, acme, { approve: false });
      server.clock.advance(1000);
      const sent = await acme.client.post('/v1/otp/init', { userId: user.userId, channel: 'email' });
      assert.equal(sent.status, 201, sent.text);
      const mail = smtp.messages.find((m) => m.to.includes(user.email));
      assert.ok(mail, 'the receiver got the message');
      assert.equal(mail.from, 'codes@acme.example');
      assert.match(mail.raw, /^Subject: Your verification code\r?$/m);
      server.clock.advance(1000);
      const verified = await acme.client.post('/v1/otp/verify', { userId: user.userId, code: codeIn(mail.raw) });
      assert.equal(verified.status, 200, verified.text);
      assert.deepEqual((await acme.client.get(`/v1/sandbox/otp-outbox?userId=${user.userId}`)).body.data, []);
    });

    it('a mail server refusing the message is 502 otp_delivery_failed, with no code stored and no resend wait', async () => {
      const user = await createCustomer(server, acme, { approve: false });
      smtp.refuseWith = 'mailbox unavailable';
      try {
        server.clock.advance(1000);
        const refused = await acme.client.post('/v1/otp/init', { userId: user.userId, channel: 'email' });
        assert.deepEqual([refused.status, refused.body.code], [502, 'otp_delivery_failed'], refused.text);
      } finally {
        smtp.refuseWith = undefined;
      }
      assert.equal((await server.database.db.select().from(otpCodes).where(eq(otpCodes.userId, user.userId))).length, 0);
      server.clock.advance(1000);
      const retried = await acme.client.post('/v1/otp/init', { userId: user.userId, channel: 'email' });
      assert.equal(retried.status, 201, retried.text);
    });

    it('production without SMTP_URL answers 503 otp_unavailable and has no outbox route', async () => {
      const integrator = await production.seedIntegrator('Prod');
      const passkey = new SoftwareAuthenticator({ rpId: 'wallet.example', origin: 'https://wallet.example' });
      const user = await createCustomer(production, integrator, { approve: false, passkey });
      production.clock.advance(1000);
      const res = await integrator.client.post('/v1/otp/init', { userId: user.userId, channel: 'email' });
      assert.deepEqual([res.status, res.body.code], [503, 'otp_unavailable'], res.text);
      const box = await integrator.client.get(`/v1/sandbox/otp-outbox?userId=${user.userId}`);
      assert.equal(box.status, 404);
    });
  });
}
