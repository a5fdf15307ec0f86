import { Schema, type Connection, type Model } from 'mongoose';
import {
  BILLING_REVIEW_STATUSES,
  BILLING_TYPES,
  MEDICARE_DATA_FIELDS,
  type BillingReviewStatus,
  type RequisitionBillingSummary,
} from '@onco/domain';

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
  /** the billing summary (events of schemaVersion 4); null when not carried (an older event) */
  billing: RequisitionBillingSummary | null;
  /** the ICD-10 codes (requisition-submitted, requisition-changed of schemaVersion 4) */
  icd10Codes: string[] | null;
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

/** The billing summary a claim is checked with (also kept on each case as `claimInfo`). */
export const billingSummarySchema = () =>
  new Schema(
    {
      billingType: { type: String, enum: BILLING_TYPES, default: null },
      payorId: { type: String, default: null },
      payorName: { type: String, default: null },
      patientAddressComplete: { type: Boolean, default: false },
      // requisition events of schemaVersion 5 (submitted) / 8 (changed): what Medicare needs and the form lacks;
      // absent when an older event did not say (the pre-submit checks then cannot tell, and say nothing)
      medicareDataMissing: { type: [{ type: String, enum: MEDICARE_DATA_FIELDS }], default: undefined },
    },
    { _id: false },
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
    billing: { type: billingSummarySchema(), default: null },
    icd10Codes: { type: [String], default: null },
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
