/**
 * The patients screens' rules (spec 2 sections 2.6, 2.7, 5 and 6), pure and shared by the reference service's
 * routes and the console: which selection allows which patient action, the Update Patient # number rule, and the
 * saved billing entry's checks (patient-billing.ts).
 */
export * from './patient-billing';

/** Spec 2 section 9: the patients list's default page size and sort, and the patient's test history. */
export const PATIENTS_PAGE_SIZE = 15;
export const PATIENT_TEST_HISTORY_PAGE_SIZE = 10;
/** Page sizes the patients list offers (spec: "choices are not shown"; decision: the lists' usual choices). */
export const PATIENTS_PAGE_SIZES = [15, 30, 50, 100] as const;

/**
 * The patient search of the new-message form (spec 2 section 5 "Contact form"): at least 2 characters, asked
 * 400 ms after the last key, at most 50 patients (ours: the spec gives the count only for the directory).
 */
export const PATIENT_PICK_MIN_CHARS = 2;
export const PATIENT_PICK_DEBOUNCE_MS = 400;
export const PATIENT_PICK_MAX = 50;

export const MSG_PATIENT_UPDATED = 'The patient information has been updated successfully';
export const MSG_PATIENT_NUMBER_UPDATED = 'The patient # has been updated successfully';
export const msgPatientNumberInUse = (n: string) =>
  `Patient # ${n} is already in use by another patient. Choose another number.`;
export const MSG_PATIENT_NUMBER_SAME = 'The new patient # is the same as the current one.';
export const MSG_PATIENT_NUMBER_INVALID =
  'Invalid Patient #: enter a UUID (versions 1-5, e.g. 0f8fad5b-d9cb-469f-a165-70867728950e)';

/**
 * Update Patient # (spec 2 section 5): the new number is required and must be a UUID of versions 1-5 with the
 * RFC 4122 variant (8, 9, a or b). Case-insensitive.
 */
export const PATIENT_NUMBER_UUID_RE =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** What is wrong with a new patient number, or null when the Update button may be pressed. */
export function patientNumberProblem(
  toId: string | null | undefined,
  current?: string | null,
): 'required' | 'invalid' | 'same' | null {
  const v = (toId ?? '').trim();
  if (!v) return 'required';
  if (!PATIENT_NUMBER_UUID_RE.test(v)) return 'invalid';
  if (current && current.trim().toLowerCase() === v.toLowerCase()) return 'same';
  return null;
}

/** A patient number marking a duplicate already merged away ("DUL"): never merged again (spec 2 section 6). */
export const isDulPatientNumber = (n: string | null | undefined) => (n ?? '').toUpperCase().includes('DUL');

export interface PatientRowForActions {
  userId?: string | null;
  canEdit?: boolean | null;
}

/**
 * The patients list's Actions menu (spec 2 section 6 "Patients"): the menu needs VIEW_PATIENT_ACTIONS; Edit Patient
 * and Update Patient # need exactly one selected patient with canEdit (Update Patient # also CAN_UPDATE_PATIENTID);
 * Merge Patients needs at least one selected, all with canEdit, none with a DUL number, and CAN_MERGE_PATIENTS.
 */
export function patientListActions(
  selected: readonly PatientRowForActions[],
  permissions: readonly string[],
): { menu: boolean; edit: boolean; updateNumber: boolean; merge: boolean } {
  const menu = permissions.includes('VIEW_PATIENT_ACTIONS');
  const one = selected.length === 1 && selected[0].canEdit === true;
  return {
    menu,
    edit: menu && one,
    updateNumber: menu && one && permissions.includes('CAN_UPDATE_PATIENTID'),
    merge:
      menu &&
      permissions.includes('CAN_MERGE_PATIENTS') &&
      selected.length >= 1 &&
      selected.every((p) => p.canEdit === true && !isDulPatientNumber(p.userId)),
  };
}
