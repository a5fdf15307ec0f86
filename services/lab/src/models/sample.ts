import type { Connection, Model } from 'mongoose';
import { auditedSchema } from '@onco/platform';
import { SAMPLE_STATUSES, SPECIMEN_TYPES, type RecordFields, type SampleFields } from '@onco/domain';
import type { OutboxEntry } from '@onco/events';
import { idName, outboxField, str, sub } from './common';

/**
 * A physical sample (spec 2 section 3 "Sample"): tumor, normal or plasma, tracked in the LIMS. Linked to its
 * requisition (`testOrderForm.id`); its data scope is its requisition's, checked on the requisition's test
 * orders (sample-service.ts), `account`/`physician` are copies for display. Written only by sample-service.ts,
 * each write with its `sample` event in `outbox`. Collection `samples`.
 */
export interface SampleDoc extends SampleFields<Date> {
  _id: string;
  outbox: OutboxEntry[];
}

export const sampleSchema = auditedSchema(
  {
    type: { type: String, enum: SPECIMEN_TYPES, required: true },
    status: { type: String, enum: SAMPLE_STATUSES, default: null },
    limsId: str,
    limsProjectId: str,
    limsProjectName: str,
    sampleGroupId: str,
    receivedOn: { type: Date, default: null },
    collectedOn: { type: Date, default: null },
    specimenType: str,
    specimenId: str,
    name: str,
    accessionId: str,
    trackingNumber: str,
    sampleSite: str,
    doNotExhaust: { type: Boolean, default: null },
    diagnosis: str,
    accessioner: str,
    releasedOn: { type: Date, default: null },
    workOrderNumber: str,
    sequencingProduct: str,
    product: str,
    containerTypeId: str,
    containerLocationValue: str,
    workflowAssignId: str,
    researcherId: str,
    patient: {
      // date of birth as 'YYYY-MM-DD' (the spec sends it that way; no time zone)
      type: sub({
        id: str,
        firstName: str,
        lastName: str,
        dateOfBirth: { type: String, default: null, match: /^\d{4}-\d{2}-\d{2}$/ },
      }),
      default: null,
    },
    testOrderForm: { type: sub({ id: str, testRequisitionId: str }), default: null },
    account: { type: idName(), default: null },
    physician: { type: idName(), default: null },
    copiedFrom: { type: sub({ sampleId: str, testOrderFormId: str }), default: null },
    outbox: outboxField(),
  },
  { collection: 'samples' },
);

// The samples tab, merge/copy sources and the manifest worker read samples by requisition (or by _id); no other
// query reads samples, so no other index: each secondary index costs ~33 µs per insert on DocumentDB, which
// dominated a manifest's apply (docs/manifests.md "Benchmark"). Add one beside the query that needs it.
sampleSchema.index({ 'testOrderForm.id': 1 });
/** Indexes earlier versions created that no query uses (dropped at start, dropObsoleteSampleIndexes). */
export const OBSOLETE_SAMPLE_INDEXES = ['sampleGroupId_1', 'patient.id_1', 'limsId_1', 'account.id_1'];

export function sampleModel(conn: Connection): Model<SampleDoc> {
  return (conn.models.Sample as Model<SampleDoc>) ?? conn.model<SampleDoc>('Sample', sampleSchema);
}

/** A sample group (spec 2 section 3): tumor, normal and plasma sample ids processed together. */
export interface SampleGroupDoc extends RecordFields<Date> {
  _id: string;
  sampleGroupId: string;
  status: string | null;
  tumors: string[];
  normals: string[];
  plasmas: string[];
  testOrderForm: { id: string | null } | null;
}

export const sampleGroupSchema = auditedSchema(
  {
    sampleGroupId: { type: String, required: true },
    status: str,
    tumors: { type: [String], default: [] },
    normals: { type: [String], default: [] },
    plasmas: { type: [String], default: [] },
    testOrderForm: { type: sub({ id: str }), default: null },
  },
  { collection: 'sample_groups' },
);

// a group by its LIMS/human id (always set, so a plain unique index)
sampleGroupSchema.index({ sampleGroupId: 1 }, { unique: true });
// samples tab: a requisition's groups
sampleGroupSchema.index({ 'testOrderForm.id': 1 });

export function sampleGroupModel(conn: Connection): Model<SampleGroupDoc> {
  return (
    (conn.models.SampleGroup as Model<SampleGroupDoc>) ??
    conn.model<SampleGroupDoc>('SampleGroup', sampleGroupSchema)
  );
}

/** Drops OBSOLETE_SAMPLE_INDEXES where they exist (an index that is not there is fine). */
export async function dropObsoleteSampleIndexes(model: Model<SampleDoc>): Promise<void> {
  const existing = new Set((await model.collection.indexes().catch(() => [])).map((i) => i.name));
  for (const name of OBSOLETE_SAMPLE_INDEXES) {
    if (existing.has(name)) await model.collection.dropIndex(name).catch(() => undefined);
  }
}
