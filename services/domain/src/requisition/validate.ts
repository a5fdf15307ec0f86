import { CITY_RE, EMAIL_RE, PHONE_RE, PHONE_SEPARATORS, ZIP_RE } from '../contact';
import {
  addYears,
  dateWindows,
  formatDisplayDate,
  MAX_AGE_YEARS,
  MIN_DATE,
  parseBillingDate,
  parseIsoDate,
} from './dates';
import type { DateWindow } from './dates';
import { REQ_MSG } from './messages';
import {
  BILLING_FIELD_LABELS,
  billingFields,
  needsTumor,
  normalSpecimenTypeOptions,
  requiresTumorAndNormal,
  tumorSpecimenTypeOptions,
} from './options';
import type { BillingForm, LocationForm, RequisitionForm } from './schema';

/** The blocks of the requisition form; each wizard step holds one or more (WIZARD_STEPS). */
export const BLOCK_NAMES = [
  'testSelection',
  'patient',
  'provider',
  'account',
  'location',
  'pathologist',
  'additionalProvider',
  'tumorSpecimen',
  'normalSpecimen',
  'billing',
  'icd10',
  'attachments',
  'signature',
] as const;
export type BlockName = (typeof BLOCK_NAMES)[number];

/** Dotted field path (from the form's root, arrays by index: 'billings.0.policyNumber') -> message. */
export type FieldErrors = Record<string, string>;

export interface RuleContext {
  /** 'YYYY-MM-DD', the caller's clock */
  today: string;
  /** the user's granted permissions (IS_*_OPTIONAL relax required-ness) */
  permissions: readonly string[];
  /** the one account that gets the financial assistance attachment */
  financialAssistanceAccountId?: string | null;
}

/**
 * 'required': a missing value (drafts may be saved with these); 'invalid': a value that breaks a rule (format,
 * range, option) and must not be stored. saveProblems reports only 'invalid' issues.
 */
export type IssueKind = 'required' | 'invalid';
export interface Issue {
  block: BlockName;
  path: string;
  message: string;
  kind: IssueKind;
}

/** Field names used in 'Invalid {Field name}' (decision: the form's visible labels). */
export const FIELD_LABELS = {
  phone: 'Phone',
  fax: 'Fax',
  email: 'Email',
  city: 'City',
  zip: 'Zip Code',
  specimenId: 'Specimen ID',
  specimenType: 'Specimen Type',
} as const;

const SPECIMEN_ID = /^[A-Za-z0-9_-]+$/;

export const ICD10_MAX_CODES = 6;

export function isBlank(v: unknown): boolean {
  return (
    v === null ||
    v === undefined ||
    (typeof v === 'string' && v.trim() === '') ||
    (Array.isArray(v) && v.length === 0)
  );
}

/** The ICD-10 codes of the comma-separated field, trimmed, empty entries dropped. */
export function icd10List(value: string | null | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
}

/**
 * The primary billing's index: the entry with preference PRIMARY, else the first entry without a preference;
 * 0 when there is no billing at all (the console's first row); -1 when every entry is SECONDARY/OTHER.
 */
export function primaryBillingIndex(billings: readonly BillingForm[] | null | undefined): number {
  const list = billings ?? [];
  if (list.length === 0) return 0;
  const primary = list.findIndex((b) => b.preference === 'PRIMARY');
  return primary >= 0 ? primary : list.findIndex((b) => !b.preference);
}

class Collector {
  readonly issues: Issue[] = [];
  private readonly seen = new Set<string>();
  constructor(readonly ctx: RuleContext) {}

