import type { AddressInfo } from 'node:net';
import { after } from 'node:test';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

// Every server still open is closed once the test file's tests end.
const open = new Set<() => Promise<void>>();
after(async () => {
  for (const close of open) await close();
});

export interface ReceivedMail {
  /** The SMTP envelope: what the server was told, whatever the headers say. */
  from: string;
  to: string[];
  /** The message as parsed by a mail client's parser. */
  mail: ParsedMail;
  /** When the server took the message (Date.now()). */
  receivedAt: number;
}

export interface SmtpServer {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  port: number;
  messages: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server on a loopback ephemeral port that keeps what it receives; closed when the test
 * file ends. Plain SMTP without authentication (STARTTLS off: its certificate would be self-signed).
 */
export async function startSmtpServer(): Promise<SmtpServer> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            mail,
            receivedAt: Date.now(),
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  // A client that dies mid-session (a killed worker) resets its connection: not the server's failure.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  let closed: Promise<void> | null = null;
  const close = () => {
    open.delete(close);
    closed ??= new Promise<void>((resolve) => server.close(() => resolve()));
    return closed;
  };
  open.add(close);
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    close,
  };
}

/** The URL of an SMTP server that is down: a loopback port that was just free, so connecting is refused. */
export async function deadSmtpUrl(): Promise<string> {
  const server = await startSmtpServer();
  await server.close();
  return server.url;
}
