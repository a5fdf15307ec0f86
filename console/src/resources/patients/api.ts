import { PORTAL_API, sessionHttpClient, type HttpClient } from '../../components/listApi';
import type { BillingEntryForm } from '@onco/domain';

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
const patientPath = (id: string) => `${PORTAL_API}/patients/${encodeURIComponent(id)}`;

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
      const { json } = await http(`${PORTAL_API}/patients/updatePatientId?${qs}`, { method: 'PUT' });
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
      const { json } = await http(`${PORTAL_API}/payors?${qs}`);
      return { data: (json?.content ?? []) as Payor[] };
    },
  };
}
export type PatientMethods = ReturnType<typeof patientMethods>;
