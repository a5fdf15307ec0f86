import { BIRTH_SEXES, type PostalAddress } from '@onco/domain';
import { auditedSchema, declareOrderedIndex } from '@onco/platform';
import type { Audited } from './common';

export const PHYSICIAN_STATUSES = ['ACTIVE', 'SUSPENDED'] as const;
export type PhysicianStatus = (typeof PHYSICIAN_STATUSES)[number];

export interface PhysicianDoc extends Audited {
  /** the NPI number (10 digits) */
  userId: string;
  firstName: string;
  middleName: string | null;
  lastName: string;
  name: string;
  phone: string | null;
  email: string | null;
  fax: string | null;
  status: PhysicianStatus;
  accountIds: string[];
  hospitalLocationIds: string[];
}

export const physicianSchema = auditedSchema(
  {
    userId: { type: String, required: true },
    firstName: { type: String, required: true },
    middleName: { type: String, default: null },
    lastName: { type: String, required: true },
    name: { type: String, required: true },
    phone: { type: String, default: null },
    email: { type: String, default: null },
    fax: { type: String, default: null },
    status: { type: String, enum: PHYSICIAN_STATUSES, default: 'ACTIVE' },
    accountIds: { type: [String], default: [] },
    hospitalLocationIds: { type: [String], default: [] },
  },
  { collection: 'physicians' },
);
// GET /physicians: data scope and filter accountId (multikey on accountIds)
physicianSchema.index({ accountIds: 1 });
// GET /physicians: default sort lastName asc
physicianSchema.index({ lastName: 1 });
// NPI look-up (filter userId) before adding a provider from the NPI registry
physicianSchema.index({ userId: 1 });

export interface PathologistDoc extends Audited {
  name: string;
  npi: string | null;
  phone: string | null;
  email: string | null;
  fax: string | null;
  accountIds: string[];
}

export const pathologistSchema = auditedSchema(
  {
    name: { type: String, required: true },
    npi: { type: String, default: null },
    phone: { type: String, default: null },
    email: { type: String, default: null },
    fax: { type: String, default: null },
    accountIds: { type: [String], default: [] },
  },
  { collection: 'pathologists' },
);
// GET /pathologists: data scope and filter accountIds in(...)
pathologistSchema.index({ accountIds: 1 });
// GET /pathologists: default sort name asc
pathologistSchema.index({ name: 1 });

/** One renumbering of a patient (Update Patient #), kept on the patient as its audit trail. */
export interface PatientNumberChange {
  fromId: string;
  toId: string;
  changedBy: string;
  changedByName: string | null;
  changedOn: Date;
}

export interface PatientDoc extends Audited {
  /** the patient number shown as PAT #, e.g. "PAT-000123" */
  userId: string;
  firstName: string;
  middleName: string | null;
  lastName: string;
  name: string;
  race: string | null;
  ethnicity: string | null;
  address: PostalAddress | null;
  phone: string | null;
  fax: string | null;
  email: string | null;
  mrn: string | null;
  dateOfBirth: string | null;
  birthSex: (typeof BIRTH_SEXES)[number] | null;
  trialName: string | null;
  studyPatientId: string | null;
  diagnosis: string | null;
  accountIds: string[];
  physicianIds: string[];
  /** the hospital locations of the patient's requisitions (the patients list's Hospital filter) */
  hospitalLocationIds: string[];
  /** every Update Patient #: who, when, from which number to which (newest last) */
  numberHistory: PatientNumberChange[];
  /** see the schema: serializes the patient's billing writes */
  billingsVersion?: number;
  /** the patient this one was merged into (Merge Patients), null otherwise: hidden from lists, not editable */
  mergedInto?: string | null;
  /** the merge that made it a duplicate (patient_merges), null otherwise */
  mergeId?: string | null;
}

export const patientSchema = auditedSchema(
  {
    userId: { type: String, required: true },
    firstName: { type: String, required: true },
    middleName: { type: String, default: null },
    lastName: { type: String, required: true },
    name: { type: String, required: true },
    race: { type: String, default: null },
    ethnicity: { type: String, default: null },
    address: {
      type: { street: String, city: String, state: String, postalCode: String, country: String, _id: false },
      default: null,
    },
    phone: { type: String, default: null },
    fax: { type: String, default: null },
    email: { type: String, default: null },
    mrn: { type: String, default: null },
    /** YYYY-MM-DD: a calendar date, not an instant */
    dateOfBirth: { type: String, default: null },
    birthSex: { type: String, enum: [...BIRTH_SEXES, null], default: null },
    trialName: { type: String, default: null },
    studyPatientId: { type: String, default: null },
    diagnosis: { type: String, default: null },
    accountIds: { type: [String], default: [] },
    physicianIds: { type: [String], default: [] },
    /**
     * the hospital locations the patient's submitted requisitions named; kept by the reference service's own
     * consumer of requisition-submitted / requisition-changed (consumers/patient-parties.ts), which also adds the
     * requisition's account and physician to accountIds / physicianIds
     */
    hospitalLocationIds: { type: [String], default: [] },
    numberHistory: {
      type: [
        {
          fromId: { type: String, required: true },
          toId: { type: String, required: true },
          changedBy: { type: String, required: true },
          changedByName: { type: String, default: null },
          changedOn: { type: Date, required: true },
          _id: false,
        },
      ],
      default: [],
    },
    /**
     * incremented by every write of the patient's billing entries, inside its transaction, so two of them
     * conflict and one default per patient holds (routes/patient-billings.ts); not part of the patient's reply
     */
    billingsVersion: { type: Number, default: 0 },
    /** Merge Patients (routes/patient-merges.ts): the primary this duplicate was merged into, and the merge */
    mergedInto: { type: String, default: null },
    mergeId: { type: String, default: null },
  },
  { collection: 'patients' },
);
// GET /patients: data scope by account / physician (and the accountIds / physicianIds filters: account_facet,
// physician_facet picked), sorted by the default updatedOn desc (the list's page and
// total for a provider read these, not every patient)
patientSchema.index({ accountIds: 1, updatedOn: -1, _id: -1 });
patientSchema.index({ physicianIds: 1, updatedOn: -1, _id: -1 });
// GET /patients: filter hospitalLocationIds (the Hospital filter, hospital_location_facet picked)
patientSchema.index({ hospitalLocationIds: 1 });
// GET /patients: default sort updatedOn desc (users who see every account)
patientSchema.index({ updatedOn: -1 });
// the list's newest-first pages once it is large: read in index order (@onco/platform ordered-indexes.ts)
declareOrderedIndex('patients', { updatedOn: -1, _id: -1 });
// patient number look-up (filter userId) and renumbering
patientSchema.index({ userId: 1 }, { unique: true });
