import { describe, expect, it } from 'vitest';
import { mergeTrfProblem, requisitionActions } from './actions';
import type { RequisitionActionState } from './actions';
import { TODAY } from './test-fixtures';

const subsequentOrder = {
  testType: 'NEXT_PERSONAL_DX' as const,
  orderType: 'INITIAL_ORDER' as const,
  excludedAccountId: 'acc-excluded',
};
const ctx = (...permissions: string[]) => ({ today: TODAY, permissions, subsequentOrder });
const EDITOR = ['CAN_EDIT_TRF', 'CAN_DELETE_TRF', 'CAN_CREATE_TRF'];
const submitted = (change: Partial<RequisitionActionState> = {}): RequisitionActionState => ({
  status: 'SUBMITTED',
  deleted: false,
  editing: false,
  hasTrfAttachment: true,
  testStatuses: ['TEST_ORDERED'],
  anySampleOnHold: false,
  testType: 'NEXT_PERSONAL_DX',
  orderType: 'INITIAL_ORDER',
  patientNumber: 'PAT-0001',
  accountId: 'acc-1',
  ...change,
});

describe('Print', () => {
  it('given a non-draft order with a TRF attachment, then print; without the TRF or as a draft, not', () => {
    expect(requisitionActions(submitted(), ctx()).print).toBe(true);
    expect(requisitionActions(submitted({ hasTrfAttachment: false }), ctx()).print).toBe(false);
    expect(requisitionActions(submitted({ status: 'DRAFT' }), ctx()).print).toBe(false);
    expect(requisitionActions(submitted({ status: 'INVALID' }), ctx()).print).toBe(true);
  });
});

describe('Copy', () => {
  it('given a non-draft, non-deleted order not being edited, then copy', () => {
    expect(requisitionActions(submitted(), ctx()).copy).toBe(true);
    expect(requisitionActions(submitted({ status: 'DRAFT' }), ctx()).copy).toBe(false);
    expect(requisitionActions(submitted({ deleted: true }), ctx()).copy).toBe(false);
    expect(requisitionActions(submitted({ editing: true }), ctx()).copy).toBe(false);
  });
});

describe('Edit', () => {
  it('given CAN_EDIT_TRF, a non-deleted non-draft order and a test still open, then edit', () => {
    expect(requisitionActions(submitted(), ctx('CAN_EDIT_TRF')).edit).toBe(true);
    expect(
      requisitionActions(submitted({ testStatuses: ['REPORT_COMPLETE', 'IN_PROGRESS'] }), ctx('CAN_EDIT_TRF'))
        .edit,
    ).toBe(true);
  });
  it('given no permission, a deleted order or a draft, then no edit', () => {
    expect(requisitionActions(submitted(), ctx()).edit).toBe(false);
    expect(requisitionActions(submitted({ deleted: true }), ctx('CAN_EDIT_TRF')).edit).toBe(false);
    expect(requisitionActions(submitted({ status: 'DRAFT' }), ctx('CAN_EDIT_TRF')).edit).toBe(false);
  });
  it('given every test complete or cancelled (or no test), then no edit', () => {
    for (const testStatuses of [
      ['REPORT_COMPLETE'],
      ['TNP_REPORT_COMPLETE', 'CANCELLED'],
      ['REPORT_AMENDED'],
      ['CANCELLED'],
      [],
    ] as RequisitionActionState['testStatuses'][]) {
      expect(
        requisitionActions(submitted({ testStatuses }), ctx('CAN_EDIT_TRF')).edit,
        String(testStatuses),
      ).toBe(false);
    }
  });
});

