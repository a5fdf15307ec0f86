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
