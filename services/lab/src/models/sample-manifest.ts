import { Schema, type Connection, type Model } from 'mongoose';
import type { OutboxEntry } from '@onco/events';
import type { ManifestError } from '@onco/domain';
import { idName, outboxField, str, sub } from './common';

/**
 * The lab's record of a SAMPLE_MANIFEST attachment (docs/manifests.md), `_id` = the attachment id. Created by
 * the `attachment.changed` consumer (status UPLOADED) from what the event carried (file, account, uploader, the
 * uploader's role and scope); the `sample-manifest` queue's job sets its verdict, PROCESSED or ERROR, with the
 * counts, the row errors and the reconciliation, and the `sample-manifest.processed` event in `outbox` (the same
 * write; for PROCESSED the same transaction as the samples). Collection `sample_manifests`.
 */
export type SampleManifestStatus = 'UPLOADED' | 'PROCESSED' | 'ERROR';
export const SAMPLE_MANIFEST_STATUSES = ['UPLOADED', 'PROCESSED', 'ERROR'] as const;

export interface MissingSamples {
  testOrderFormId: string;
  testRequisitionId: string | null;
  /** the sample kinds the requisition is expected to have (expectedSampleKinds) */
  expected: string[];
  /** the kinds it has after the manifest */
  found: string[];
}

/**
 * A requisition whose samples a PROCESSED manifest created or updated (GET /sampleManifests filters by its
 * testOrderFormId and patientId; its account and physician are the requisition's data scope).
 */
export interface ManifestRequisition {
  testOrderFormId: string;
  testRequisitionId: string | null;
  patientId: string | null;
  accountId: string | null;
  physicianId: string | null;
  /** this requisition's samples the manifest created */
  created: number;
  /** this requisition's samples the manifest updated */
  updated: number;
}

export interface SampleManifestDoc {
  _id: string;
  name: string;
  blobId: string | null;
  sha256: string | null;
  size: number;
  account: { id: string | null; name: string | null } | null;
  uploadedBy: { id: string | null; name: string | null };
  /**
   * the uploader's role as the attachment event carried it (schemaVersion 2; null from an older event): who the
   * apply's audit entries name (process-manifest.ts manifestActor)
   */
  uploaderRole: string | null;
  uploaderScope: {
    allAccounts: boolean;
    accountIds: string[];
    physicianIds: string[];
    mayEditSamples: boolean;
  };
  /** the attachment was removed (soft delete) before it was processed: it is not processed */
  deleted: boolean;
  /** the records' common archived flag (the list's `archived` filter); nothing archives a manifest yet */
  archived: boolean;
  status: SampleManifestStatus;
  rows: number;
  created: number;
  updated: number;
  /** the first MANIFEST_LIMITS.maxErrors errors; errorCount says how many there were */
  errors: ManifestError[];
  errorCount: number;
  missing: MissingSamples[];
  /** PROCESSED: the requisitions whose samples it created or updated, in the order of their first row */
  requisitions: ManifestRequisition[];
  processedOn: Date | null;
  uploadedOn: Date;
  createdOn: Date;
  updatedOn: Date;
  outbox: OutboxEntry[];
}

export const sampleManifestSchema = new Schema(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    blobId: str,
    sha256: str,
    size: { type: Number, default: 0 },
    account: { type: idName(), default: null },
    uploadedBy: { type: idName(), default: null },
    uploaderRole: str,
    uploaderScope: {
      type: sub({
        allAccounts: { type: Boolean, default: false },
        accountIds: { type: [String], default: [] },
        physicianIds: { type: [String], default: [] },
        mayEditSamples: { type: Boolean, default: false },
      }),
      default: null,
    },
    deleted: { type: Boolean, default: false },
    archived: { type: Boolean, default: false },
    status: { type: String, enum: SAMPLE_MANIFEST_STATUSES, default: 'UPLOADED' },
    rows: { type: Number, default: 0 },
    created: { type: Number, default: 0 },
    updated: { type: Number, default: 0 },
    errors: {
      type: [sub({ row: { type: Number, default: 0 }, column: str, message: { type: String, default: '' } })],
      default: [],
    },
    errorCount: { type: Number, default: 0 },
    missing: {
      type: [
        sub({
          testOrderFormId: str,
          testRequisitionId: str,
          expected: { type: [String], default: [] },
          found: { type: [String], default: [] },
        }),
      ],
      default: [],
    },
    requisitions: {
      type: [
        sub({
          testOrderFormId: str,
          testRequisitionId: str,
          patientId: str,
          accountId: str,
          physicianId: str,
          created: { type: Number, default: 0 },
          updated: { type: Number, default: 0 },
        }),
      ],
      default: [],
    },
    processedOn: { type: Date, default: null },
    uploadedOn: { type: Date, required: true },
    createdOn: { type: Date, required: true },
    updatedOn: { type: Date, required: true },
    outbox: outboxField(),
  },
  { collection: 'sample_manifests', versionKey: false, minimize: false, suppressReservedKeysWarning: true },
);
// the requeue sweep: manifests still UPLOADED some time after their upload (manifests/queue.ts requeueWaiting)
sampleManifestSchema.index({ status: 1, uploadedOn: 1 });
// GET /sampleManifests/{id} and the job read by _id only (the scope is checked on the document read)
// GET /sampleManifests?filter={"testOrderFormId": ...} (the Samples tab of an order): a multikey index
sampleManifestSchema.index({ 'requisitions.testOrderFormId': 1 });
// GET /sampleManifests?filter={"patientId": ...}
sampleManifestSchema.index({ 'requisitions.patientId': 1 });

/**
 * One document per manifest content applied (`_id` = the content's SHA-256), inserted in the transaction that
 * applies the manifest: a second manifest with the same content fails that insert (duplicate key) and is not
 * applied twice, also when both run at once. Collection `sample_manifest_contents`.
 */
export interface SampleManifestContentDoc {
  _id: string;
  attachmentId: string;
  name: string;
  appliedOn: Date;
}

export const sampleManifestContentSchema = new Schema(
  {
    _id: { type: String, required: true },
    attachmentId: { type: String, required: true },
    name: { type: String, required: true },
    appliedOn: { type: Date, required: true },
  },
  { collection: 'sample_manifest_contents', versionKey: false },
);
// only _id lookups (the content hash)

export function sampleManifestModel(conn: Connection): Model<SampleManifestDoc> {
  return (
    (conn.models.SampleManifest as Model<SampleManifestDoc>) ??
    conn.model<SampleManifestDoc>('SampleManifest', sampleManifestSchema as never)
  );
}

export function sampleManifestContentModel(conn: Connection): Model<SampleManifestContentDoc> {
  return (
    (conn.models.SampleManifestContent as Model<SampleManifestContentDoc>) ??
    conn.model<SampleManifestContentDoc>('SampleManifestContent', sampleManifestContentSchema as never)
  );
}
