import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { findAccountByUser } from '../../db/repositories/accounts.js';
import { listDocuments } from '../../db/repositories/documents.js';
import {
  consumeCode,
  countFailedAttempt,
  deleteCode,
  findOpenCode,
  insertApprovalToken,
  insertCode,
  insertOutboxMessage,
  listOutbox,
  recentCodes,
  supersedeOpenCodes,
  type OutboxRow,
} from '../../db/repositories/otp.js';
import { countAuthenticators, findUser, updateUser } from '../../db/repositories/users.js';
import type { Database } from '../../db/database.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { sealContexts } from '../../crypto/seal-contexts.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { recordEvent } from '../events/record-event.js';
import { newId } from '../ids.js';
import { toUserAccountView } from '../onboarding/users/user-view.js';

/** docs/otp.md: a code lives 10 minutes and allows 5 guesses; its approval token lives 5 minutes, once. */
export const OTP_TTL_MS = 10 * 60 * 1000;
export const OTP_MAX_ATTEMPTS = 5;
export const APPROVAL_TOKEN_TTL_MS = 5 * 60 * 1000;
export const APPROVAL_TOKEN_PREFIX = 'otpa_';
const HOUR_MS = 60 * 60 * 1000;

export type OtpChannel = 'email';

/** Where codes go: a mail transport, or (sandbox without SMTP) the outbox table; neither: OTP is unavailable. */
export interface OtpDelivery {
  mailer?: { send(message: { to: string; subject: string; text: string }): Promise<void> };
  sandboxOutbox: boolean;
  resendIntervalMs: number;
  maxPerHour: number;
}

export interface OtpSent {
  userId: string;
  channel: OtpChannel;
  /** The address, masked (j***@example.com). */
  destination: string;
  expiresAt: string;
  attemptsAllowed: number;
  /** When init may be called again for this user. */
  resendAvailableAt: string;
}

export interface ApprovalTokenIssued {
  userId: string;
  approvalToken: string;
  expiresAt: string;
}

/** The code's keyed hash: six digits are guessed offline in a blink, so a plain hash of a leaked table would not do. */
function codeHash(ctx: Pick<MutationContext, 'secrets'>, codeId: string, code: string): string {
  return ctx.secrets.fingerprint(`${codeId}:${code}`, 'otp-code');
}

