import type { PatientDoc, PatientMergeDoc } from '../models';

/** Merge Patients: its limits, its messages and what a preview compares (index.ts says how a merge runs). */

/** At most this many duplicates in one merge (the list's page size is at most 100; a bound for the request). */
export const MAX_MERGE_SOURCES = 50;

export const MERGE_CONFLICT_FIELDS = [
  { field: 'dateOfBirth', path: 'dateOfBirth', label: 'Date of Birth' },
  { field: 'sex', path: 'birthSex', label: 'Birth Sex' },
  { field: 'mrn', path: 'mrn', label: 'MRN' },
  { field: 'firstName', path: 'firstName', label: 'First Name' },
  { field: 'lastName', path: 'lastName', label: 'Last Name' },
] as const;

export interface MergeConflict {
  field: (typeof MERGE_CONFLICT_FIELDS)[number]['field'];
  label: string;
  target: string | null;
  sources: Array<{ id: string; value: string | null }>;
}

export interface PatientMergeView {
  id: string;
  status: PatientMergeDoc['status'];
  targetId: string;
  sourceIds: string[];
  sources: Array<{ id: string; firstName: string; lastName: string; patientNumber: string }>;
  total: number;
  moved: number;
  createdBy: { id: string; name: string };
  createdOn: Date;
  finishedOn: Date | null;
  undoneBy: { id: string; name: string } | null;
  undoneOn: Date | null;
  /** when the undo finished (UNDONE), null otherwise */
  undoFinishedOn: Date | null;
  undoable: boolean;
  undoBlockedReason: string | null;
}

export const MSG_MERGE_NO_SOURCE = 'Select at least one duplicate patient to merge (sourceId).';
export const MSG_MERGE_TARGET_IS_SOURCE = 'The primary patient cannot also be one of the duplicates.';
export const msgMergeSourceTwice = (id: string) => `Patient ${id} is listed twice among the duplicates.`;
export const msgMergeUnknown = (id: string) => `No patient with id ${id}.`;
export const msgMergeAlreadyMerged = (n: string) =>
  `Patient ${n} has already been merged into another patient.`;
export const msgMergeTargetMerged = (n: string) =>
  `The primary patient ${n} has been merged into another patient; choose that patient instead.`;
export const msgMergeDul = (n: string) => `Patient ${n} is a DUL record and cannot be merged.`;
export const msgMergeNotEditable = (n: string) => `You cannot edit patient ${n}, so it cannot be merged.`;
export const msgMergeInProgress = (n: string) =>
  `Patient ${n} is part of a merge in progress; try again when it has finished.`;
export const MSG_MERGE_CHANGED = 'A patient of this merge changed in the meantime; reload and try again.';
export const MSG_UNDO_NOT_DONE = (status: string) =>
  status === 'RUNNING'
    ? 'The merge is still running; it can be undone once it has finished.'
    : status === 'UNDOING'
      ? 'The merge is already being undone.'
      : 'The merge has already been undone.';
export const MSG_UNDO_TARGET_EDITED =
  'The primary patient was edited after the merge, so it cannot be undone.';
export const MSG_UNDO_BILLING_CHANGED =
  "The primary patient's billing information changed after the merge, so it cannot be undone.";
export const msgUndoNewRequisition = (trf: string) =>
  `A new requisition (${trf}) was attached to the primary patient after the merge, so it cannot be undone.`;

const norm = (v: unknown): string | null => {
  if (v === null || v === undefined) return null;
  const s = String(v).trim();
  return s === '' ? null : s;
};
const same = (a: string | null, b: string | null) => (a ?? '').toLowerCase() === (b ?? '').toLowerCase();
export const numberOf = (p: Pick<PatientDoc, 'userId' | '_id'>) => p.userId || p._id;

/** The fields where a duplicate differs from the primary (names compared without case). */
export function mergeConflicts(target: PatientDoc, sources: PatientDoc[]): MergeConflict[] {
  const out: MergeConflict[] = [];
  for (const f of MERGE_CONFLICT_FIELDS) {
    const t = norm((target as any)[f.path]);
    const values = sources.map((s) => ({ id: s._id, value: norm((s as any)[f.path]) }));
    if (values.some((v) => !same(v.value, t)))
      out.push({ field: f.field, label: f.label, target: t, sources: values });
  }
  return out;
}

/** The ids of a `sourceId` query (repeated, or one value; commas also separate). */
export function sourceIdsOf(raw: string | string[] | undefined): string[] {
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}
