import { mkdir, writeFile, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(msg: MailMessage): Promise<void>;
}

/**
 * The mail adapter: SMTP when MAIL_TRANSPORT is an smtp:// URL; otherwise the development mailbox, one JSON
 * file per message under MAILBOX_DIR (read it with `npm run mailbox`, see the README).
 */
export function createMailer(transport: string, from: string, mailboxDir: string): Mailer {
  if (transport.startsWith('smtp://') || transport.startsWith('smtps://')) {
    const t = nodemailer.createTransport(transport);
    return {
      async send(msg) {
        await t.sendMail({ from, to: msg.to, subject: msg.subject, text: msg.text });
      },
    };
  }
  return {
    async send(msg) {
      await mkdir(mailboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.json`;
      await writeFile(
        path.join(mailboxDir, name),
        JSON.stringify({ from, ...msg, sentOn: new Date().toISOString() }, null, 2),
      );
    },
  };
}

/** Read the development mailbox, newest last (used by the mailbox script and by tests). */
export async function readMailbox(mailboxDir: string): Promise<Array<MailMessage & { sentOn: string }>> {
  let names: string[] = [];
  try {
    names = (await readdir(mailboxDir)).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return Promise.all(names.map(async (n) => JSON.parse(await readFile(path.join(mailboxDir, n), 'utf8'))));
}