  add(block: BlockName, path: string, message: string, kind: IssueKind): void {
    if (this.seen.has(path)) return; // first problem of a field wins
    this.seen.add(path);
    this.issues.push({ block, path, message, kind });
  }
  required(
    block: BlockName,
    path: string,
    value: unknown,
    isRequired: boolean,
    message: string = REQ_MSG.required,
  ) {
    if (isRequired && isBlank(value)) this.add(block, path, message, 'required');
  }
  pattern(block: BlockName, path: string, value: unknown, re: RegExp, label: string, strip?: RegExp) {
    if (isBlank(value)) return;
    const text = String(value).trim();
    if (!re.test(strip ? text.replace(strip, '') : text))
      this.add(block, path, REQ_MSG.invalid(label), 'invalid');
  }
  phone(block: BlockName, path: string, value: unknown, label: string = FIELD_LABELS.phone) {
    this.pattern(block, path, value, PHONE_RE, label, PHONE_SEPARATORS);
  }
  email(block: BlockName, path: string, value: unknown) {
    this.pattern(block, path, value, EMAIL_RE, FIELD_LABELS.email);
  }
  /** Spec 1 section 5 "Date fields". */
  date(block: BlockName, path: string, value: unknown, window: DateWindow, isRequired: boolean) {
    if (isBlank(value)) return this.required(block, path, value, isRequired);
    const iso = parseIsoDate(value);
    if (!iso || iso < addYears(this.ctx.today, -MAX_AGE_YEARS)) {
      return this.add(block, path, REQ_MSG.invalidDate, 'invalid');
    }
    if (iso > window.max)
      return this.add(block, path, REQ_MSG.noLaterThan(formatDisplayDate(window.max)), 'invalid');
    if (iso < window.min)
      this.add(block, path, REQ_MSG.noEarlierThan(formatDisplayDate(window.min)), 'invalid');
  }
  /** Billing dates: MM/DD/YYYY (or the stored YYYY-MM-DD), 01/01/1900 .. today. */
  billingDate(path: string, value: unknown, isRequired: boolean, label: string) {
    if (isBlank(value))
      return this.required('billing', path, value, isRequired, REQ_MSG.labelRequired(label));
    const iso = parseIsoDate(value) ?? parseBillingDate(value);
    if (!iso) return this.add('billing', path, REQ_MSG.billingInvalidDate, 'invalid');
    if (iso < MIN_DATE) return this.add('billing', path, REQ_MSG.billingOnOrAfter, 'invalid');
    if (iso > this.ctx.today) {
      this.add('billing', path, REQ_MSG.billingOnOrBefore(formatDisplayDate(this.ctx.today)), 'invalid');
    }
  }
  address(block: BlockName, prefix: string, address: LocationForm['address'], isRequired: boolean) {
    const a = address ?? {};
    this.required(block, `${prefix}.street`, a.street, isRequired);
    this.required(block, `${prefix}.city`, a.city, isRequired);
    this.pattern(block, `${prefix}.city`, a.city, CITY_RE, FIELD_LABELS.city);
    this.required(block, `${prefix}.state`, a.state, isRequired);
    this.required(block, `${prefix}.postalCode`, a.postalCode, isRequired);
    this.pattern(block, `${prefix}.postalCode`, a.postalCode, ZIP_RE, FIELD_LABELS.zip);
  }
  location(block: BlockName, prefix: string, loc: LocationForm | null | undefined, isRequired: boolean) {
    this.required(block, `${prefix}.name`, loc?.name, isRequired);
    this.address(block, `${prefix}.address`, loc?.address, isRequired);
    this.phone(block, `${prefix}.address.telephone`, loc?.address?.telephone);
    this.phone(block, `${prefix}.address.fax`, loc?.address?.fax, FIELD_LABELS.fax);
  }
}

const has = (ctx: RuleContext, permission: string) => ctx.permissions.includes(permission);

