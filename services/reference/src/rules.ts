import {
  BIRTH_SEXES,
  CITY_RE,
  EMAIL_RE,
  MAX_AGE_YEARS,
  MIN_DATE,
  PHONE_RE,
  phoneDigits,
  ZIP_MAX_LENGTH,
  ZIP_RE,
} from '@onco/domain';

/**
 * Pure validation of the reference records users edit: the patient edit form (spec 1 section 5 "Patient",
 * spec 2 section 5 "Patient edit form"), provider and location contact fields, and a patient's saved billing
 * entry (spec 1 section 5 "Billing", spec 2 section 5 "Billing form"). Messages are the spec's wording.
 * Every function takes `today` so tests and callers control the clock.
 *
 * The contact and date rules they apply (phone, city, zip, e-mail, the oldest date) are @onco/domain's, the
 * same ones the requisition's blocks and the console use.
 */

export const RULE_MSG = {
  required: 'This field is required',
  invalid: (label: string) => `Invalid ${label}`,
  length: (n: number) => `The length is ${n}`,
  invalidDate: 'Invalid date',
  noLaterThan: (d: string) => `Date must be no later than ${d}`,
  noEarlierThan: (d: string) => `Date must be no earlier than ${d}`,
} as const;

/** field -> message */
export type FieldErrors = Record<string, string>;

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** YYYY-MM-DD of a Date in UTC (calendar dates are stored as text, not instants). */
export const isoDay = (d: Date) => d.toISOString().slice(0, 10);
/** MM/DD/YYYY of a YYYY-MM-DD text (the display format) */
export const usDay = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

/**
 * A calendar date from YYYY-MM-DD or MM/DD/YYYY text, as YYYY-MM-DD; null when unparsable or not a real
 * day (02/30 is refused).
 */
