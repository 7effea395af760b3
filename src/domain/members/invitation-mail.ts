import type { SecretBox } from '../../crypto/secret-box.js';
import { sealContexts } from '../../crypto/seal-contexts.js';
import type { Executor } from '../../db/database.js';
import type { AccountRow } from '../../db/repositories/accounts.js';
import { findEntity } from '../../db/repositories/entities.js';
import { findIntegratorName } from '../../db/repositories/integrators.js';
import { insertMail, listMail, type MailRow } from '../../db/repositories/mail-outbox.js';
import { findUser } from '../../db/repositories/users.js';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import type { Role } from './roles.js';

/**
 * How invitation mail leaves this deployment: `smtp` (SMTP_URL: queued pending for the mail worker), `held`
 * (sandbox without SMTP_URL: kept for GET /v1/sandbox/mail-outbox), or unavailable (production without a mailer
 * or without INVITATION_BASE_URL: 503 before anything is written). `baseUrl` is where the hosted page is reached.
 */
export interface InvitationDelivery {
  mail: 'smtp' | 'held' | undefined;
  baseUrl: string | undefined;
}

export function requireDelivery(delivery: InvitationDelivery): { status: 'pending' | 'held'; baseUrl: string } {
  if (!delivery.mail || !delivery.baseUrl) {
    throw new ApiError('invitations_unavailable', 'This deployment cannot email invitations: it needs SMTP_URL and INVITATION_BASE_URL (docs/invitations.md)');
  }
  return { status: delivery.mail === 'smtp' ? 'pending' : 'held', baseUrl: delivery.baseUrl };
}

/** Who invites to what, as the email and the hosted page show it. */
export interface InvitationContext {
  integratorName: string;
  company: string;
  inviter: string;
}

const userName = (info: unknown) => {
  const { firstName, lastName } = (info ?? {}) as { firstName?: string; lastName?: string };
  return [firstName, lastName].filter(Boolean).join(' ');
};

export async function invitationContext(db: Executor, account: AccountRow, invitedByUserId: string | null): Promise<InvitationContext> {
  const integratorName = (await findIntegratorName(db, account.integratorId)) ?? 'Your provider';
  const entity = account.entityId ? await findEntity(db, account.integratorId, account.entityId) : undefined;
  const info = (entity?.entityInfo ?? {}) as { businessLegalName?: string; businessTradeName?: string };
  const inviter = invitedByUserId ? userName((await findUser(db, account.integratorId, invitedByUserId))?.userInfo) : '';
  return { integratorName, company: info.businessLegalName || info.businessTradeName || 'a company', inviter: inviter || integratorName };
}

export const ROLE_NAMES: Record<Role, string> = { owner: 'owner', admin: 'administrator', approver: 'approver', initiator: 'initiator', viewer: 'viewer' };

/** What each role may do, in words for the invitee (docs/members.md#roles has the whole table). */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: 'manages the team and the approval policy, and proposes and approves transactions',
  admin: 'manages initiators and viewers; moves no funds',
  approver: 'proposes, approves and rejects transactions',
  initiator: 'proposes transactions for approvers to approve',
  viewer: 'sees the account and its team, and acts on nothing',
};

export function invitationLink(baseUrl: string, token: string): string {
  return `${baseUrl}/invitations/${token}`;
}

/** The email: plain text, naming who invites, to which company, with which role, until when, and the link. */
export function invitationMessage(about: InvitationContext, role: Role, expiresAt: Date, link: string): { subject: string; text: string } {
  const roleName = ROLE_NAMES[role];
  return {
    subject: `${about.inviter} invited you to join ${about.company} on ${about.integratorName}`,
    text: [
      'Hello,',
      '',
      `${about.inviter} invited you to join ${about.company} on ${about.integratorName} as ${/^[aeiou]/.test(roleName) ? 'an' : 'a'} ${roleName}.`,
      '',
      'To accept, open this link and register a passkey:',
      link,
      '',
      `The link works once and expires on ${expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
      'If you did not expect this invitation, ignore this message.',
      '',
    ].join('\n'),
  };
}

/** Queues a message in the transaction of what it announces; subject and body sealed (the body holds the token). */
export async function queueMail(
  tx: Executor,
  secrets: SecretBox,
  mail: { integratorId: string; subjectId: string; recipient: string; subject: string; text: string; status: 'pending' | 'held'; at: Date },
): Promise<void> {
  const id = newId();
  await insertMail(tx, {
    id,
    integratorId: mail.integratorId,
    kind: 'invitation',
    subjectId: mail.subjectId,
    recipient: mail.recipient,
    subjectSealed: secrets.seal(mail.subject, sealContexts.mailOutbox(id, 'subject')),
    bodySealed: secrets.seal(mail.text, sealContexts.mailOutbox(id, 'body')),
    status: mail.status,
    nextAttemptAt: mail.at,
    createdAt: mail.at,
  });
}

export interface MailView {
  id: string;
  kind: MailRow['kind'];
  subjectId: string;
  recipient: string;
  subject: string;
  text: string;
  status: MailRow['status'];
  createdAt: string;
}

/** Sandbox: the integrator's messages, newest first, opened (they are sealed at rest). */
export async function readMailOutbox(db: Executor, secrets: SecretBox, integratorId: string, limit: number): Promise<{ data: MailView[] }> {
  const rows = await listMail(db, integratorId, limit);
  return {
    data: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      subjectId: row.subjectId,
      recipient: row.recipient,
      subject: secrets.open(row.subjectSealed, sealContexts.mailOutbox(row.id, 'subject')).toString('utf8'),
      text: secrets.open(row.bodySealed, sealContexts.mailOutbox(row.id, 'body')).toString('utf8'),
      status: row.status,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}
