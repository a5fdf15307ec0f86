import { Schema } from 'mongoose';
import { outboxEntrySchemaDefinition, outboxEntrySchemaOptions, type OutboxEntry } from '@onco/events';
import { auditedSchema } from '@onco/platform';
import type { Audited } from './common';

export const PATIENT_MERGE_STATUSES = ['RUNNING', 'DONE', 'UNDOING', 'UNDONE'] as const;
export type PatientMergeStatus = (typeof PATIENT_MERGE_STATUSES)[number];

/** A billing entry a merge moved to the target: where it came from and whether it was its patient's default. */
export interface MovedBilling {
  id: string;
  fromPatientId: string;
  wasDefault: boolean;
}

/**
 * One Merge Patients (docs/decisions.md "Patient merge"): the duplicates (sources) merged into the primary
 * (target), its progress and its undo entry. Written with the sources' `mergedInto` and the moved billing entries
 * in one transaction, with its `patient` event in `outbox`; then kept by this service's consumer of the
 * requisitions service's events (progress, DONE, UNDONE, and what attached to the target since).
 */
export interface PatientMergeDoc extends Audited {
  status: PatientMergeStatus;
  targetId: string;
  sourceIds: string[];
  /** who the sources were when merged (the merge's own record: they are hidden from lists afterwards) */
  sources: Array<{ id: string; firstName: string; lastName: string; userId: string }>;
  /** the target's version right after the merge wrote it (an edit since blocks the undo) */
  targetVersion: number;
  /** the target's billingsVersion right after the merge (a billing entry added or changed since blocks the undo) */
  targetBillingsVersion: number;
  /** the target's parties the merge added (the sources' accounts, physicians, locations); an undo removes them */
  addedParties: { accountIds: string[]; physicianIds: string[]; hospitalLocationIds: string[] };
  billings: MovedBilling[];
  /** submitted requisitions the run moves: the estimate at merge time, then the requisitions service's count */
  total: number;
  /** requisitions moved so far (merge) or still on the target (undo), from their requisition-changed events */
  movedRequisitionIds: string[];
  createdByName: string | null;
  finishedOn: Date | null;
  undoneBy: string | null;
  undoneByName: string | null;
  undoneOn: Date | null;
  undoFinishedOn: Date | null;
  /** why the merge can no longer be undone, set by the consumers when something new attaches to the target */
  undoBlockedReason: string | null;
  outbox?: OutboxEntry[];
}

export const patientMergeSchema = auditedSchema(
  {
    status: { type: String, enum: PATIENT_MERGE_STATUSES, required: true },
    targetId: { type: String, required: true },
    sourceIds: { type: [String], required: true },
    sources: {
      type: [
        {
          id: { type: String, required: true },
          firstName: { type: String, default: null },
          lastName: { type: String, default: null },
          userId: { type: String, default: null },
          _id: false,
        },
      ],
      default: [],
    },
    targetVersion: { type: Number, required: true },
    targetBillingsVersion: { type: Number, default: 0 },
    addedParties: {
      type: { accountIds: [String], physicianIds: [String], hospitalLocationIds: [String], _id: false },
      default: () => ({ accountIds: [], physicianIds: [], hospitalLocationIds: [] }),
    },
    billings: {
      type: [
        {
          id: { type: String, required: true },
          fromPatientId: { type: String, required: true },
          wasDefault: { type: Boolean, default: false },
          _id: false,
        },
      ],
      default: [],
    },
    total: { type: Number, default: 0 },
    movedRequisitionIds: { type: [String], default: [] },
    createdByName: { type: String, default: null },
    finishedOn: { type: Date, default: null },
    undoneBy: { type: String, default: null },
    undoneByName: { type: String, default: null },
    undoneOn: { type: Date, default: null },
    undoFinishedOn: { type: Date, default: null },
    undoBlockedReason: { type: String, default: null },
    outbox: { type: [new Schema(outboxEntrySchemaDefinition, outboxEntrySchemaOptions)], default: [] },
  },
  { collection: 'patient_merges' },
);
// GET /patients/:id/merges (merges into a patient, newest first) and the consumers' "merges into the target" look-ups
patientMergeSchema.index({ targetId: 1, createdOn: -1 });
// the "part of a merge in progress" check of a new merge (by source)
patientMergeSchema.index({ sourceIds: 1, status: 1 });

/**
 * Which patient each submitted requisition belongs to, as the requisition events tell this service
 * (consumers/patient-parties.ts): one small document per requisition, so a patient with hundreds of requisitions
 * is no hot, growing document. The merge preview counts a patient's requisitions here; a requisition newly
 * attached to a merge's primary is spotted here. Requisitions submitted before that consumer existed are added by
 * the requisitions service's backfill (`backfillPatientRequisitions`, insert-only, the same three fields: keep
 * them in step; docs/decisions.md "Patient merge: a real crash, and the backfill of patient_requisitions").
 */
export interface PatientRequisitionDoc {
  /** the requisition id */
  _id: string;
  patientId: string;
  updatedOn: Date;
}

export const patientRequisitionSchema = new Schema(
  {
    _id: { type: String, required: true },
    patientId: { type: String, required: true },
    updatedOn: { type: Date, default: () => new Date() },
  },
  { collection: 'patient_requisitions', versionKey: false },
);
// the merge preview: a patient's requisitions (count by patientId)
patientRequisitionSchema.index({ patientId: 1 });
