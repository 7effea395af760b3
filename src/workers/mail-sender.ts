import type { Clock } from '../clock.js';
import { sealContexts } from '../crypto/seal-contexts.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Database } from '../db/database.js';
import { listOverdueInvitations } from '../db/repositories/invitations.js';
import { claimDueMail, markFailedAttempt, markSent, type ClaimedMail } from '../db/repositories/mail-outbox.js';
import { expireInvitation } from '../domain/members/invitations.js';
import { listOverdueOnboardingLinks } from '../db/repositories/onboarding-links.js';
import { expireOnboardingLink } from '../domain/onboarding-links/link-life.js';
import type { Log } from '../log.js';
import type { Mailer } from '../mail/mailer.js';
import { Rounds } from './rounds.js';

export interface MailSenderDeps {
  database: Database;
  secrets: SecretBox;
  clock: Clock;
  log: Log;
  /** SMTP_URL's transport; without one nothing is sent (sandbox keeps its messages held) but invitations still expire. */
  mailer?: Mailer;
  pollIntervalMs?: number;
}

export interface MailSender {
  /** Look now (after mail was queued). */
  kick(): void;
  /** Runs a round now (or right after the one under way) and resolves with what the round did: tests drive it. */
  runOnce(): Promise<MailRoundResult>;
  stop(): Promise<void>;
}

export interface MailRoundResult {
  sent: number;
  failedAttempts: number;
  expiredInvitations: number;
}

/** docs/invitations.md#mail: attempts before a message is given up, and the backoff between them. */
export const MAX_MAIL_ATTEMPTS = 8;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60_000;
/** Longer than nodemailer's connection, greeting and socket timeouts together (mail/mailer.ts). */
const LEASE_MS = 5 * 60_000;
const BATCH = 20;

export function retryDelayMs(attempts: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (attempts - 1));
}

/**
 * Sends the queued mail (mail_outbox rows `pending`) and expires invitations and onboarding links past their date. A round claims due
 * messages with FOR UPDATE SKIP LOCKED under a lease (several processes never take the same row), then sends each
 * with no database transaction open (a slow mail server must hold no connection, nor PGlite's one), then records
 * the outcome while the claim is still its own: sent, or another attempt later with exponential backoff, or failed
 * after MAX_MAIL_ATTEMPTS. A crash between sending and recording sends again when the lease ends: at least once.
 */
export function startMailSender(deps: MailSenderDeps): MailSender {
  const { database, secrets, clock, log, mailer } = deps;
  const pollIntervalMs = deps.pollIntervalMs ?? 5_000;
  let waiting: ((result: MailRoundResult) => void)[] = [];
  const rounds = new Rounds(
    async () => {
      const served = waiting;
      waiting = [];
      const result: MailRoundResult = { sent: 0, failedAttempts: 0, expiredInvitations: 0 };
      try {
        result.expiredInvitations = await expireOverdue();
        await expireOverdueLinks();
        if (mailer) await sendDue(mailer, result);
      } finally {
        served.forEach((resolve) => resolve(result));
        rounds.wakeIn(pollIntervalMs);
      }
    },
    (err) => log.error({ err }, 'mail sender round failed'),
    pollIntervalMs,
  );

  async function expireOverdue(): Promise<number> {
    let expired = 0;
    for (;;) {
      const overdue = await listOverdueInvitations(database.db, clock(), 100);
      for (const row of overdue) if (await expireInvitation(database.db, row.integratorId, row.id, clock())) expired++;
      if (overdue.length < 100) return expired;
    }
  }

  // Onboarding links past their date (docs/onboarding-links.md#expiry), each in its own transaction with its event.
  async function expireOverdueLinks(): Promise<void> {
    for (;;) {
      const overdue = await listOverdueOnboardingLinks(database.db, clock(), 100);
      for (const row of overdue) await expireOnboardingLink(database.db, row.integratorId, row.id, clock());
      if (overdue.length < 100) return;
    }
  }

  async function sendDue(transport: Mailer, result: MailRoundResult): Promise<void> {
    for (;;) {
      const now = clock();
      const claims = await claimDueMail(database.db, now, new Date(now.getTime() + LEASE_MS), BATCH);
      for (const claim of claims) {
        if (await sendOne(transport, claim)) result.sent++;
        else result.failedAttempts++;
      }
      if (claims.length < BATCH) return;
    }
  }

  async function sendOne(transport: Mailer, claim: ClaimedMail): Promise<boolean> {
    try {
      const subject = secrets.open(claim.subjectSealed, sealContexts.mailOutbox(claim.id, 'subject')).toString('utf8');
      const text = secrets.open(claim.bodySealed, sealContexts.mailOutbox(claim.id, 'body')).toString('utf8');
      await transport.send({ to: claim.recipient, subject, text });
    } catch (err) {
      const reply = (err as { responseCode?: unknown }).responseCode;
      const error = `${typeof reply === 'number' ? `SMTP ${reply}: ` : ''}${err instanceof Error ? err.message : String(err)}`.slice(0, 500);
      const retryAt = claim.attempts < MAX_MAIL_ATTEMPTS ? new Date(clock().getTime() + retryDelayMs(claim.attempts)) : null;
      await markFailedAttempt(database.db, claim.id, claim.attempts, error, retryAt);
      log.warn({ mailId: claim.id, attempts: claim.attempts, gaveUp: retryAt === null }, 'mail not accepted by the SMTP server');
      return false;
    }
    await markSent(database.db, claim.id, claim.attempts, clock());
    return true;
  }

  rounds.kick();
  return {
    kick: rounds.kick,
    runOnce() {
      const done = new Promise<MailRoundResult>((resolve) => waiting.push(resolve));
      rounds.kick();
      return done;
    },
    stop: () => rounds.stop(),
  };
}
