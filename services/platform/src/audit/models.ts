/**
 * The audit trail's collections (docs/audit.md): the inbox (entries recorded, not yet chained), the chain
 * (`audit_entries`, insert only), its head and archive marks (`audit_chain`) and the chained entries waiting for
 * Kafka (`audit_publish`, an outbox collection the relay publishes from). Only this folder touches them, and
 * nothing here updates or deletes an entry of the chain but the retention job (retention.ts).
 */
import { Schema, type ClientSession, type Connection, type Model } from 'mongoose';
import { outboxEntrySchemaDefinition, outboxEntrySchemaOptions, type OutboxEntry } from '@onco/events';
import type { AuditEntryFields } from '@onco/domain';
import type { ChainedEntry } from './hash';

export const AUDIT_COLLECTIONS = {
  inbox: 'audit_inbox',
  entries: 'audit_entries',
  chain: 'audit_chain',
  publish: 'audit_publish',
} as const;

/** An entry as recorded, not yet chained (`_id` is its id). */
export type InboxDoc = Omit<AuditEntryFields<Date>, 'id'> & { _id: string };
/** An entry of the chain (`_id` is its id). */
export type EntryDoc = Omit<ChainedEntry, 'id'> & { _id: string };
/** The chain's head (`_id: 'head'`: the last entry's seq and hash) and archive mark (`_id: 'archive'`). */
export interface ChainMarkDoc {
  _id: 'head' | 'archive';
  seq: number;
  hash: string;
  updatedOn: Date;
  /** the archive mark: entries archived so far, where the last archive went, and every archive file */
  archived?: number;
  location?: string | null;
  archives?: Array<{
    fromSeq: number;
    toSeq: number;
    count: number;
    blobId: string;
    sha256: string;
    archivedOn: Date;
  }>;
}
export interface PublishDoc {
  _id: string;
  createdOn: Date;
  outbox: OutboxEntry[];
}

const who = new Schema<any>({ userId: String, role: String, name: String }, { _id: false });
const what = new Schema<any>(
  { type: String, id: String, patientId: String, patientIds: { type: [String], default: undefined } },
  { _id: false },
);
const from = new Schema<any>({ ip: String, userAgent: String, requestId: String }, { _id: false });
const fields: Record<string, unknown> = {
  _id: { type: String, required: true },
  when: { type: Date, required: true },
  who: { type: who, required: true },
  onBehalfOf: { type: [String], default: [] },
  what: { type: what, required: true },
  action: { type: String, required: true },
  outcome: { type: String, required: true },
  from: { type: from, required: true },
  changes: { type: [String], default: null },
  route: { type: String, default: null },
  status: { type: Number, default: null },
  count: { type: Number, default: null },
};

const inboxSchema = new Schema<any>(fields, { collection: AUDIT_COLLECTIONS.inbox, versionKey: false });
// the chainer takes the oldest entries first (chain.ts appendPending)
inboxSchema.index({ when: 1, _id: 1 });

const entrySchema = new Schema<any>(
  {
    ...fields,
    seq: { type: Number, required: true },
    prevHash: { type: String, required: true },
    hash: { type: String, required: true },
  },
  { collection: AUDIT_COLLECTIONS.entries, versionKey: false },
);
// the chain itself: one entry a number (two chainers cannot both append seq n); the check walks it in order;
// the list's default order (newest first)
entrySchema.index({ seq: 1 }, { unique: true });
// the list filtered by user, by patient (a patient's access history) and by record, newest first
entrySchema.index({ 'who.userId': 1, seq: -1 });
entrySchema.index({ 'what.patientId': 1, seq: -1 });
// a list read's patients (multikey): the patient filter looks in both
entrySchema.index({ 'what.patientIds': 1, seq: -1 });
entrySchema.index({ 'what.id': 1, seq: -1 });
// the list's date range, and the retention job's oldest entries
entrySchema.index({ when: 1 });

const chainSchema = new Schema<any>(
  {
    _id: { type: String, required: true },
    seq: { type: Number, required: true },
    hash: { type: String, required: true },
    updatedOn: { type: Date, required: true },
    archived: { type: Number, default: 0 },
    location: { type: String, default: null },
    archives: { type: [Schema.Types.Mixed], default: undefined },
  },
  { collection: AUDIT_COLLECTIONS.chain, versionKey: false },
);

const publishSchema = new Schema<any>(
  {
    _id: { type: String, required: true },
    createdOn: { type: Date, required: true },
    outbox: { type: [new Schema<any>(outboxEntrySchemaDefinition, outboxEntrySchemaOptions)], default: [] },
  },
  { collection: AUDIT_COLLECTIONS.publish, versionKey: false },
);

export interface AuditModels {
  Inbox: Model<InboxDoc>;
  Entry: Model<EntryDoc>;
  Chain: Model<ChainMarkDoc>;
  Publish: Model<PublishDoc>;
}

/** The models on a connection (registered once; a second call gets the same ones). */
export function auditModels(conn: Connection): AuditModels {
  return {
    Inbox: (conn.models.AuditInbox as Model<InboxDoc>) ?? conn.model<InboxDoc>('AuditInbox', inboxSchema),
    Entry: (conn.models.AuditEntry as Model<EntryDoc>) ?? conn.model<EntryDoc>('AuditEntry', entrySchema),
    Chain:
      (conn.models.AuditChain as Model<ChainMarkDoc>) ?? conn.model<ChainMarkDoc>('AuditChain', chainSchema),
    Publish:
      (conn.models.AuditPublish as Model<PublishDoc>) ??
      conn.model<PublishDoc>('AuditPublish', publishSchema),
  };
}

/** The only writes of the chain's entries: inserts (native, so what is hashed is what is stored). */
export function insertEntries(models: AuditModels, docs: EntryDoc[], session: ClientSession) {
  return models.Entry.collection.insertMany(docs as never[], { session, ordered: true });
}

/** An entry of the chain as the hash sees it. */
export function entryOf(doc: EntryDoc): ChainedEntry {
  const { _id, ...rest } = doc as EntryDoc & { __v?: number };
  delete (rest as { __v?: number }).__v;
  return { ...rest, id: _id } as ChainedEntry;
}
