import nodemailer from 'nodemailer';

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

/** SMTP through nodemailer, one pooled transport per process (SMTP_URL, SMTP_FROM). */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  // Nodemailer's defaults wait minutes on a dead server; a code nobody receives in 10 s is worth an error instead.
  // Settings in the URL's query (e.g. ?connectionTimeout=30000) still win.
  const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }, { from });
  return {
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
    close() {
      transport.close();
    },
  };
}
