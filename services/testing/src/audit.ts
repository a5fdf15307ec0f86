/**
 * The audit trail as the tests read it (docs/audit.md): the entries a system recorded since an instant, from its
 * inbox (a test system without workers runs no chainer, so its entries wait there).
 */
import type { Connection } from 'mongoose';
import { auditModels, type InboxDoc } from '@onco/platform';

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
