import { describe, expect, it } from 'vitest';
import { canonicalNumber, copyForm, normalizeForSave } from './normalize';
import { completeForm } from './test-fixtures';
import type { RequisitionForm } from './schema';

describe('normalizeForSave (save rules)', () => {
  it('given a normal specimen that is not BLOOD, when saved, then the blood collection mode is cleared', () => {
    const f: RequisitionForm = {
      normalSpecimen: { specimenType: 'SALIVA', collectionMode: 'MOBILE_PHLEBOTOMY' },
    };
    expect(normalizeForSave(f).normalSpecimen).toEqual({ specimenType: 'SALIVA', collectionMode: null });
    const none: RequisitionForm = { normalSpecimen: { collectionMode: 'COLLECT_IN_CLINIC' } };
    expect(normalizeForSave(none).normalSpecimen!.collectionMode).toBeNull();
  });
  it('given BLOOD, when saved, then the collection mode is kept', () => {
    const f: RequisitionForm = {
      normalSpecimen: { specimenType: 'BLOOD', collectionMode: 'MOBILE_PHLEBOTOMY' },
    };
    expect(normalizeForSave(f).normalSpecimen!.collectionMode).toBe('MOBILE_PHLEBOTOMY');
  });
  it('given MEDICARE/MEDICAID INPATIENT_DISCHARGED, then the discharge date is kept; otherwise cleared', () => {
    const save = (b: NonNullable<RequisitionForm['billings']>[number]) =>
      normalizeForSave({ billings: [b] }).billings![0];
    for (const billingType of ['MEDICARE', 'MEDICAID'] as const) {
      expect(
        save({ billingType, patientStatus: 'INPATIENT_DISCHARGED', dischargeDate: '2026-11-01' })
          .dischargeDate,
      ).toBe('2026-11-01');
      expect(
        save({ billingType, patientStatus: 'OUTPATIENT', dischargeDate: '2026-11-01' }).dischargeDate,
      ).toBeNull();
      expect(save({ billingType, dischargeDate: '2026-11-01' }).dischargeDate).toBeNull();
    }
    expect(
      save({ billingType: 'INSURANCE', patientStatus: 'INPATIENT_DISCHARGED', dischargeDate: '2026-11-01' })
        .dischargeDate,
    ).toBeNull();
  });
  it('given policy and group numbers, then canonical numbers are derived (upper-case alphanumerics), client values ignored', () => {
    const b = normalizeForSave({
      billings: [
        {
          billingType: 'INSURANCE',
          policyNumber: ' ab-123 45/x ',
          groupNumber: 'grp.9',
          canonicalPolicyNumber: 'FORGED',
          canonicalGroupNumber: 'FORGED',
        },
      ],
    }).billings![0];
    expect(b.canonicalPolicyNumber).toBe('AB12345X');
    expect(b.canonicalGroupNumber).toBe('GRP9');
    expect(b.policyNumber).toBe(' ab-123 45/x ');
    const empty = normalizeForSave({ billings: [{ billingType: 'SELF', canonicalPolicyNumber: 'X' }] })
      .billings![0];
    expect([empty.canonicalPolicyNumber, empty.canonicalGroupNumber]).toEqual([null, null]);
  });
  it('canonicalNumber', () => {
    expect(canonicalNumber('w-123 456')).toBe('W123456');
    expect(canonicalNumber('---')).toBeNull();
    expect(canonicalNumber(null)).toBeNull();
  });
  it('given an insurance-type billing without relationship, then it defaults to SELF', () => {
    const out = normalizeForSave({
      billings: [{ billingType: 'MEDICAID' }, { billingType: 'FACILITY' }],
    }).billings!;
    expect(out[0].relationshipToPatient).toBe('SELF');
    expect(out[1].relationshipToPatient).toBeNull();
  });
  it('given a stage other than OTHER, then the other-stage text is cleared', () => {
    expect(
      normalizeForSave({ tumorSpecimen: { stage: 'II', otherStage: 'x' } }).tumorSpecimen!.otherStage,
    ).toBeNull();
    expect(
      normalizeForSave({ tumorSpecimen: { stage: 'OTHER', otherStage: 'x' } }).tumorSpecimen!.otherStage,
    ).toBe('x');
  });
  it('given ICD-10 codes with spaces, case and duplicates, then they are tidied', () => {
    const t = normalizeForSave({ tumorSpecimen: { icd10Codes: ' c50.911, C50.911 ,,c34.1' } }).tumorSpecimen!;
    expect(t.icd10Codes).toBe('C50.911,C34.1');
    expect(normalizeForSave({ tumorSpecimen: { icd10Codes: ' , ' } }).tumorSpecimen!.icd10Codes).toBeNull();
  });
  it('given the personalized test, then the order type defaults to initial, and is initial with NeXT Dx', () => {
    expect(normalizeForSave({ orderInformation: { nextPersonalDx: true } }).orderInformation!.orderType).toBe(
      'INITIAL_ORDER',
    );
    expect(
      normalizeForSave({ orderInformation: { nextPersonalDx: true, orderType: 'SUBSEQUENT_ORDER' } })
        .orderInformation!.orderType,
    ).toBe('SUBSEQUENT_ORDER');
    expect(
      normalizeForSave({
        orderInformation: { nextDx: true, nextPersonalDx: true, orderType: 'SUBSEQUENT_ORDER' },
      }).orderInformation!.orderType,
    ).toBe('INITIAL_ORDER');
  });
  it('given empty date strings, then they become null; absent fields stay absent', () => {
    const out = normalizeForSave({
      patient: { firstName: 'A', dateOfBirth: '' },
      tumorSpecimen: { collectionDate: '', dateOfDiagnosis: '' },
      normalSpecimen: { specimenType: 'BLOOD', collectionDate: '' },
      billings: [{ billingType: 'INSURANCE', insuredDob: '' }],
    });
    expect(out.patient).toEqual({ firstName: 'A', dateOfBirth: null });
    expect(out.tumorSpecimen!.collectionDate).toBeNull();
    expect(out.tumorSpecimen!.dateOfDiagnosis).toBeNull();
    expect(out.normalSpecimen!.collectionDate).toBeNull();
    expect(out.billings![0].insuredDob).toBeNull();
    expect(normalizeForSave({ patient: { firstName: 'A' } }).patient).toEqual({ firstName: 'A' });
  });
  it('does not change its input and keeps a complete form valid', () => {
    const f = completeForm();
    const before = JSON.stringify(f);
    const out = normalizeForSave(f);
    expect(JSON.stringify(f)).toBe(before);
    expect(out.patient).toEqual(f.patient);
    expect(out.billings![0].canonicalPolicyNumber).toBe('POL123');
  });
});

