import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import pino from 'pino';
import { newInvitationToken } from '../../src/domain/members/invitation-token.js';
import { newLinkToken } from '../../src/domain/onboarding-links/link-token.js';
import { loggerOptions, scrubBearerTokens } from '../../src/logging.js';

// The last fence behind the routes' own redaction (test/http/invitation-secrets.test.ts): a log call that quotes an
// invitation token itself (Fastify's "Reply was already sent … in the "<url>" route" warning writes the raw URL
// into its message) has it scrubbed, whatever part of the call carries it.

function capture(): { logger: pino.Logger; text: () => string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino(loggerOptions('trace'), stream), text: () => lines.join('') };
}

describe('invitation tokens never reach a log line', () => {
  it('in a message, its format arguments, an object’s strings, an error’s message, a child logger’s bindings of a call', () => {
    const token = newInvitationToken();
    const { logger, text } = capture();
    logger.warn(`Reply was already sent, did you forget to "return reply" in the "/invitations/${token}/accept" (POST) route?`);
    logger.info('opened %s', `/invitations/${token}`);
    logger.info({ url: `/invitations/${encodeURIComponent(token)}?x=1`, note: 'plain' }, 'request');
    logger.error({ err: new Error(`cannot open /invitations/${token}`) });
    logger.child({ requestId: 'req_1' }).debug(`GET /invitations/${token}/registration-options`);
    const logged = text();
    assert.equal(logged.split('\n').filter(Boolean).length, 5);
    assert.ok(!logged.includes(token.slice(4)), logged);
    assert.match(logged, /inv_\[redacted\]/);
    assert.match(logged, /"note":"plain"/);
  });

  it('an onboarding link’s token (obl_) likewise, in a message and in an object’s strings', () => {
    const token = newLinkToken();
    const { logger, text } = capture();
    logger.warn(`Reply was already sent … in the "/onboarding/${token}" (GET) route`);
    logger.info({ url: `/onboarding/${encodeURIComponent(token)}` }, 'request');
    const logged = text();
    assert.ok(!logged.includes(token.slice(4)), logged);
    assert.match(logged, /obl_\[redacted\]/);
  });

  it('any token in any text is scrubbed, and text without one is left as it is (fast-check)', () => {
    const text = fc.string({ maxLength: 40 });
    fc.assert(
      fc.property(text, text, (before, after) => {
        const token = newInvitationToken();
        assert.ok(!scrubBearerTokens(`${before}${token}${after}`).includes(token.slice(4)));
        assert.ok(!scrubBearerTokens(`${before}${encodeURIComponent(token)}${after}`).includes(token.slice(4, 30)));
        if (!before.includes('inv_') && !after.includes('inv_')) assert.equal(scrubBearerTokens(before + after), before + after);
      }),
    );
  });
});