/** Every rule of spec 1 section 5, as a flat list of issues (see validateRequisition for the decisions). */
export function requisitionIssues(form: RequisitionForm, ctx: RuleContext): Issue[] {
  const c = new Collector(ctx);
  const windows = dateWindows(ctx.today);
  const info = form.orderInformation ?? {};
  const testsRequired = !has(ctx, 'IS_TEST_SELECTION_OPTIONAL');
  const patientRequired = !has(ctx, 'IS_PATIENT_INFO_OPTIONAL');
  const providerRequired = !has(ctx, 'IS_PROVIDER_INFO_OPTIONAL');
  const specimenRequired = !has(ctx, 'IS_SPECIMEN_INFO_OPTIONAL');
  const billingRequired = !has(ctx, 'IS_BILLING_OPTIONAL');

  // Test selection: at least one of the two tests
  if (testsRequired && !info.nextDx && !info.nextPersonalDx) {
    c.add('testSelection', 'orderInformation', REQ_MSG.required, 'required');
  }

  // Patient: names, date of birth, street, city, state, zip and birth sex required by default
  const p = form.patient ?? {};
  c.required('patient', 'patient.firstName', p.firstName, patientRequired);
  c.required('patient', 'patient.lastName', p.lastName, patientRequired);
  c.date('patient', 'patient.dateOfBirth', p.dateOfBirth, windows.dateOfBirth, patientRequired);
  c.address('patient', 'patient.address', p.address, patientRequired);
  c.required('patient', 'patient.birthSex', p.birthSex, patientRequired);
  c.phone('patient', 'patient.phone', p.phone);
  c.phone('patient', 'patient.fax', p.fax, FIELD_LABELS.fax);
  c.email('patient', 'patient.email', p.email);

  // Ordering provider: names and email required when provider info is required; phone and fax 10 digits
  const doc = form.physician ?? {};
  c.required('provider', 'physician.firstName', doc.firstName, providerRequired);
  c.required('provider', 'physician.lastName', doc.lastName, providerRequired);
  c.required('provider', 'physician.email', doc.email, providerRequired);
  c.email('provider', 'physician.email', doc.email);
  c.phone('provider', 'physician.phone', doc.phone);
  c.phone('provider', 'physician.fax', doc.fax, FIELD_LABELS.fax);

  // Account and location: decision — both follow IS_PROVIDER_INFO_OPTIONAL (they belong to the Provider step)
  c.required('account', 'account.name', form.account?.name, providerRequired);
  c.location('location', 'hospitalLocation', form.hospitalLocation, providerRequired);

  // Pathologist and additional provider: optional blocks; formats only
  const path = form.pathologist ?? {};
  c.phone('pathologist', 'pathologist.phone', path.phone);
  c.phone('pathologist', 'pathologist.fax', path.fax, FIELD_LABELS.fax);
  c.email('pathologist', 'pathologist.email', path.email);
  c.location('pathologist', 'pathologistLocation', form.pathologistLocation, false);
  const add = form.additionalPhysician ?? {};
  c.phone('additionalProvider', 'additionalPhysician.phone', add.phone);
  c.phone('additionalProvider', 'additionalPhysician.fax', add.fax, FIELD_LABELS.fax);
  c.email('additionalProvider', 'additionalPhysician.email', add.email);
  c.location('additionalProvider', 'additionalPhysicianLocation', form.additionalPhysicianLocation, false);

  // Tumor specimen
  const t = form.tumorSpecimen ?? {};
  const bothSpecimens = requiresTumorAndNormal(info);
  c.required('tumorSpecimen', 'tumorSpecimen.diagnosis', t.diagnosis, specimenRequired);
  // the "other" write-ins are required once OTHER is chosen, whatever the optionality permissions (decision)
  c.required('tumorSpecimen', 'tumorSpecimen.otherDiagnosis', t.otherDiagnosis, t.diagnosis === 'OTHER');
  c.required('tumorSpecimen', 'tumorSpecimen.otherStage', t.otherStage, t.stage === 'OTHER');
  c.required(
    'tumorSpecimen',
    'tumorSpecimen.otherBiopsySite',
    t.otherBiopsySite,
    t.specimenBiopsySite === 'OTHER',
  );
  // decision: the NeXT Dx + NeXT Personal Dx rule is a test-combination rule, not relaxed by IS_SPECIMEN_INFO_OPTIONAL
  c.required(
    'tumorSpecimen',
    'tumorSpecimen.specimenType',
    t.specimenType,
    bothSpecimens,
    REQ_MSG.tumorAndNormalRequired,
  );
  c.required(
    'tumorSpecimen',
    'tumorSpecimen.specimenType',
    t.specimenType,
    specimenRequired && needsTumor(info),
  );
  if (!isBlank(t.specimenType) && !tumorSpecimenTypeOptions(info).includes(String(t.specimenType))) {
    c.add(
      'tumorSpecimen',
      'tumorSpecimen.specimenType',
      REQ_MSG.invalid(FIELD_LABELS.specimenType),
      'invalid',
    );
  }
  c.pattern('tumorSpecimen', 'tumorSpecimen.specimenId', t.specimenId, SPECIMEN_ID, FIELD_LABELS.specimenId);
  c.date('tumorSpecimen', 'tumorSpecimen.collectionDate', t.collectionDate, windows.tumorCollection, false);
  c.date('tumorSpecimen', 'tumorSpecimen.dateOfDiagnosis', t.dateOfDiagnosis, windows.dateOfDiagnosis, false);
  if (typeof t.content === 'number') {
    if (t.content < 0) c.add('tumorSpecimen', 'tumorSpecimen.content', REQ_MSG.min(0), 'invalid');
    else if (t.content > 100) c.add('tumorSpecimen', 'tumorSpecimen.content', REQ_MSG.max(100), 'invalid');
  }

  // ICD-10 codes: required (specimen info), at most 6
  const codes = icd10List(t.icd10Codes);
  c.required('icd10', 'tumorSpecimen.icd10Codes', codes, specimenRequired);
  if (codes.length > ICD10_MAX_CODES) {
    c.add('icd10', 'tumorSpecimen.icd10Codes', REQ_MSG.max(ICD10_MAX_CODES), 'invalid');
  }

  // Normal (blood) specimen: decision — its type is required by default (every test needs a normal or blood)
  const n = form.normalSpecimen ?? {};
  c.required(
    'normalSpecimen',
    'normalSpecimen.specimenType',
    n.specimenType,
    bothSpecimens,
    REQ_MSG.tumorAndNormalRequired,
  );
  c.required('normalSpecimen', 'normalSpecimen.specimenType', n.specimenType, specimenRequired);
  if (!isBlank(n.specimenType) && !normalSpecimenTypeOptions(info).includes(String(n.specimenType))) {
    c.add(
      'normalSpecimen',
      'normalSpecimen.specimenType',
      REQ_MSG.invalid(FIELD_LABELS.specimenType),
      'invalid',
    );
  }
  c.date(
    'normalSpecimen',
    'normalSpecimen.collectionDate',
    n.collectionDate,
    windows.bloodCollection(n.specimenType),
    false,
  );

  // Billing: only the primary is required; each required field says '{label} is required'
  const billings = form.billings ?? [];
  const primary = primaryBillingIndex(billings);
  if (primary < 0 && billingRequired) c.add('billing', 'billings', REQ_MSG.billingTypeRequired, 'required');
  const rows = billings.length === 0 ? [{} as BillingForm] : billings;
  rows.forEach((b, i) => {
    const prefix = `billings.${i}`;
    const required = billingRequired && i === primary;
    c.required('billing', `${prefix}.billingType`, b.billingType, required, REQ_MSG.billingTypeRequired);
    const fields = billingFields(b.billingType, b.patientStatus);
    for (const f of fields.visible) {
      const label = BILLING_FIELD_LABELS[f];
      const isRequired = required && fields.required.includes(f);
      const value = (b as Record<string, unknown>)[f];
      if (f === 'insuredDob' || f === 'dischargeDate')
        c.billingDate(`${prefix}.${f}`, value, isRequired, label);
      else c.required('billing', `${prefix}.${f}`, value, isRequired, REQ_MSG.labelRequired(label));
    }
  });

  // Attachments: decision — no field rules (kinds offered: attachmentKindOptions)
  // Signature: an approval is needed to submit
  if ((form.approvals ?? []).length === 0) c.add('signature', 'approvals', REQ_MSG.required, 'required');

  return c.issues;
}