/** Tokens are 256 random bits, so SHA-256 is enough to keep a leaked table useless. */
export function approvalTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${address[0]}***${address.slice(at)}`;
}

function messageFor(code: string): { subject: string; text: string } {
  return {
    subject: 'Your verification code',
    text: `Your verification code is ${code}.\n\nIt expires in ${OTP_TTL_MS / 60_000} minutes. If you did not ask for it, ignore this message.\n`,
  };
}

const retryAfter = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));

/**
 * otp/init: a fresh six-digit code for the user, superseding any open one, sent by email (or to the sandbox
 * outbox). The code is committed first and mailed after, outside any database transaction: a slow mail server
 * must not hold a connection (or, on PGlite, the whole database). If the mail server refuses, the code is deleted
 * again, so it neither works nor counts against the resend limits.
 */
export async function initOtp(ctx: MutationContext, delivery: OtpDelivery, input: { userId: string; channel: OtpChannel }): Promise<OtpSent> {
  if (!delivery.mailer && !delivery.sandboxOutbox) {
    throw new ApiError('otp_unavailable', 'This deployment has no mail transport (SMTP_URL) for one-time codes');
  }
  const integratorId = ctx.actor.integratorId;
  const id = newId();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const message = messageFor(code);
  const now = ctx.now.getTime();
  const expiresAt = new Date(now + OTP_TTL_MS);

  const { email, userId } = await runMutation(ctx, async (tx) => {
    // The lock serialises concurrent inits of one user, so the resend limits hold.
    const user = await findUser(tx, integratorId, input.userId, { lock: true });
    if (!user) throw notFound('User');
    const address = (user.userInfo as { email?: string }).email;
    if (!address) throw new ApiError('otp_destination_missing', 'The user has no email address');

    const recent = await recentCodes(tx, user.id, new Date(now - HOUR_MS));
    const last = recent[0];
    if (last && now - last.createdAt.getTime() < delivery.resendIntervalMs) {
      const wait = delivery.resendIntervalMs - (now - last.createdAt.getTime());
      throw new ApiError('otp_rate_limited', `A code was sent to this user less than ${delivery.resendIntervalMs / 1000} s ago; retry in ${retryAfter(wait)} s`, { headers: { 'retry-after': retryAfter(wait) } });
    }
    if (recent.length >= delivery.maxPerHour) {
      const wait = recent[delivery.maxPerHour - 1]!.createdAt.getTime() + HOUR_MS - now;
      throw new ApiError('otp_rate_limited', `${delivery.maxPerHour} codes were sent to this user in the last hour; retry in ${retryAfter(wait)} s`, { headers: { 'retry-after': retryAfter(wait) } });
    }

    await supersedeOpenCodes(tx, user.id, ctx.now);
    await insertCode(tx, { id, integratorId, userId: user.id, channel: input.channel, destination: address, codeHash: codeHash(ctx, id, code), expiresAt, createdAt: ctx.now });
    if (!delivery.mailer) {
      const messageId = newId();
      await insertOutboxMessage(tx, {
        id: messageId,
        integratorId,
        userId: user.id,
        channel: input.channel,
        destination: address,
        subject: message.subject,
        body: ctx.secrets.seal(message.text, sealContexts.otpOutbox(messageId, 'body')),
        code: ctx.secrets.seal(code, sealContexts.otpOutbox(messageId, 'code')),
        createdAt: ctx.now,
      });
    }
    return { email: address, userId: user.id };
  });

  if (delivery.mailer) {
    try {
      await delivery.mailer.send({ to: email, ...message });
    } catch (err) {
      await deleteCode(ctx.db.db, id);
      const reply = (err as { responseCode?: unknown }).responseCode;
      throw new ApiError('otp_delivery_failed', `The mail server did not accept the message${typeof reply === 'number' ? ` (SMTP ${reply})` : ''}; no code was issued`);
    }
  }
  return {
    userId,
    channel: input.channel,
    destination: maskEmail(email),
    expiresAt: expiresAt.toISOString(),
    attemptsAllowed: OTP_MAX_ATTEMPTS,
    resendAvailableAt: new Date(now + delivery.resendIntervalMs).toISOString(),
  };
}

type VerifyOutcome = { ok: true; issued: ApprovalTokenIssued } | { ok: false; error: ApiError };

/**
 * otp/verify: checks the user's open code. A wrong guess is counted (and committed) before the refusal is
 * answered; the right one consumes the code, marks the user OTP-activated and issues a single-use approval token.
 */
export async function verifyOtp(ctx: MutationContext, input: { userId: string; code: string }): Promise<ApprovalTokenIssued> {
  const integratorId = ctx.actor.integratorId;
  const outcome = await runMutation<VerifyOutcome>(ctx, async (tx) => {
    const user = await findUser(tx, integratorId, input.userId);
    if (!user) throw notFound('User');
    const open = await findOpenCode(tx, integratorId, user.id);
    if (!open || open.expiresAt.getTime() <= ctx.now.getTime()) {
      throw new ApiError('otp_expired', 'No code is pending for this user (it expired, was used, or none was sent); call otp/init');
    }
    if (open.attempts >= OTP_MAX_ATTEMPTS) {
      throw new ApiError('otp_attempts_exhausted', `The code allowed ${OTP_MAX_ATTEMPTS} guesses; call otp/init for a new one`);
    }
    const expected = Buffer.from(open.codeHash, 'hex');
    const given = Buffer.from(codeHash(ctx, open.id, input.code), 'hex');
    if (!timingSafeEqual(expected, given)) {
      const attempts = await countFailedAttempt(tx, open.id);
      const attemptsRemaining = Math.max(0, OTP_MAX_ATTEMPTS - attempts);
      return { ok: false, error: new ApiError('otp_invalid', `The code is wrong; ${attemptsRemaining} guess(es) left`, { extensions: { attemptsRemaining } }) };
    }

    await consumeCode(tx, open.id, ctx.now);
    if (!user.otpActivatedAt) {
      const account = (await findAccountByUser(tx, user.id))!;
      const [documents, passkeys] = await Promise.all([listDocuments(tx, 'user', user.id), countAuthenticators(tx, user.id)]);
      const updated = await updateUser(tx, user.id, { otpActivatedAt: ctx.now, updatedAt: ctx.now });
      const object = toUserAccountView(updated, account, documents, passkeys);
      await recordEvent(tx, { integratorId, type: 'user.updated', objectType: 'user', objectId: user.id, object, previousAttributes: { isOtpActivated: false }, at: ctx.now });
    }
    const approvalToken = `${APPROVAL_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const expiresAt = new Date(ctx.now.getTime() + APPROVAL_TOKEN_TTL_MS);
    await insertApprovalToken(tx, { id: newId(), integratorId, userId: user.id, otpCodeId: open.id, tokenHash: approvalTokenHash(approvalToken), expiresAt, createdAt: ctx.now });
    return { ok: true, issued: { userId: user.id, approvalToken, expiresAt: expiresAt.toISOString() } };
  });
  if (!outcome.ok) throw outcome.error;
  return outcome.issued;
}

export interface OutboxMessageView {
  id: string;
  userId: string;
  channel: OtpChannel;
  destination: string;
  subject: string;
  body: string;
  code: string;
  createdAt: string;
}

const toOutboxMessageView = (secrets: SecretBox, row: OutboxRow): OutboxMessageView => ({
  id: row.id,
  userId: row.userId,
  channel: row.channel,
  destination: row.destination,
  subject: row.subject,
  body: secrets.open(row.body, sealContexts.otpOutbox(row.id, 'body')).toString('utf8'),
  code: secrets.open(row.code, sealContexts.otpOutbox(row.id, 'code')).toString('utf8'),
  createdAt: row.createdAt.toISOString(),
});

/** Sandbox: the messages a user was sent, newest first, opened (they are sealed at rest). Another integrator's user is a 404. */
export async function readOutbox(db: Database, secrets: SecretBox, integratorId: string, userId: string, limit: number): Promise<{ data: OutboxMessageView[] }> {
  if (!(await findUser(db.db, integratorId, userId))) throw notFound('User');
  return { data: (await listOutbox(db.db, integratorId, userId, limit)).map((row) => toOutboxMessageView(secrets, row)) };
}
