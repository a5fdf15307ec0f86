import { sessionHttpClient, type HttpClient } from '../../components/listApi';
import type { BillingEntryForm } from '@onco/domain';
import { API } from '@onco/domain';

/** A patient as GET /patients and GET /patients/{id} answer (spec 2 section 3 "Patient"). */
export interface PatientRow {
  id: string;
  userId: string;
  firstName: string;
  middleName?: string | null;
  lastName: string;
  name: string;
  birthSex?: string | null;
  dateOfBirth?: string | null;
  mrn?: string | null;
  race?: string | null;
  ethnicity?: string | null;
  trialName?: string | null;
  studyPatientId?: string | null;
  diagnosis?: string | null;
  email?: string | null;
  phone?: string | null;
  address?: {
    street?: string | null;
    city?: string | null;
    state?: string | null;
    postalCode?: string | null;
  } | null;
  accountIds: string[];
  physicianIds: string[];
  createdOn?: string | null;
  updatedOn?: string | null;
  version?: number | null;
  canEdit?: boolean;
  numberHistory?: Array<{
    fromId: string;
    toId: string;
    changedByName?: string | null;
    changedOn: string;
  }> | null;
  /** set on a duplicate merged away (Merge Patients): the primary patient's id */
  mergedInto?: string | null;
}

/** A field whose values differ between the primary and the duplicates (the merge preview's conflicts). */
export interface MergeConflict {
  field: 'dateOfBirth' | 'sex' | 'mrn' | 'firstName' | 'lastName';
  label: string;
  target: string | null;
  sources: Array<{ id: string; value: string | null }>;
}

/** POST /patients/mergePatients/preview: what a merge would do (nothing written). */
export interface MergePreview {
  target: PatientRow;
  sources: PatientRow[];
  conflicts: MergeConflict[];
  moves: { requisitions: number; billingEntries: number };
}

export type PatientMergeStatus = 'RUNNING' | 'DONE' | 'UNDOING' | 'UNDONE';

/** One Merge Patients run (and its undo) as the server reports it. */
export interface PatientMerge {
  id: string;
  status: PatientMergeStatus;
  targetId: string;
  sourceIds: string[];
  sources: Array<{
    id: string;
    firstName?: string | null;
    lastName?: string | null;
    patientNumber?: string | null;
  }>;
  total: number;
  moved: number;
  createdBy?: { id: string; name?: string | null } | null;
  createdOn?: string | null;
  finishedOn?: string | null;
  undoneBy?: { id: string; name?: string | null } | string | null;
  undoneOn?: string | null;
  undoable: boolean;
  undoBlockedReason: string | null;
}

/** A saved billing entry (spec 2 section 3 "Billing"). */
export interface BillingEntry extends BillingEntryForm {
  id: string;
  patientId: string;
  isDefault: boolean;
  version?: number | null;
  updatedOn?: string | null;
}

export interface Payor {
  id: string;
  name: string;
  payorId: string;
  payorGroup?: string | null;
  city?: string | null;
  state?: string | null;
}

type BillingList = { content: BillingEntry[]; totalElements: number };
const patientPath = (id: string) => `${API.portal}/patients/${encodeURIComponent(id)}`;
const sourceQuery = (ids: readonly string[]) => {
  const qs = new URLSearchParams();
  for (const id of ids) qs.append('sourceId', id);
  return qs.toString();
};

/**
 * The patients screens' named data-provider methods (design rule 10): Update Patient #, the patient's billing
 * entries (each write answers the updated list) and the payor search. `usePatientMethods()` takes them from the
 * app's data provider when it spreads `patientMethods(httpClient)` in, else calls them with the session's token.
 */
