import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends one message; rejects when the SMTP server did not accept it. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * SMTP through nodemailer, one pooled transport per process (SMTP_URL, SMTP_FROM). Nodemailer is loaded with the
 * first message: about 5 MB of heap that every full collection would mark in a process that may never send one
 * (docs/benchmarks.md, issue 55).
 */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  let transport: Promise<Transporter> | undefined;
  let closed = false;
  const open = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      // Nodemailer's defaults wait minutes on a dead server; a code nobody receives in 10 s is worth an error instead.
      // Settings in the URL's query (e.g. ?connectionTimeout=30000) still win.
      nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }, { from }),
    ));
  return {
    async send(message) {
      if (closed) throw new Error('the mailer is closed');
      await (await open()).sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
    close() {
      closed = true;
      // A transport that never opened (nodemailer refused the URL) has nothing to close; its error was the sends'.
      void transport?.then((opened) => opened.close(), () => undefined);
    },
  };
}