describe('Delete', () => {
  it('given CAN_DELETE_TRF, no tests or all cancelled and no sample on hold, then delete', () => {
    expect(requisitionActions(submitted({ testStatuses: [] }), ctx('CAN_DELETE_TRF')).delete).toBe(true);
    expect(
      requisitionActions(submitted({ testStatuses: ['CANCELLED', 'CANCELLED'] }), ctx('CAN_DELETE_TRF'))
        .delete,
    ).toBe(true);
  });
  it('given an open test, a sample on hold, no permission or an already deleted order, then no delete', () => {
    expect(requisitionActions(submitted(), ctx('CAN_DELETE_TRF')).delete).toBe(false);
    expect(
      requisitionActions(
        submitted({ testStatuses: ['CANCELLED'], anySampleOnHold: true }),
        ctx('CAN_DELETE_TRF'),
      ).delete,
    ).toBe(false);
    expect(requisitionActions(submitted({ testStatuses: [] }), ctx('CAN_CREATE_TRF')).delete).toBe(false);
    expect(
      requisitionActions(submitted({ testStatuses: [], deleted: true }), ctx('CAN_DELETE_TRF')).delete,
    ).toBe(false);
  });
  it('given a draft, then it can always be deleted by whoever may create or delete requisitions', () => {
    const draft = submitted({ status: 'DRAFT', testStatuses: ['TEST_SELECTED'], anySampleOnHold: true });
    expect(requisitionActions(draft, ctx('CAN_CREATE_TRF')).delete).toBe(true);
    expect(requisitionActions(draft, ctx('CAN_DELETE_TRF')).delete).toBe(true);
    expect(requisitionActions(draft, ctx()).delete).toBe(false);
    expect(requisitionActions({ ...draft, deleted: true }, ctx(...EDITOR)).delete).toBe(false);
  });
});

describe('Subsequent Order', () => {
  it('given the configured test and order type, submitted, not deleted, patient without DUL, other account, then shown', () => {
    expect(requisitionActions(submitted(), ctx('CAN_CREATE_TRF')).subsequentOrder).toBe(true);
  });
  it.each<[string, Partial<RequisitionActionState>]>([
    ['another test type', { testType: 'NEXT_DX' }],
    ['another order type', { orderType: 'SUBSEQUENT_ORDER' }],
    ['a draft', { status: 'DRAFT' }],
    ['an invalid order', { status: 'INVALID' }],
    ['a deleted order', { deleted: true }],
    ['a DUL patient number', { patientNumber: 'DUL-0001' }],
    ['a patient number containing DUL', { patientNumber: 'PAT-DUL1' }],
    ['the excluded account', { accountId: 'acc-excluded' }],
  ])('given %s, then hidden', (_name, change) => {
    expect(requisitionActions(submitted(change), ctx('CAN_CREATE_TRF')).subsequentOrder).toBe(false);
  });
  it('given no CAN_CREATE_TRF, then hidden; given no excluded account configured, then any account', () => {
    expect(requisitionActions(submitted(), ctx()).subsequentOrder).toBe(false);
    const open = {
      ...ctx('CAN_CREATE_TRF'),
      subsequentOrder: { ...subsequentOrder, excludedAccountId: null },
    };
    expect(requisitionActions(submitted({ accountId: null }), open).subsequentOrder).toBe(true);
  });
});

describe('mergeTrfProblem (Merge TRF, spec 2 sections 5 and 6)', () => {
  it('allows a submitted form without a cancelled test, refuses the rest with the reason', () => {
    expect(mergeTrfProblem({ status: 'SUBMITTED', testStatuses: ['IN_PROGRESS'] })).toBeNull();
    expect(mergeTrfProblem({ status: 'DRAFT', testStatuses: [] })).toBe(
      'Only submitted requisitions can be merged.',
    );
    expect(mergeTrfProblem({ status: 'SUBMITTED', deleted: true, testStatuses: [] })).toMatch(/submitted/);
    expect(mergeTrfProblem({ status: 'SUBMITTED', testStatuses: ['REPORT_COMPLETE', 'CANCELLED'] })).toBe(
      'A requisition with a cancelled test cannot be merged.',
    );
  });
});
