import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { smtpMailer } from '../../src/mail/mailer.js';

/**
 * The SMTP mailer opens its transport with the first message (nodemailer is loaded then, src/mail/mailer.ts); what
 * it sends is tested against a real SMTP peer in test/http/mail-faults.test.ts and otp.test.ts.
 */
describe('the SMTP mailer', () => {
  it('closed before any message: nothing was opened, and a message after close() is refused', async () => {
    const mailer = smtpMailer('smtp://127.0.0.1:9', 'noreply@example.test');
    mailer.close();
    await assert.rejects(mailer.send({ to: 'a@example.test', subject: 's', text: 't' }), /the mailer is closed/);
  });

  it('a peer that does not answer: the send says so', async () => {
    // A port nobody listens on: the send fails at connect, well inside the mailer's own 10 s connection timeout.
    const mailer = smtpMailer('smtp://127.0.0.1:9', 'noreply@example.test');
    try {
      await assert.rejects(mailer.send({ to: 'a@example.test', subject: 's', text: 't' }), /ECONNREFUSED|connect/i);
    } finally {
      mailer.close();
    }
  });

  it('a URL nodemailer refuses: every send says why, and close() after it is quiet (no unhandled rejection)', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const mailer = smtpMailer('smtp://[bad', 'noreply@example.test');
      await assert.rejects(mailer.send({ to: 'a@example.test', subject: 's', text: 't' }), /Invalid URL/);
      await assert.rejects(mailer.send({ to: 'a@example.test', subject: 's', text: 't' }), /Invalid URL/);
      mailer.close();
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});
