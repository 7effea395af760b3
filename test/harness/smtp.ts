import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpReceiver {
  url: string;
  messages: ReceivedMail[];
  /** While set, RCPT TO is refused with this SMTP reply (a mail server turning the message away). */
  refuseWith: string | undefined;
  close(): Promise<void>;
}

/** A real SMTP server on a free loopback port that keeps what it receives (no TLS, no auth). */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const receiver: SmtpReceiver = {
    url: '',
    messages: [],
    refuseWith: undefined,
    close: async () => {},
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (receiver.refuseWith) {
        const err = Object.assign(new Error(receiver.refuseWith), { responseCode: 550 });
        callback(err);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        receiver.messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  receiver.url = `smtp://127.0.0.1:${port}`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}

/** The six digits in a code message (its text part is plain ASCII). */
export function codeIn(raw: string): string {
  const m = /verification code is (\d{6})\./.exec(raw);
  if (!m) throw new Error(`no code in message: ${raw.slice(0, 500)}`);
  return m[1]!;
}
