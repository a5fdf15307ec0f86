import { auditedSchema } from '@onco/platform';
import { subSchema, type Audited } from './common';

/** A scheduled maintenance window (spec 3 sections 3 and 4.4). */
export interface MaintenanceWindowDoc extends Audited {
  startTime: Date;
  endTime: Date;
  /** the banner shows from this time until the start */
  displayTime: Date;
  title: string;
  description: string | null;
  body: string | null;
}

export const maintenanceWindowSchema = auditedSchema(
  {
    startTime: { type: Date, required: true },
    endTime: { type: Date, required: true },
    displayTime: { type: Date, required: true },
    title: { type: String, required: true },
    description: { type: String, default: null },
    body: { type: String, default: null },
  },
  { collection: 'maintenance_windows' },
);
// GET /maintenance: windows whose end is in the future, earliest end first
maintenanceWindowSchema.index({ endTime: 1 });

export interface SubFeatureNoteItem {
  title: string;
}
export interface FeatureNoteItem {
  title: string;
  subFeatureNoteItemVOs: SubFeatureNoteItem[];
}
export interface FeatureNote {
  title: string;
  featureNoteItemVOs: FeatureNoteItem[];
}

/** A release note (spec 3 section 3): features, their items and sub-items (objects in arrays, never arrays in arrays). */
export interface ReleaseNoteDoc extends Audited {
  majorRevision: number;
  minorRevision: number;
  patchRevision: number;
  /** major * 1e6 + minor * 1e3 + patch: one sortable number for "newest first" */
  revisionOrder: number;
  name: string;
  featureNoteVOs: FeatureNote[];
}

const subItemSchema = subSchema({ title: { type: String, required: true } });
const itemSchema = subSchema({
  title: { type: String, required: true },
  subFeatureNoteItemVOs: { type: [subItemSchema], default: [] },
});
const featureSchema = subSchema({
  title: { type: String, required: true },
  featureNoteItemVOs: { type: [itemSchema], default: [] },
});

export const releaseNoteSchema = auditedSchema(
  {
    majorRevision: { type: Number, required: true },
    minorRevision: { type: Number, required: true },
    patchRevision: { type: Number, required: true },
    revisionOrder: { type: Number, required: true },
    name: { type: String, required: true },
    featureNoteVOs: { type: [featureSchema], default: [] },
  },
  { collection: 'release_notes' },
);
// GET /releaseNotes: newest first
releaseNoteSchema.index({ revisionOrder: -1 });

export const revisionOrder = (major: number, minor: number, patch: number) =>
  major * 1_000_000 + minor * 1_000 + patch;

/** A saved UI preference of one user (spec 3 section 3, "Preference record"): name plus JSON text. */
export interface UserPreferenceDoc extends Audited {
  userId: string;
  name: string;
  /** JSON text */
  content: string;
}

export const userPreferenceSchema = auditedSchema(
  {
    userId: { type: String, required: true },
    name: { type: String, required: true },
    content: { type: String, default: '{}' },
  },
  { collection: 'user_preferences' },
);
// GET /userPreferences (the user's own, filter name) and PUT's upsert by user and name
userPreferenceSchema.index({ userId: 1, name: 1 }, { unique: true });

/** Sequences for human ids (ACC-1001, HL-1001, PAT-000123). */
export interface CounterDoc {
  _id: string;
  seq: number;
}
export const counterSchema = subSchema(
  { _id: { type: String, required: true }, seq: { type: Number, default: 0 } },
  { _id: true, collection: 'reference_counters', versionKey: false },
);
