/**
 * The rules of spec 1 section 5, one checker a section of the requisition form. Each adds its section's issues to
 * the form's Collector; requisitionIssues (validate.ts) calls them in form order.
 */
import type { DateWindows } from './dates';
import { deliveryMethodProblem } from './delivery';
import type { Collector } from './issue-collector';
import {
  FIELD_LABELS,
  ICD10_MAX_CODES,
  icd10List,
  isBlank,
  primaryBillingIndex,
  type RuleContext,
} from './issues';
import { REQ_MSG } from './messages';
import {
  BILLING_FIELD_LABELS,
  billingFields,
  needsTumor,
  normalSpecimenTypeOptions,
  requiresTumorAndNormal,
  tumorSpecimenTypeOptions,
} from './options';
import type { BillingForm, RequisitionForm } from './schema';

const SPECIMEN_ID = /^[A-Za-z0-9_-]+$/;

/** Which parts of the form are required: each IS_*_OPTIONAL permission relaxes one. */
export interface Requiredness {
  tests: boolean;
  patient: boolean;
  provider: boolean;
  specimen: boolean;
  billing: boolean;
}

/** What every section's checker needs besides the form: the date windows of today and the requiredness. */
export interface SectionContext {
  windows: DateWindows;
  required: Requiredness;
}

const has = (ctx: RuleContext, permission: string) => ctx.permissions.includes(permission);

export function requiredness(ctx: RuleContext): Requiredness {
  return {
    tests: !has(ctx, 'IS_TEST_SELECTION_OPTIONAL'),
    patient: !has(ctx, 'IS_PATIENT_INFO_OPTIONAL'),
    provider: !has(ctx, 'IS_PROVIDER_INFO_OPTIONAL'),
    specimen: !has(ctx, 'IS_SPECIMEN_INFO_OPTIONAL'),
    billing: !has(ctx, 'IS_BILLING_OPTIONAL'),
  };
}

/** Test selection: at least one of the two tests. */
export function checkTestSelection(c: Collector, form: RequisitionForm, s: SectionContext): void {
  const { required } = s;
  const info = form.orderInformation ?? {};
  if (required.tests && !info.nextDx && !info.nextPersonalDx) {
    c.add('testSelection', 'orderInformation', REQ_MSG.required, 'required');
  }
}

/** Patient: names, date of birth, street, city, state, zip and birth sex required by default. */
export function checkPatient(c: Collector, form: RequisitionForm, s: SectionContext): void {
  const { windows, required } = s;
  const p = form.patient ?? {};
  c.required('patient', 'patient.firstName', p.firstName, required.patient);
  c.required('patient', 'patient.lastName', p.lastName, required.patient);
  c.date('patient', 'patient.dateOfBirth', p.dateOfBirth, windows.dateOfBirth, required.patient);
  c.address('patient', 'patient.address', p.address, required.patient);
  c.required('patient', 'patient.birthSex', p.birthSex, required.patient);
  c.phone('patient', 'patient.phone', p.phone);
  c.phone('patient', 'patient.fax', p.fax, FIELD_LABELS.fax);
  c.email('patient', 'patient.email', p.email);
}

/**
 * Ordering provider: names and email required when provider info is required; phone and fax 10 digits; a report
 * delivered by fax needs the provider's fax (deliveryMethodProblem; not relaxed by IS_PROVIDER_INFO_OPTIONAL).
 */
export function checkProvider(c: Collector, form: RequisitionForm, s: SectionContext): void {
  const { required } = s;
  const doc = form.physician ?? {};
  c.required('provider', 'physician.firstName', doc.firstName, required.provider);
  c.required('provider', 'physician.lastName', doc.lastName, required.provider);
  c.required('provider', 'physician.email', doc.email, required.provider);
  c.email('provider', 'physician.email', doc.email);
  c.phone('provider', 'physician.phone', doc.phone);
  c.phone('provider', 'physician.fax', doc.fax, FIELD_LABELS.fax);
  const delivery = deliveryMethodProblem(doc);
  if (delivery) c.add('provider', 'physician.deliveryMethod', delivery, 'invalid');
  // Account and location: decision — both follow IS_PROVIDER_INFO_OPTIONAL (they belong to the Provider step)
  c.required('account', 'account.name', form.account?.name, required.provider);
  c.location('location', 'hospitalLocation', form.hospitalLocation, required.provider);
}

/** Pathologist and additional provider: optional blocks; formats only. */
export function checkOtherProviders(c: Collector, form: RequisitionForm): void {
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
}

/** Tumor specimen. */
export function checkTumorSpecimen(c: Collector, form: RequisitionForm, s: SectionContext): void {
  const { windows, required } = s;
  const info = form.orderInformation ?? {};
  const t = form.tumorSpecimen ?? {};
  const bothSpecimens = requiresTumorAndNormal(info);
  c.required('tumorSpecimen', 'tumorSpecimen.diagnosis', t.diagnosis, required.specimen);
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
    required.specimen && needsTumor(info),
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
}

/** ICD-10 codes: required (specimen info), at most 6. */
export function checkIcd10(c: Collector, form: RequisitionForm, s: SectionContext): void {
  const { required } = s;
  const t = form.tumorSpecimen ?? {};
  const codes = icd10List(t.icd10Codes);
  c.required('icd10', 'tumorSpecimen.icd10Codes', codes, required.specimen);
  if (codes.length > ICD10_MAX_CODES) {
    c.add('icd10', 'tumorSpecimen.icd10Codes', REQ_MSG.max(ICD10_MAX_CODES), 'invalid');
  }
}

/** Normal (blood) specimen: decision — its type is required by default (every test needs a normal or blood). */
export function checkNormalSpecimen(c: Collector, form: RequisitionForm, s: SectionContext): void {
  const { windows, required } = s;
  const info = form.orderInformation ?? {};
  const bothSpecimens = requiresTumorAndNormal(info);
  const n = form.normalSpecimen ?? {};
  c.required(
    'normalSpecimen',
    'normalSpecimen.specimenType',
    n.specimenType,
    bothSpecimens,
    REQ_MSG.tumorAndNormalRequired,
  );
  c.required('normalSpecimen', 'normalSpecimen.specimenType', n.specimenType, required.specimen);
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
}

/** Billing: only the primary is required; each required field says '{label} is required'. */
export function checkBilling(c: Collector, form: RequisitionForm, s: SectionContext): void {
  const req = s.required;
  const billings = form.billings ?? [];
  const primary = primaryBillingIndex(billings);
  if (primary < 0 && req.billing) c.add('billing', 'billings', REQ_MSG.billingTypeRequired, 'required');
  const rows = billings.length === 0 ? [{} as BillingForm] : billings;
  rows.forEach((b, i) => {
    const prefix = `billings.${i}`;
    const required = req.billing && i === primary;
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
}

/**
 * Attachments: decision — no field rules (kinds offered: attachmentKindOptions). Signature: an approval is needed
 * to submit.
 */
export function checkSignature(c: Collector, form: RequisitionForm): void {
  if ((form.approvals ?? []).length === 0) c.add('signature', 'approvals', REQ_MSG.required, 'required');
}
