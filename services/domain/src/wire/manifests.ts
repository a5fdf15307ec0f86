import type { IdNameRef, WireDate } from './record';

/** A requisition whose samples a processed sample manifest created or updated, as the manifest list gives it. */
export interface SampleManifestRequisitionRef {
  testOrderFormId: string;
  testRequisitionId: string | null;
  patientId: string | null;
  /** this requisition's samples the manifest created */
  created: number;
  /** this requisition's samples the manifest updated */
  updated: number;
}

/**
 * One row of GET /portal/api/v1/sampleManifests (services/lab/src/manifests/list-routes.ts; docs/decisions.md
 * "Sample manifest list"): a manifest uploaded to the Attachment Box, with the requisitions it changed.
 */
export interface SampleManifestListRow<D = WireDate> {
  /** the manifest's attachment id */
  id: string;
  name: string;
  status: 'UPLOADED' | 'PROCESSED' | 'ERROR';
  archived: boolean;
  account: IdNameRef | null;
  uploadedBy: IdNameRef | null;
  uploadedOn: D;
  processedOn: D | null;
  createdOn: D;
  updatedOn: D;
  /** PROCESSED only; those in the reader's data scope unless they may read the whole manifest */
  requisitions: SampleManifestRequisitionRef[];
}
