import { randomUUID } from 'node:crypto';
import { createEvent } from '@onco/events';

/** A requisition-submitted event as the requisitions service emits it (deterministic test order ids). */
export function submittedEvent(over: { requisitionId?: string; accountId?: string } = {}) {
  const requisitionId = over.requisitionId ?? randomUUID();
  return createEvent('requisition-submitted', {
    data: {
      requisitionId,
      testRequisitionId: 'TRF-000123',
      accountId: over.accountId ?? 'acc-A',
      physicianId: 'phy-1',
      patientId: 'pat-1',
      submittedBy: { id: 'user-1', name: 'Dr. One' },
      submittedOn: new Date().toISOString(),
      createPdf: false,
      testOrders: [
        {
          id: `${requisitionId}-t1`,
          testOrderId: 'TO-1001',
          testType: 'NEXT_DX',
          orderType: 'INITIAL_ORDER',
          status: 'TEST_ORDERED',
        },
        {
          id: `${requisitionId}-t2`,
          testOrderId: 'TO-1002',
          testType: 'NEXT_PERSONAL_DX',
          orderType: 'INITIAL_ORDER',
          status: 'TEST_ORDERED',
        },
      ],
      clinicalReviewStatus: 'NEEDS_REVIEW',
      icd10Codes: ['C34.90'],
      diagnosis: 'LUNG',
    },
  });
}

export interface OneTestSubmission {
  accountId: string;
  accountName: string;
  physicianId: string;
  patientId: string;
  testType: 'NEXT_DX' | 'NEXT_PERSONAL_DX';
  orderType: 'INITIAL_ORDER' | 'SUBSEQUENT_ORDER';
  review: 'NEEDS_REVIEW' | 'REVIEW_COMPLETE' | null;
  diagnosis: string | null;
}

/**
 * A crafted requisition-submitted event of one test order, which the lab turns into its test order without a
 * requisition document (TRF # `TRF-<id>`, test id `TO-<id>`): `defaults` are the file's parties and test, `over`
 * what one call changes (a key given as undefined keeps the default).
 */
export function oneTestSubmission(
  requisitionId: string,
  defaults: OneTestSubmission,
  over: Partial<OneTestSubmission> = {},
) {
  const o = { ...defaults };
  for (const [k, v] of Object.entries(over)) if (v !== undefined) Object.assign(o, { [k]: v });
  return createEvent('requisition-submitted', {
    data: {
      requisitionId,
      testRequisitionId: `TRF-${requisitionId}`,
      accountId: o.accountId,
      accountName: o.accountName,
      physicianId: o.physicianId,
      patientId: o.patientId,
      patientName: 'Ada Lovelace',
      submittedBy: { id: 'user-1', name: 'Dr. One' },
      submittedOn: new Date().toISOString(),
      createPdf: false,
      testOrders: [
        {
          id: `${requisitionId}-t1`,
          testOrderId: `TO-${requisitionId}`,
          testType: o.testType,
          orderType: o.orderType,
          status: 'TEST_ORDERED',
        },
      ],
      clinicalReviewStatus: o.review,
      icd10Codes: [],
      diagnosis: o.diagnosis,
    },
  });
}
