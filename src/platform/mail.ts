import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SentMail {
  messageId: string;
  /** The .eml file written in file mode; null when the message went to an SMTP server. */
  file: string | null;
}

/**
 * The mail port. With SMTP_URL, messages go to that server; without it they are written as .eml
 * files under `<ACADEMY_DATA_DIR>/mail/`, so a development or test setup needs no mail server and
 * every message can still be opened in a mail client.
 */
export interface Mailer {
  mode: 'smtp' | 'file';
  send(message: MailMessage): Promise<SentMail>;
  /** Throws when mail cannot be sent: the SMTP server refuses or is unreachable, or the mail directory is not writable. */
  verify(): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  from?: string;
  /** Limits every SMTP connection phase, so a dead server fails fast instead of hanging a job. */
  smtpTimeoutMs?: number;
}

const DEFAULT_FROM = 'Academy <no-reply@academy.invalid>';

type Nodemailer = typeof import('nodemailer')['default'];

/**
 * A transport made when the first message is sent or the mailer is verified: nodemailer is about
 * 3 MB of heap that API processes, which send no mail themselves, do not carry.
 */
function lazyTransport(make: (nodemailer: Nodemailer) => Transporter) {
  let made: Promise<Transporter> | undefined;
  let closed = false;
  return {
    get(): Promise<Transporter> {
      made ??= import('nodemailer').then(({ default: nodemailer }) => {
        const transport = make(nodemailer);
        if (closed) transport.close();
        return transport;
      });
      return made;
    },
    close(): void {
      closed = true;
      made?.then((transport) => transport.close()).catch(() => {});
    },
  };
}

export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'dataDir'> & Partial<Pick<Config, 'mailFrom'>>,
  options: MailerOptions = {},
): Mailer {
  const from = options.from ?? config.mailFrom ?? DEFAULT_FROM;
  const smtpUrl = config.smtpUrl;
  if (smtpUrl) {
    const timeout = options.smtpTimeoutMs ?? 10_000;
    const transport = lazyTransport((nodemailer) =>
      nodemailer.createTransport({ url: smtpUrl, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout }, { from }),
    );
    return {
      mode: 'smtp',
      async send(message) {
        const info = await (await transport.get()).sendMail({ from, ...message });
        return { messageId: info.messageId, file: null };
      },
      async verify() {
        await (await transport.get()).verify();
      },
      close: () => transport.close(),
    };
  }

  const dir = path.join(config.dataDir, 'mail');
  const transport = lazyTransport((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  return {
    mode: 'file',
    async send(message) {
      const info = await (await transport.get()).sendMail({ from, ...message });
      // Invitation and reset links are in these files: private to the service's user (README: Secrets at rest).
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(6).toString('hex')}.eml`;
      const file = path.join(dir, name);
      // Written under a temporary name and renamed, so a reader never sees half a message.
      const partial = path.join(dir, `.${name}.partial`);
      try {
        await writeFile(partial, info.message as Buffer, { flag: 'wx', mode: 0o600 });
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { messageId: info.messageId, file };
    },
    async verify() {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await access(dir, constants.W_OK);
    },
    close: () => transport.close(),
  };
}