describe('copyForm', () => {
  const stored = () => ({
    ...completeForm(),
    id: 'trf-1',
    _id: 'trf-1',
    testRequisitionId: 'TRF-000123',
    status: 'SUBMITTED' as const,
    clinicalReviewStatus: 'NEEDS_REVIEW' as const,
    kitId: 'KIT-9',
    testOrders: [{ id: 't1' }],
    sampleStatuses: ['ON_HOLD'],
    reports: [{ id: 'r' }],
    billingReview: { status: 'REVIEW_COMPLETE' },
    outbox: [{ id: 'o' }],
    version: 7,
    archived: false,
    deleted: false,
    createdOn: '2026-01-01',
    createdBy: 'u1',
    updatedOn: '2026-01-02',
    updatedBy: 'u2',
    attachments: [{ id: 'att-1', name: 'trf.pdf', type: 'TRF' as const }],
    billings: [
      { ...completeForm().billings![0], id: 'b1', version: 3, createdBy: 'u1', archived: false } as never,
    ],
  });
  it('given a submitted requisition, when copied, then a new draft without identifiers, approvals, tests and attachments', () => {
    const copy = copyForm(stored()) as Record<string, unknown> & RequisitionForm;
    expect(copy.status).toBe('DRAFT');
    expect(copy.approvals).toEqual([]);
    expect(copy.attachments).toEqual([]);
    for (const k of [
      'id',
      '_id',
      'testRequisitionId',
      'testOrders',
      'sampleStatuses',
      'reports',
      'billingReview',
      'outbox',
      'version',
      'archived',
      'deleted',
      'createdOn',
      'createdBy',
      'updatedOn',
      'updatedBy',
    ]) {
      expect(copy, k).not.toHaveProperty(k);
    }
    expect([copy.kitId, copy.consent, copy.clinicalReviewStatus, copy.parentTestOrderForm]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });
  it('keeps the clinical content: patient, provider, specimens, test selection and billing (without audit fields)', () => {
    const source = stored();
    const copy = copyForm(source);
    expect(copy.patient).toEqual(source.patient);
    expect(copy.physician).toEqual(source.physician);
    expect(copy.tumorSpecimen).toEqual(source.tumorSpecimen);
    expect(copy.normalSpecimen).toEqual(source.normalSpecimen);
    expect(copy.orderInformation).toEqual(source.orderInformation);
    const b = copy.billings![0] as Record<string, unknown>;
    expect(b.policyNumber).toBe('pol-123');
    for (const k of ['id', 'version', 'createdBy', 'archived']) expect(b, k).not.toHaveProperty(k);
  });
  it('given the source, then the copy links to it as parent (initial TRF number)', () => {
    const copy = copyForm(stored(), { id: 'trf-1', testRequisitionId: 'TRF-000123' });
    expect(copy.parentTestOrderForm).toEqual({
      id: 'trf-1',
      testRequisitionId: 'TRF-000123',
      limsProjectIds: [],
    });
  });
});