function byBlock(issues: Issue[], all: boolean): Partial<Record<BlockName, FieldErrors>> {
  const out: Partial<Record<BlockName, FieldErrors>> = {};
  if (all) for (const b of BLOCK_NAMES) out[b] = {};
  for (const i of issues) (out[i.block] ??= {})[i.path] = i.message;
  return out;
}

/**
 * Every rule of spec 1 section 5 for every block (an empty object for a block without problems).
 * Required-ness is relaxed by IS_TEST_SELECTION_OPTIONAL, IS_PATIENT_INFO_OPTIONAL, IS_PROVIDER_INFO_OPTIONAL
 * (provider, account, location), IS_SPECIMEN_INFO_OPTIONAL (tumor, normal, ICD-10) and IS_BILLING_OPTIONAL.
 * The 'signature' block reports 'approvals' while the requisition is not signed.
 */
export function validateRequisition(form: RequisitionForm, ctx: RuleContext): Record<BlockName, FieldErrors> {
  return byBlock(requisitionIssues(form, ctx), true) as Record<BlockName, FieldErrors>;
}

/** What blocks a submit: only the blocks with problems (including 'signature' when there is no approval). */
export function submitProblems(
  form: RequisitionForm,
  ctx: RuleContext,
): Partial<Record<BlockName, FieldErrors>> {
  return byBlock(requisitionIssues(form, ctx), false);
}

/**
 * What blocks a save (create, draft save): values that break a rule. Missing required values do not block
 * a save: drafts are partial. Only the blocks with problems.
 */
export function saveProblems(
  form: RequisitionForm,
  ctx: RuleContext,
): Partial<Record<BlockName, FieldErrors>> {
  return byBlock(
    requisitionIssues(form, ctx).filter((i) => i.kind === 'invalid'),
    false,
  );
}

/** True when a block map from submitProblems/saveProblems/validateRequisition holds no error. */
export function hasProblems(problems: Partial<Record<BlockName, FieldErrors>>): boolean {
  return Object.values(problems).some((e) => e && Object.keys(e).length > 0);
}

/**
 * Spec 1 section 5: the Medicare warning shows when a billing is MEDICARE (decision: primary or secondary), a
 * NEXT_PERSONAL_DX test is chosen and any of drug name, stage, ICD-10 codes is missing.
 */
export function requisitionWarnings(form: RequisitionForm): string[] {
  const medicare = (form.billings ?? []).some((b) => b.billingType === 'MEDICARE');
  const t = form.tumorSpecimen ?? {};
  const missing = isBlank(t.drugName) || isBlank(t.stage) || icd10List(t.icd10Codes).length === 0;
  return medicare && form.orderInformation?.nextPersonalDx && missing ? [REQ_MSG.medicareWarning] : [];
}
