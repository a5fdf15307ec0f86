import { Schema, type Connection, type Model } from 'mongoose';
import { FEED_SKIP_REASONS, type FeedSkipReason } from '@onco/domain';

/**
 * The billing system's status feed as the platform reads it (docs/billing-gateway.md "The status feed";
 * services/billing/src/submission/status-feed.ts). Which entries a case has taken is on the case itself
 * (`feedEntryIds`, written with the change); these two small collections hold the rest.
 */

/**
 * How far the feed has been read: one document per feed (`_id` 'billing-status-feed'), `seq` the sequence number
 * of the last entry applied or skipped. It only grows (written with $max), so a slow poller never moves it back.
 * Collection `billing_feed_cursors`.
 */
export interface BillingFeedCursorDoc {
  _id: string;
  seq: number;
  updatedOn: Date;
}

export const billingFeedCursorSchema = new Schema(
  {
    _id: { type: String, required: true },
    seq: { type: Number, required: true, default: 0 },
    updatedOn: { type: Date, default: () => new Date() },
  },
  { collection: 'billing_feed_cursors', versionKey: false, minimize: false },
);

/**
 * A feed entry that changed nothing (an unknown case, another generation, a closed case, ...), with why: one
 * document per entry (`_id` the entry's id), written once however often the entry is read, so it is logged once.
 * Collection `billing_feed_skips`.
 */
export interface BillingFeedSkipDoc {
  _id: string;
  seq: number;
  key: string;
  status: string;
  reason: FeedSkipReason;
  message: string;
  skippedOn: Date;
}

export const billingFeedSkipSchema = new Schema(
  {
    _id: { type: String, required: true },
    seq: { type: Number, required: true },
    key: { type: String, required: true },
    status: { type: String, required: true },
    reason: { type: String, enum: FEED_SKIP_REASONS, required: true },
    message: { type: String, required: true },
    skippedOn: { type: Date, default: () => new Date() },
  },
  { collection: 'billing_feed_skips', versionKey: false, minimize: false },
);
// operators: the skipped entries of one claim (`{caseId}:{generation}`)
billingFeedSkipSchema.index({ key: 1 });

export function billingFeedCursorModel(conn: Connection): Model<BillingFeedCursorDoc> {
  return (
    (conn.models.BillingFeedCursor as Model<BillingFeedCursorDoc>) ??
    conn.model<BillingFeedCursorDoc>('BillingFeedCursor', billingFeedCursorSchema as never)
  );
}

export function billingFeedSkipModel(conn: Connection): Model<BillingFeedSkipDoc> {
  return (
    (conn.models.BillingFeedSkip as Model<BillingFeedSkipDoc>) ??
    conn.model<BillingFeedSkipDoc>('BillingFeedSkip', billingFeedSkipSchema as never)
  );
}
