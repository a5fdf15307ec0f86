/**
 * What the outbox relay (relay.ts) does with the documents that carry outbox entries: count and read them, make
 * Kafka messages of their entries, remove the published entries and record failed attempts.
 */
import type { Message, TopicMessages } from 'kafkajs';
import type { Collection, Document, Db } from 'mongodb';
import { withPrefix } from './topics';
import { errorMessage, type EventsLogger } from './util';
import type { OutboxEntry } from './outbox';

export interface OutboxDoc extends Document {
  _id: any;
  outbox: OutboxEntry[];
}

/** Kafka errors caused by the messages themselves (not by the broker being unavailable). */
const ENTRY_SPECIFIC_ERRORS = new Set([
  'MESSAGE_TOO_LARGE',
  'RECORD_LIST_TOO_LARGE',
  'INVALID_TOPIC_EXCEPTION',
  'CORRUPT_MESSAGE',
  'INVALID_RECORD',
  'TOPIC_AUTHORIZATION_FAILED',
  'INVALID_REQUIRED_ACKS',
]);

export function isEntrySpecificError(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && depth < 5; depth++) {
    const type = (e as { type?: unknown }).type;
    if (typeof type === 'string' && ENTRY_SPECIFIC_ERRORS.has(type)) return true;
    e = (e as { cause?: unknown; originalError?: unknown }).originalError ?? (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Number of entries still waiting, over the collections. */
export async function countPending(db: Db, collections: readonly string[]): Promise<number> {
  let total = 0;
  for (const name of collections) {
    const rows = await db
      .collection(name)
      .aggregate<{ n: number }>([
        { $match: { 'outbox.0': { $exists: true } } },
        { $unwind: '$outbox' },
        { $count: 'n' },
      ])
      .toArray();
    total += rows[0]?.n ?? 0;
  }
  return total;
}

/** The documents' entries as Kafka messages, grouped by (prefixed) topic, in entry order. */
export function toTopicMessages(docs: OutboxDoc[], topicPrefix: string | undefined): TopicMessages[] {
  const byTopic = new Map<string, Message[]>();
  for (const doc of docs) {
    for (const entry of doc.outbox) {
      const topic = withPrefix(entry.topic, topicPrefix);
      let list = byTopic.get(topic);
      if (!list) byTopic.set(topic, (list = []));
      const createdOn = entry.createdOn instanceof Date ? entry.createdOn : new Date(entry.createdOn);
      list.push({
        key: entry.key,
        value: entry.value,
        timestamp: Number.isNaN(createdOn.getTime()) ? undefined : String(createdOn.getTime()),
        headers: { 'event-id': entry.id, 'event-type': entry.type, 'content-type': 'application/json' },
      });
    }
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

/**
 * Remove exactly the published entries; entries pushed meanwhile stay: one `$pull` by entry id per
 * document, all in one unordered bulk write. Returns the number of entries removed.
 */
export async function pullEntries(coll: Collection, docs: OutboxDoc[]): Promise<number> {
  const count = docs.reduce((n, d) => n + d.outbox.length, 0);
  await coll.bulkWrite(
    docs.map((doc) => ({
      updateOne: {
        filter: { _id: doc._id },
        update: { $pull: { outbox: { id: { $in: doc.outbox.map((e) => e.id) } } } } as Document,
      },
    })),
    { ordered: false },
  );
  return count;
}

/** Record a failed attempt on each entry (by array position, guarded by the entry id). */
export async function markFailed(
  coll: Collection,
  docs: OutboxDoc[],
  err: unknown,
  logger: EventsLogger,
): Promise<void> {
  if (docs.length === 0) return;
  const message = errorMessage(err).slice(0, 1000);
  const now = new Date();
  try {
    const ops = docs.map((doc) => {
      const filter: Document = { _id: doc._id };
      const inc: Document = {};
      const set: Document = {};
      doc.outbox.forEach((entry, i) => {
        filter[`outbox.${i}.id`] = entry.id;
        inc[`outbox.${i}.attempts`] = 1;
        set[`outbox.${i}.lastError`] = message;
        set[`outbox.${i}.lastAttemptOn`] = now;
      });
      return { updateOne: { filter, update: { $inc: inc, $set: set } } };
    });
    await coll.bulkWrite(ops, { ordered: false });
  } catch (markErr) {
    logger.warn({ err: errorMessage(markErr) }, 'could not record the failed outbox attempt');
  }
}
