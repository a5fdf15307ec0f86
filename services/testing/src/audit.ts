/**
 * The audit trail as the tests read it (docs/audit.md): the entries a system recorded since an instant, from its
 * inbox (a test system without workers runs no chainer, so its entries wait there).
 */
import type { Connection } from 'mongoose';
import { auditModels, auditTrailOf, type InboxDoc } from '@onco/platform';

/** The entries recorded since `since`, oldest first; `changes: true` leaves the reads, sign-ins and sign-outs out. */
export const auditEntriesSince = (
  mongo: Connection,
  since: Date,
  opts: { changes?: boolean } = {},
): Promise<InboxDoc[]> =>
  auditModels(mongo)
    .Inbox.find({
      when: { $gte: since },
      ...(opts.changes ? { action: { $nin: ['read', 'sign-in', 'sign-out'] } } : {}),
    })
    .sort({ when: 1, _id: 1 })
    .lean<InboxDoc[]>()
    .exec();

/** Entries of one transaction share their instant: then in the order of the record ids given. */
export const inRecordOrder = (entries: InboxDoc[], ids: string[]): InboxDoc[] =>
  [...entries].sort((a, b) => +a.when - +b.when || ids.indexOf(a.what.id!) - ids.indexOf(b.what.id!));

/**
 * Run `run` while the audit inbox refuses entries (every one, or those `fails` picks), as a store that lost them
 * would: a change then rolls back and answers 503, a read fails with 503. The inbox is as before afterwards.
 */
export async function withAuditEntriesRefused<T>(
  ctx: { mongo: Connection },
  run: () => Promise<T>,
  fails: (doc: InboxDoc) => boolean = () => true,
): Promise<T> {
  const inbox = auditTrailOf(ctx).models.Inbox.collection;
  const { insertOne, insertMany } = inbox;
  const [one, many] = [insertOne.bind(inbox), insertMany.bind(inbox)];
  const refused = () => Promise.reject(new Error('store unavailable'));
  const entry = (doc: unknown) => doc as InboxDoc;
  inbox.insertOne = ((doc, opts) => (fails(entry(doc)) ? refused() : one(doc, opts!))) as typeof insertOne;
  inbox.insertMany = ((docs, opts) =>
    docs.some((d) => fails(entry(d))) ? refused() : many(docs, opts!)) as typeof insertMany;
  try {
    return await run();
  } finally {
    inbox.insertOne = insertOne;
    inbox.insertMany = insertMany;
  }
}
