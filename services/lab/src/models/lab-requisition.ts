import { Schema, type Connection, type Model } from 'mongoose';
import { CLINICAL_REVIEW_STATUSES, REQUISITION_STATUSES, type ClinicalReviewStatus } from '@onco/domain';
import { idName, str, sub } from './common';

/**
 * The lab's own copy of a submitted requisition's latest state, from requisition-changed events
 * (`_id` = requisition id). Kept so a change that arrives before the requisition-submitted event that creates
 * the test orders (no ordering between topics) is still applied to them when they are created.
 * Collection `lab_requisitions`.
 */
export interface LabRequisitionDoc {
  _id: string;
  /** requisitionVersion of the newest requisition-changed event applied */
  version: number;
  status: string;
  deleted: boolean;
  clinicalReviewStatus: ClinicalReviewStatus | null;
  account: { id: string | null; name: string | null };
  physician: { id: string | null; name: string | null };
  hospitalLocation: { id: string | null; name: string | null } | null;
  patient: { id: string | null; name: string | null; userId: string | null };
  changedOn: Date;
  changedBy: string | null;
}

export const labRequisitionSchema = new Schema(
  {
    _id: { type: String, required: true },
    version: { type: Number, required: true },
    status: { type: String, enum: REQUISITION_STATUSES, required: true },
    deleted: { type: Boolean, default: false },
    clinicalReviewStatus: { type: String, enum: CLINICAL_REVIEW_STATUSES, default: null },
    account: { type: idName(), default: null },
    physician: { type: idName(), default: null },
    hospitalLocation: { type: idName(), default: null },
    patient: { type: sub({ id: str, name: str, userId: str }), default: null },
    changedOn: { type: Date, required: true },
    changedBy: str,
  },
  { collection: 'lab_requisitions', versionKey: false, minimize: false },
);
// only _id lookups (the consumers read and write one requisition's state by its id)

export function labRequisitionModel(conn: Connection): Model<LabRequisitionDoc> {
  return (
    (conn.models.LabRequisition as Model<LabRequisitionDoc>) ??
    conn.model<LabRequisitionDoc>('LabRequisition', labRequisitionSchema as never)
  );
}
