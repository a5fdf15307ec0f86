import { loadConfig, readMailbox } from '@onco/platform';

/** Print the development mailbox (MAIL_TRANSPORT=local): the newest messages last. `npm run mailbox -- 5` */
const config = loadConfig();
const n = Number(process.argv[2] ?? 10);
const mails = await readMailbox(config.MAILBOX_DIR);
if (mails.length === 0) console.log(`The mailbox ${config.MAILBOX_DIR} is empty.`);
for (const m of mails.slice(-n)) {
  console.log(`--- ${m.sentOn}  to: ${m.to}\nSubject: ${m.subject}\n\n${m.text}`);
}
