import { icd10List } from './validate';
import type { BillingForm, RequisitionForm } from './schema';

/**
 * Canonical policy and group numbers (spec 1 section 5 "Canonical policy and group numbers are derived from
 * the entered values"). Decision: upper-case letters and digits only, every other character dropped
 * ('abc-123 45' -> 'ABC12345'); null when nothing is left. Used to match a billing to saved insurances.
 */
export function canonicalNumber(value: string | null | undefined): string | null {
  const out = (value ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
  return out === '' ? null : out;
}

/** '' (a cleared input) becomes null; absent stays absent so a partial form never gains keys it did not have. */
const emptyToNull = <T>(v: T): T | null => (v === '' ? null : v);

function normalizeBilling(b: BillingForm): BillingForm {
  const medicareOrMedicaid = b.billingType === 'MEDICARE' || b.billingType === 'MEDICAID';
  const insuranceLike = medicareOrMedicaid || b.billingType === 'INSURANCE';
  return {
    ...b,
    // discharge date only with MEDICARE/MEDICAID and INPATIENT_DISCHARGED (spec 1 section 4 "Save rules")
    dischargeDate:
      medicareOrMedicaid && b.patientStatus === 'INPATIENT_DISCHARGED'
        ? (emptyToNull(b.dischargeDate) ?? null)
        : null,
    // relationship to patient defaults to self (spec 1 section 3)
    relationshipToPatient: insuranceLike
      ? (b.relationshipToPatient ?? 'SELF')
      : (b.relationshipToPatient ?? null),
    canonicalPolicyNumber: canonicalNumber(b.policyNumber),
    canonicalGroupNumber: canonicalNumber(b.groupNumber),
  };
}

/**
 * Save rules (spec 1 section 4), applied by the server before every save and submit; pure, returns a copy.
 * - normal specimen not BLOOD: collectionMode (bloodCollectionMode) cleared
 * - billing not MEDICARE/MEDICAID with INPATIENT_DISCHARGED: dischargeDate cleared
 * - canonicalPolicyNumber / canonicalGroupNumber derived (canonicalNumber)
 * Decisions (ours): otherStage cleared unless stage is OTHER (its input is disabled then); with the
 * personalized test the order type defaults to INITIAL_ORDER and is INITIAL_ORDER when NEXT_DX is also chosen;
 * ICD-10 codes are trimmed, upper-cased, de-duplicated and joined with ','; insurance-type billings default
 * relationshipToPatient to SELF; empty date strings become null.
 */
export function normalizeForSave(form: RequisitionForm): RequisitionForm {
  const out: RequisitionForm = { ...form };
  const info = form.orderInformation;
  if (info) {
    out.orderInformation = {
      ...info,
      orderType: info.nextPersonalDx
        ? info.nextDx
          ? 'INITIAL_ORDER'
          : (info.orderType ?? 'INITIAL_ORDER')
        : (info.orderType ?? null),
    };
  }
  if (form.patient) out.patient = { ...form.patient, dateOfBirth: emptyToNull(form.patient.dateOfBirth) };
  if (form.normalSpecimen) {
    const n = { ...form.normalSpecimen, collectionDate: emptyToNull(form.normalSpecimen.collectionDate) };
    if (n.specimenType !== 'BLOOD' && n.collectionMode != null) n.collectionMode = null;
    out.normalSpecimen = n;
  }
  if (form.tumorSpecimen) {
    const src = form.tumorSpecimen;
    const t = {
      ...src,
      collectionDate: emptyToNull(src.collectionDate),
      dateOfDiagnosis: emptyToNull(src.dateOfDiagnosis),
    };
    if (t.stage !== 'OTHER' && t.otherStage != null) t.otherStage = null;
    if (src.icd10Codes != null) {
      const codes = [...new Set(icd10List(src.icd10Codes).map((c) => c.toUpperCase()))];
      t.icd10Codes = codes.length ? codes.join(',') : null;
    }
    out.tumorSpecimen = t;
  }
  if (form.billings) {
    out.billings = form.billings.map((b) =>
      normalizeBilling({ ...b, insuredDob: emptyToNull(b.insuredDob) }),
    );
  }
  return out;
}

/**
 * Copy (spec 1 section 4): a new draft without identifiers, approvals, tests and attachments; the common audit
 * fields (id, version, archived, deleted, createdOn, createdBy, updatedOn, updatedBy) are removed, also from
 * the billings. Decisions: the kit id, consent, clinical review status and the parent link are not copied;
 * when `source` (the copied requisition) is given the copy links to it as parentTestOrderForm (the summary
 * shows it as "initial TRF number"). Test orders are rebuilt from orderInformation (plannedTestOrders).
 */
export function copyForm(
  form: RequisitionForm & Record<string, unknown>,
  source?: { id: string; testRequisitionId?: string | null; limsProjectIds?: string[] | null },
): RequisitionForm {
  const AUDIT = [
    'id',
    '_id',
    'version',
    'archived',
    'deleted',
    'createdOn',
    'createdBy',
    'updatedOn',
    'updatedBy',
  ];
  const SERVER = ['testRequisitionId', 'testOrders', 'sampleStatuses', 'reports', 'billingReview', 'outbox'];
  const strip = <T extends object>(o: T): T => {
    const copy = { ...o } as Record<string, unknown>;
    for (const k of AUDIT) delete copy[k];
    return copy as T;
  };
  const out = strip(form) as RequisitionForm & Record<string, unknown>;
  for (const k of SERVER) delete out[k];
  out.status = 'DRAFT';
  out.approvals = [];
  out.attachments = [];
  out.consent = null;
  out.kitId = null;
  out.clinicalReviewStatus = null;
  out.parentTestOrderForm = source
    ? {
        id: source.id,
        testRequisitionId: source.testRequisitionId ?? null,
        limsProjectIds: source.limsProjectIds ?? [],
      }
    : null;
  out.billings = (form.billings ?? []).map((b) =>
    strip({ ...b, patientInsuranceId: b.patientInsuranceId ?? null }),
  );
  if (form.orderInformation) out.orderInformation = { ...form.orderInformation };
  return out as RequisitionForm;
}
