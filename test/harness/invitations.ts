import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
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

/** An owner invitation of `who`'s owner-less entity (the integrator alone may make it), with its token from the sandbox outbox. */
export async function ownerInvitation(server: TestServer, who: SeededIntegrator, entityAccountId: string): Promise<{ invitationId: string; token: string; email: string }> {
  const email = `invitee.${randomUUID()}@example.com`;
  const created = await post(server, who, '/v1/submit/create-invitation', { accountId: entityAccountId, email, role: 'owner' });
  if (created.status !== 201) throw new Error(created.text);
  const message = await outboxMessage(who, created.body.invitationId);
  return { invitationId: created.body.invitationId, token: tokenIn(message.text), email };
}

/** A userInfo for accept-invitation: create-user's minimum, with the invited address. */
export const inviteeInfo = (email: string, firstName = 'Erika', lastName = 'Mustermann') => ({ firstName, lastName, email });

// The browser side of the hosted page's tests: a page with a virtual authenticator, stamps in it (wallet-page.ts).
export { authenticatorPage, stampInBrowser } from './wallet-page.js';
