import type { Connection, Model } from 'mongoose';
import { Schema } from 'mongoose';
import { newId } from '@onco/platform';
import { idName } from './common';

/**
 * A report uploaded and not yet submitted (spec 2 section 7 "Test orders": upload answers a `filePath`, submit
 * attaches it). The `_id` is the opaque `filePath` the client gets; the bytes are in the blob store under
 * `blobId`. Only its uploader may submit it, only to its test, once, before `expiresOn`. An expired record that
 * was never attached is swept with its blob (use-cases/reports.ts sweepExpiredReportUploads). Collection
 * `pending_reports`.
 */
export interface PendingReportDoc {
  _id: string;
  /** the test order the file was uploaded to */
  testOrderId: string;
  blobId: string;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  /** the flags sent with the upload (isAmendedReport, isTnpReportComplete); submit may override them */
  amended: boolean;
  tnp: boolean;
  uploadedBy: { id: string; name: string | null };
  createdOn: Date;
  expiresOn: Date;
  /** set once attached to the test order as report `version` */
  submittedOn: Date | null;
  version: number | null;
}

export const pendingReportSchema = new Schema<PendingReportDoc>(
  {
    _id: { type: String, default: newId },
    testOrderId: { type: String, required: true },
    blobId: { type: String, required: true },
    fileName: { type: String, required: true },
    contentType: { type: String, required: true },
    size: { type: Number, required: true },
    sha256: { type: String, required: true },
    amended: { type: Boolean, default: false },
    tnp: { type: Boolean, default: false },
    uploadedBy: { type: idName(), required: true },
    createdOn: { type: Date, default: () => new Date() },
    expiresOn: { type: Date, required: true },
    submittedOn: { type: Date, default: null },
    version: { type: Number, default: null },
  },
  { collection: 'pending_reports', versionKey: false, minimize: false },
);

// the sweep of expired uploads (sweepExpiredReportUploads: expiresOn < now, oldest first); lookups are by _id
pendingReportSchema.index({ expiresOn: 1 });

export function pendingReportModel(conn: Connection): Model<PendingReportDoc> {
  return (
    (conn.models.PendingReport as Model<PendingReportDoc>) ??
    conn.model<PendingReportDoc>('PendingReport', pendingReportSchema)
  );
}