export function patientMethods(http: HttpClient = sessionHttpClient()) {
  return {
    /** PUT /patients/updatePatientId?fromId&toId (CAN_UPDATE_PATIENTID); 409 when the number is in use */
    updatePatientNumber: async (p: { fromId: string; toId: string; version?: number | null }) => {
      const qs = new URLSearchParams({ fromId: p.fromId, toId: p.toId });
      if (p.version !== undefined && p.version !== null) qs.set('version', String(p.version));
      const { json } = await http(`${API.portal}/patients/updatePatientId?${qs}`, { method: 'PUT' });
      return { data: json as PatientRow };
    },
    getPatientBillings: async (p: { patientId: string }) => {
      const { json } = await http(`${patientPath(p.patientId)}/billings`);
      return { data: json as BillingList };
    },
    /** POST (no id) adds an entry, PUT (with its id) edits, marks default (isDefault) or deletes (deleted) one */
    savePatientBilling: async (p: {
      patientId: string;
      entry: BillingEntryForm & {
        id?: string;
        isDefault?: boolean;
        deleted?: boolean;
        version?: number | null;
      };
    }) => {
      const { json } = await http(`${patientPath(p.patientId)}/billings`, {
        method: p.entry.id ? 'PUT' : 'POST',
        body: JSON.stringify(p.entry),
      });
      return { data: json as BillingList };
    },
    /** Payor search (spec 2 section 7: filter q, 15 a page, page 1) */
    searchPayors: async (p: { q: string }) => {
      const qs = new URLSearchParams({ filter: JSON.stringify({ q: p.q }), perPage: '15', page: '0' });
      const { json } = await http(`${API.portal}/payors?${qs}`);
      return { data: (json?.content ?? []) as Payor[] };
    },
    /** Merge Patients' primary search: the patients list with q, the duplicates excluded, 20 results */
    searchMergePrimary: async (p: { filter: Record<string, unknown>; perPage: number }) => {
      const qs = new URLSearchParams({
        filter: JSON.stringify(p.filter),
        page: '0',
        perPage: String(p.perPage),
        sort: 'updatedOn,DESC',
      });
      const { json } = await http(`${API.portal}/patients?${qs}`);
      return { data: (json?.content ?? []) as PatientRow[] };
    },
    /** POST /patients/mergePatients/preview?sourceId…: what moves and which fields conflict; nothing written */
    previewPatientMerge: async (p: { targetId: string; sourceIds: readonly string[] }) => {
      const { json } = await http(
        `${API.portal}/patients/mergePatients/preview?${sourceQuery(p.sourceIds)}`,
        { method: 'POST', body: JSON.stringify({ targetPatient: { id: p.targetId } }) },
      );
      return { data: json as MergePreview };
    },
    /** POST /patients/mergePatients?sourceId… (CAN_MERGE_PATIENTS): 202 with the running merge */
    mergePatients: async (p: { targetId: string; version?: number | null; sourceIds: readonly string[] }) => {
      const targetPatient: { id: string; version?: number } = { id: p.targetId };
      if (p.version !== undefined && p.version !== null) targetPatient.version = p.version;
      const { json } = await http(`${API.portal}/patients/mergePatients?${sourceQuery(p.sourceIds)}`, {
        method: 'POST',
        body: JSON.stringify({ targetPatient }),
      });
      return { data: json as PatientMerge };
    },
    /** GET /patients/merges/{id}: the merge's progress */
    getPatientMerge: async (p: { mergeId: string }) => {
      const { json } = await http(`${API.portal}/patients/merges/${encodeURIComponent(p.mergeId)}`);
      return { data: json as PatientMerge };
    },
    /** GET /patients/{id}/merges: the merges into this patient, newest first */
    getPatientMerges: async (p: { patientId: string }) => {
      const { json } = await http(`${patientPath(p.patientId)}/merges`);
      return { data: (Array.isArray(json) ? json : (json?.content ?? [])) as PatientMerge[] };
    },
    /** POST /patients/merges/{id}/undo: 202 UNDOING, or 409 with the reason */
    undoPatientMerge: async (p: { mergeId: string }) => {
      const { json } = await http(`${API.portal}/patients/merges/${encodeURIComponent(p.mergeId)}/undo`, {
        method: 'POST',
      });
      return { data: json as PatientMerge };
    },
  };
}
export type PatientMethods = ReturnType<typeof patientMethods>;
