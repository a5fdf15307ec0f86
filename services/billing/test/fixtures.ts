import type { Connection } from 'mongoose';
import { fixtureFiles, importIcd10, referenceModels } from '@onco/reference';
import type { BillingCaseDoc, ClaimInfo } from '../src/models';

/**
 * What the billing tests and the submission benchmark build their cases from (test support, not run-time code):
 * the claim information a requisition's events give a case, and a qualified case ready to submit.
 */

/** The requisition's billing summary and a billable code of the ICD-10 fixture. */
export const CLAIM_INFO: ClaimInfo = {
  billingType: 'INSURANCE',
  payorId: 'PAY-001',
  payorName: 'Acme Health',
  patientAddressComplete: true,
  diagnosisCodes: ['C34.90'],
};

/** A qualified case (READY_TO_SUBMIT: report complete, review complete, code, claim information). */
export function qualifiedCase(
  tag: string,
  n: number,
  over: Record<string, unknown> = {},
): Partial<BillingCaseDoc> {
  return {
    testId: `T-${tag}-${n}`,
    testOrderId: `to-${tag}-${n}-${Date.now()}`,
    testRequisitionId: `TRF-${tag}-${n}`,
    testOrderFormId: `tof-${tag}-${n}`,
    accountName: 'Alpha Oncology',
    account: { id: 'acc-A', name: 'Alpha Oncology' },
    physician: { id: 'phy-1', name: 'Dr. One' },
    patient: { id: `pat-${tag}-${n}`, name: `Patient ${n}` },
    testType: 'NEXT_DX',
    orderType: 'INITIAL_ORDER',
    billingCode: `ACC-${tag}-${n}`,
    testStatus: 'REPORT_COMPLETE',
    reviewStatus: 'REVIEW_COMPLETE',
    caseStatus: 'READY_TO_SUBMIT',
    caseQualifiedDate: new Date(Date.UTC(2026, 10, 1)),
    claimInfo: CLAIM_INFO,
    ...over,
  } as Partial<BillingCaseDoc>;
}

/** The ICD-10-CM fixture in a test database, so the pre-submit checks have a catalog to look codes up in. */
export const importIcd10Fixture = (conn: Connection) =>
  importIcd10(referenceModels(conn).Icd10Code, fixtureFiles().icd10);
