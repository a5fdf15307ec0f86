import { Schema, type Connection, type Model } from 'mongoose';

/**
 * One line of an order's timeline (collection `order_timeline`): what happened to a requisition, its tests and
 * its samples, projected from the events the platform publishes (projections/timeline.ts). `_id` is the event id,
 * so a redelivered event writes nothing new.
 */
export interface TimelineEntryDoc {
  _id: string;
  requisitionId: string;
  /** when it happened (the event's changedOn / submittedOn) */
  at: Date;
  /** the event family and what it reports */
  family: 'requisition-submitted' | 'requisition-changed' | 'test-status' | 'sample' | 'billing-case';
  kind: string;
  testOrderId: string | null;
  sampleId: string | null;
  by: { id: string | null; name: string | null } | null;
  /** the few fields a reader needs to say what happened (status before/after, due date, report version, ...) */
  data: Record<string, unknown>;
}

const timelineSchema = new Schema(
  {
    _id: { type: String, required: true },
    requisitionId: { type: String, required: true },
    at: { type: Date, required: true },
    family: { type: String, required: true },
    kind: { type: String, required: true },
    testOrderId: { type: String, default: null },
    sampleId: { type: String, default: null },
    by: { type: new Schema({ id: String, name: String }, { _id: false }), default: null },
    data: { type: Schema.Types.Mixed, default: {} },
  },
  { collection: 'order_timeline', versionKey: false, minimize: false },
);
// GET /testOrderForms/{id}/timeline: one order's entries in time order
timelineSchema.index({ requisitionId: 1, at: 1 });

export function timelineModel(conn: Connection): Model<TimelineEntryDoc> {
  return (
    (conn.models.TimelineEntry as Model<TimelineEntryDoc>) ??
    conn.model<TimelineEntryDoc>('TimelineEntry', timelineSchema as never)
  );
}
