import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { TIMEOUT } from './chromium.js';
import { companyInfo, entityDocs, signedAt } from './fixtures.js';
import { post } from './members.js';
import type { SeededIntegrator, TestServer } from './server.js';

/** The token in an invitation's text (its link ends in /invitations/<token>). */
export function tokenIn(text: string): string {
  const m = /\/invitations\/(inv_[A-Za-z0-9_-]{43})/.exec(text);
  if (!m) throw new Error(`no invitation link in: ${text.slice(0, 500)}`);
  return m[1]!;
}

/** A raw SMTP message's text, quoted-printable soft breaks and escapes undone (nodemailer folds long lines). */
export function mailText(raw: string): string {
  const qp = /content-transfer-encoding:\s*quoted-printable/i.test(raw);
  const body = raw.slice(raw.search(/\r?\n\r?\n/) + 2);
  if (!qp) return body;
  return Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
}

/** The decoded Subject header of a raw SMTP message (nodemailer encodes non-ASCII subjects as RFC 2047 words). */
export function mailSubject(raw: string): string {
  const header = /^subject:\s*((?:.*)(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1] ?? '';
  return header.replace(/\r?\n[ \t]/g, ' ').replace(/=\?utf-8\?Q\?(.*?)\?=\s*/gi, (_m, word: string) => Buffer.from(word.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'));
}

/** The sandbox outbox's newest message about `invitationId` (GET /v1/sandbox/mail-outbox). */
export async function outboxMessage(who: SeededIntegrator, invitationId: string) {
  const res = await who.client.get('/v1/sandbox/mail-outbox?limit=100');
  assert.equal(res.status, 200, res.text);
  const message = res.body.data.find((m: { subjectId: string }) => m.subjectId === invitationId);
  assert.ok(message, `no message about ${invitationId}`);
  return message as { id: string; recipient: string; subject: string; text: string; status: string; kind: string; subjectId: string };
}

/** An entity account without any owner (no representative who is a user): only the integrator alone may invite its owner. */
export async function ownerlessEntity(server: TestServer, who: SeededIntegrator, legalName = 'Acme Robotics Inc.'): Promise<{ accountId: string; organizationId: string }> {
  const entity = await post(server, who, '/v1/submit/create-entity-account', { entityInfo: companyInfo({ businessLegalName: legalName }), entityDocuments: entityDocs(), serviceTermsSignedAt: signedAt() });
  assert.equal(entity.status, 201, entity.text);
  const account = await who.client.get(`/v1/query/get-account-details?accountId=${entity.body.accountId}`);
  assert.equal(account.status, 200, account.text);
  return { accountId: entity.body.accountId, organizationId: account.body.organizationId };
}

/** A userInfo for accept-invitation: create-user's minimum, with the invited address. */
export const inviteeInfo = (email: string, firstName = 'Erika', lastName = 'Mustermann') => ({ firstName, lastName, email });

// The browser side of the hosted page's tests (test/e2e/invitation-page.test.ts).
/** A page with a CDP virtual platform authenticator (user verification on, presence automatic); console errors collected. */
export async function authenticatorPage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  page.setDefaultTimeout(TIMEOUT);
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { page, errors };
}

/** Runs in the page (as text: tsx would wrap named functions in a helper the page does not have). */
const STAMP = `async (body, id) => {
  const b64u = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  const fromB64u = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  const assertion = await navigator.credentials.get({ publicKey: { challenge: new TextEncoder().encode(hex), rpId: 'localhost', allowCredentials: [{ type: 'public-key', id: fromB64u(id) }], userVerification: 'preferred', timeout: 10000 } });
  return JSON.stringify({
    authenticatorData: b64u(assertion.response.authenticatorData),
    clientDataJson: b64u(assertion.response.clientDataJSON),
    credentialId: b64u(assertion.rawId),
    signature: b64u(assertion.response.signature),
  });
}`;

/**
 * A Turnkey-style stamp of `text` by the page's passkey `credentialId` (challenge: the UTF-8 bytes of the hex
 * SHA-256 of the text), made with navigator.credentials.get in the page. Playwright's evaluate is not bound by
 * the page's CSP, so the hosted page itself can stamp once its passkey exists.
 */
export function stampInBrowser(page: Page, text: string, credentialId: string): Promise<string> {
  return page.evaluate(`(${STAMP})(${JSON.stringify(text)}, ${JSON.stringify(credentialId)})`) as Promise<string>;
}
