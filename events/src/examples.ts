/**
 * One realistic example `data` per family: used in the AsyncAPI document and in tests.
 */
import type { EventDataMap } from './schemas';

export const EXAMPLE_DATA: EventDataMap = {
  'requisition-submitted': {
    requisitionId: '66f1c0a2e4b0a1b2c3d4e5f6',
    testRequisitionId: 'TRF-2025-000123',
    accountId: 'acc-1001',
    physicianId: 'phy-2002',
    patientId: 'pat-3003',
    submittedBy: { id: 'usr-42', name: 'Dana Provider' },
    submittedOn: '2025-03-01T14:05:00.000Z',
    createPdf: true,
    testOrders: [
      {
        id: '66f1c0a2e4b0a1b2c3d4e5f7',
        testOrderId: 'T-000456',
        testType: 'NEXT_DX',
        orderType: 'INITIAL_ORDER',
        status: 'TEST_SELECTED',
      },
    ],
    clinicalReviewStatus: 'NEEDS_REVIEW',
    icd10Codes: ['C34.90', 'C78.01'],
  },
  'test-status': {
    testOrderId: '66f1c0a2e4b0a1b2c3d4e5f7',
    testId: 'T-000456',
    requisitionId: '66f1c0a2e4b0a1b2c3d4e5f6',
    testRequisitionId: 'TRF-2025-000123',
    accountId: 'acc-1001',
    testType: 'NEXT_DX',
    orderType: 'INITIAL_ORDER',
    previousStatus: 'TEST_ORDERED',
    status: 'IN_PROGRESS',
    changedBy: { id: 'usr-7', name: 'Lab Admin' },
    changedOn: '2025-03-03T09:30:00.000Z',
    dueOn: '2025-03-20',
  },
  sample: {
    sampleId: '66f1c0a2e4b0a1b2c3d4e5f8',
    requisitionId: '66f1c0a2e4b0a1b2c3d4e5f6',
    type: 'TUMOR',
    status: 'PROCEED',
    limsId: 'LIMS-88812',
    change: 'created',
    changedBy: { id: 'usr-7', name: 'Lab Admin' },
    changedOn: '2025-03-02T11:00:00.000Z',
  },
  'billing-case': {
    billingCaseId: '66f1c0a2e4b0a1b2c3d4e5f9',
    testOrderId: '66f1c0a2e4b0a1b2c3d4e5f7',
    requisitionId: '66f1c0a2e4b0a1b2c3d4e5f6',
    caseStatus: 'REJECTED_BY_XIFIN',
    previousStatus: 'SUBMITTED_TO_XIFIN',
    billingCode: '0326U',
    errorDetails: 'Payor ID missing for primary insurance',
    changedBy: { id: 'system', name: 'Billing submission worker' },
    changedOn: '2025-03-25T16:45:00.000Z',
  },
};
