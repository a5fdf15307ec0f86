import { Schema, type Connection, type Model } from 'mongoose';
import { BILLING_REVIEW_STATUSES, type BillingReviewStatus } from '@onco/domain';

/**
 * The billing service's copy of a submitted requisition's latest state (`_id` = requisition id), from
 * requisition-submitted and requisition-changed events: the parties and names, the TRF number, the billing
 * review status and whether it is deleted. Its billing cases are created from test-status events, on another
 * topic with no ordering between them, so each case takes this state when it is created and every newer state
 * is applied to the requisition's cases. Collection `billing_requisitions`.
 */
export interface BillingRequisitionDoc {
  _id: string;
  /** requisitionVersion of the newest requisition-changed event applied; -1 when only the submission is known */
  version: number;
  testRequisitionId: string | null;
  account: { id: string | null; name: string | null } | null;
  physician: { id: string | null; name: string | null } | null;
  patient: { id: string | null; name: string | null } | null;
  /** null until a requisition-changed event of schemaVersion 3 carries it (not on requisition-submitted) */
  billingReviewStatus: BillingReviewStatus | null;
  deleted: boolean;
  changedOn: Date;
}

const idName = () =>
  new Schema(
    { id: { type: String, default: null }, name: { type: String, default: null } },
    {
      _id: false,
    },
  );

export const billingRequisitionSchema = new Schema(
  {
    _id: { type: String, required: true },
    version: { type: Number, required: true },
    testRequisitionId: { type: String, default: null },
    account: { type: idName(), default: null },
    physician: { type: idName(), default: null },
    patient: { type: idName(), default: null },
    billingReviewStatus: { type: String, enum: BILLING_REVIEW_STATUSES, default: null },
    deleted: { type: Boolean, default: false },
    changedOn: { type: Date, required: true },
  },
  { collection: 'billing_requisitions', versionKey: false, minimize: false },
);
// only _id lookups (the consumer reads and writes one requisition's state by its id)

export function billingRequisitionModel(conn: Connection): Model<BillingRequisitionDoc> {
  return (
    (conn.models.BillingRequisition as Model<BillingRequisitionDoc>) ??
    conn.model<BillingRequisitionDoc>('BillingRequisition', billingRequisitionSchema as never)
  );
}