export function parseCalendarDate(raw: string): string | null {
  const s = raw.trim();
  let y: number, m: number, d: number;
  let match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (match) [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else {
    match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s);
    if (!match) return null;
    [m, d, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  }
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return isoDay(date);
}

/**
 * The generic date rule of spec 1 section 5: 'Invalid date' when unparsable or more than 150 years back;
 * 'Date must be no later than {max}'; 'Date must be no earlier than {min}' (default 1900-01-01).
 * Dates in messages are MM/DD/YYYY, the display format.
 */
export function checkDate(
  raw: string,
  opts: { today: Date; max?: string; min?: string },
): { value: string } | { error: string } {
  const v = parseCalendarDate(raw);
  if (!v) return { error: RULE_MSG.invalidDate };
  const today = isoDay(opts.today);
  const oldest = `${Number(today.slice(0, 4)) - MAX_AGE_YEARS}${today.slice(4)}`;
  if (v < oldest) return { error: RULE_MSG.invalidDate };
  const min = opts.min ?? MIN_DATE;
  if (opts.max && v > opts.max) return { error: RULE_MSG.noLaterThan(usDay(opts.max)) };
  if (v < min) return { error: RULE_MSG.noEarlierThan(usDay(min)) };
  return { value: v };
}

export interface PatientAddress {
  street?: string | null;
  city?: string | null;
  state?: string | null;
  postalCode?: string | null;
  country?: string | null;
}

export interface PatientForm {
  firstName?: string | null;
  middleName?: string | null;
  lastName?: string | null;
  dateOfBirth?: string | null;
  birthSex?: string | null;
  race?: string | null;
  ethnicity?: string | null;
  mrn?: string | null;
  trialName?: string | null;
  studyPatientId?: string | null;
  email?: string | null;
  phone?: string | null;
  fax?: string | null;
  diagnosis?: string | null;
  address?: PatientAddress | null;
}

export const PATIENT_LABELS: Record<string, string> = {
  firstName: 'First Name',
  lastName: 'Last Name',
  dateOfBirth: 'Date of Birth',
  birthSex: 'Birth Sex',
  email: 'Email',
  phone: 'Phone',
  fax: 'Fax',
  'address.street': 'Street',
  'address.city': 'City',
  'address.state': 'State',
  'address.postalCode': 'Zip Code',
};

/**
 * Check the patient edit form (the whole record as it will be stored). Returns the normalized record
 * (trimmed texts, phone digits, date of birth as YYYY-MM-DD, the display name) or the field errors.
 * Required: first and last name, date of birth, birth sex, street, city, state and zip.
 */
export function checkPatient(
  p: PatientForm,
  today: Date,
): { value: PatientForm & { name: string } } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const t = (v: string | null | undefined) => (blank(v) ? null : String(v).trim());
  const a = p.address ?? {};
  const out: PatientForm & { name: string } = {
    ...p,
    firstName: t(p.firstName),
    middleName: t(p.middleName),
    lastName: t(p.lastName),
    race: t(p.race),
    ethnicity: t(p.ethnicity),
    mrn: t(p.mrn),
    trialName: t(p.trialName),
    studyPatientId: t(p.studyPatientId),
    email: t(p.email),
    diagnosis: t(p.diagnosis),
    birthSex: t(p.birthSex),
    dateOfBirth: t(p.dateOfBirth),
    phone: t(p.phone),
    fax: t(p.fax),
    address: {
      street: t(a.street),
      city: t(a.city),
      state: t(a.state),
      postalCode: t(a.postalCode),
      country: t(a.country),
    },
    name: '',
  };
  const addr = out.address!;
  for (const f of ['firstName', 'lastName', 'dateOfBirth', 'birthSex'] as const)
    if (!out[f]) errors[f] = RULE_MSG.required;
  for (const f of ['street', 'city', 'state', 'postalCode'] as const)
    if (!addr[f]) errors[`address.${f}`] = RULE_MSG.required;

  if (out.birthSex && !(BIRTH_SEXES as readonly string[]).includes(out.birthSex))
    errors.birthSex = RULE_MSG.invalid(PATIENT_LABELS.birthSex);
  if (out.dateOfBirth) {
    const r = checkDate(out.dateOfBirth, { today, max: isoDay(today) });
    if ('error' in r) errors.dateOfBirth = r.error;
    else out.dateOfBirth = r.value;
  }
  for (const f of ['phone', 'fax'] as const) {
    const v = out[f];
    if (!v) continue;
    const digits = phoneDigits(v);
    if (!PHONE_RE.test(digits)) errors[f] = RULE_MSG.invalid(PATIENT_LABELS[f]);
    else out[f] = digits;
  }
  if (out.email && !EMAIL_RE.test(out.email)) errors.email = RULE_MSG.invalid(PATIENT_LABELS.email);
  if (addr.city && !CITY_RE.test(addr.city)) errors['address.city'] = RULE_MSG.invalid('City');
  if (addr.postalCode) {
    if (addr.postalCode.length > ZIP_MAX_LENGTH)
      errors['address.postalCode'] = RULE_MSG.length(ZIP_MAX_LENGTH);
    else if (!ZIP_RE.test(addr.postalCode)) errors['address.postalCode'] = RULE_MSG.invalid('Zip Code');
  }
  if (Object.keys(errors).length) return { errors };
  out.name = [out.firstName, out.lastName].filter(Boolean).join(' ');
  return { value: out };
}

/** Provider, pathologist and location contact numbers: 10 digits when given (spec 1 section 5 "Provider"). */
export function checkPhones<T extends Record<string, unknown>>(
  rec: T,
  fields: Array<{ field: keyof T & string; label: string }>,
  errors: FieldErrors,
  prefix = '',
): void {
  for (const { field, label } of fields) {
    const v = rec[field];
    if (blank(v)) continue;
    const digits = phoneDigits(String(v));
    if (!PHONE_RE.test(digits)) errors[`${prefix}${field}`] = RULE_MSG.invalid(label);
    else (rec as Record<string, unknown>)[field] = digits;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Saved billing entries (patient insurances): the rule lives in @onco/domain (patients/patient-billing.ts), shared
// with the console's "Add or Edit Billing Information" dialog; these names are kept for this module's callers.

export {
  BILLING_ENTRY_LABELS as BILLING_LABELS,
  checkBillingEntry as checkBilling,
  hasInsuranceFields,
  type BillingEntryForm as BillingForm,
  type CheckedBillingEntry as CheckedBilling,
} from '@onco/domain';
export { canonicalNumber } from '@onco/domain';
