import { describe, expect, it } from 'vitest';
import {
  canStartOrder,
  csvAllowed,
  deleteColumnShown,
  deletedToggleShown,
  diagnosisText,
  enumLabel,
  initialTab,
  locationText,
  ordersBaseFilter,
  rowActions,
  rowTarget,
  testProgress,
  testsText,
  trfAttachments,
  type RequisitionRow,
} from './logic';

const row = (over: Partial<RequisitionRow> = {}): RequisitionRow => ({
  id: 'r1',
  status: 'SUBMITTED',
  testOrders: [{ id: 't1', testType: 'NEXT_DX', orderType: 'INITIAL_ORDER', status: 'CANCELLED' }],
  sampleStatuses: [],
  ...over,
});

describe('orders list rules', () => {
  it('opens on Submitted only when a review status came in navigation state', () => {
    expect(initialTab(undefined)).toBe('DRAFT');
    expect(initialTab({})).toBe('DRAFT');
    expect(initialTab({ reviewStatus: 'NEEDS_REVIEW' })).toBe('SUBMITTED');
  });

  it('filters by tab, deleted toggle and review status', () => {
    expect(ordersBaseFilter('DRAFT', { includeDeleted: true, reviewStatus: 'X' })).toEqual({
      status: ['DRAFT'],
    });
    expect(ordersBaseFilter('SUBMITTED')).toEqual({ status: ['SUBMITTED', 'INVALID'] });
    expect(ordersBaseFilter('SUBMITTED', { includeDeleted: true, reviewStatus: 'NEEDS_REVIEW' })).toEqual({
      status: ['SUBMITTED', 'INVALID'],
      deleted: 'in(true,false)',
      clinicalReviewStatus: ['NEEDS_REVIEW'],
    });
  });

  it('opens a draft in the wizard and a submitted one in its summary', () => {
    expect(rowTarget({ id: 'a b', status: 'DRAFT' })).toBe('/order/a%20b');
    expect(rowTarget({ id: 'x', status: 'SUBMITTED' })).toBe('/order/x/summary/patient');
  });

  it('CSV needs CAN_DOWNLOAD_CSV and never on Draft; Delete column needs CAN_DELETE_TRF on Submitted', () => {
    expect(csvAllowed('DRAFT', ['CAN_DOWNLOAD_CSV'])).toBe(false);
    expect(csvAllowed('SUBMITTED', ['CAN_DOWNLOAD_CSV'])).toBe(true);
    expect(csvAllowed('SUBMITTED', [])).toBe(false);
    expect(deleteColumnShown('SUBMITTED', ['CAN_DELETE_TRF'])).toBe(true);
    // drafts: a Delete column for who may create or delete requisitions; the toggle only on Submitted
    expect(deleteColumnShown('DRAFT', ['CAN_CREATE_TRF'])).toBe(true);
    expect(deleteColumnShown('DRAFT', [])).toBe(false);
    expect(deletedToggleShown('DRAFT', ['CAN_DELETE_TRF'])).toBe(false);
    expect(deletedToggleShown('SUBMITTED', ['CAN_DELETE_TRF'])).toBe(true);
    expect(deleteColumnShown('SUBMITTED', [])).toBe(false);
  });

  it('observers cannot start an order', () => {
    expect(canStartOrder('ROLE_OBSERVER')).toBe(false);
    expect(canStartOrder('ROLE_PHYSICIAN')).toBe(true);
  });

  it('row delete follows the domain rule', () => {
    expect(rowActions(row(), ['CAN_DELETE_TRF']).delete).toBe(true);
    expect(rowActions(row({ sampleStatuses: ['ON_HOLD'] }), ['CAN_DELETE_TRF']).delete).toBe(false);
    expect(rowActions(row(), []).delete).toBe(false);
    expect(rowActions(row({ deleted: true }), ['CAN_DELETE_TRF']).delete).toBe(false);
    const active = row({ testOrders: [{ id: 't', testType: 'NEXT_DX', status: 'IN_PROGRESS' }] });
    expect(rowActions(active, ['CAN_DELETE_TRF']).delete).toBe(false);
  });

  it('shapes the cells', () => {
    expect(enumLabel('REPORT_COMPLETE')).toBe('Report Complete');
    expect(enumLabel('NEXT_PERSONAL_DX')).toBe('NeXT Personal Dx');
    expect(enumLabel(null)).toBe('');
    expect(diagnosisText({ diagnosis: 'OTHER', otherDiagnosis: 'Sarcoma' })).toBe('Other (Sarcoma)');
    expect(diagnosisText({ diagnosis: 'BREAST' })).toBe('Breast');
    expect(locationText({ name: 'Main', address: { city: 'Austin' } })).toBe('Main, Austin');
    expect(testsText([{ id: '1', testType: 'NEXT_DX', status: 'TEST_ORDERED' }])).toBe(
      'NeXT Dx (Test Ordered)',
    );
    expect(
      trfAttachments({
        attachments: [
          { id: '1', name: 'TRF-1.pdf', type: 'TRF' },
          { id: '2', name: 'note.pdf', type: 'NOTE' },
        ],
      }),
    ).toEqual(['TRF-1.pdf']);
  });

  it('counts the summary progress', () => {
    expect(
      testProgress([
        { status: 'TEST_ORDERED' },
        { status: 'IN_PROGRESS' },
        { status: 'AMENDMENT_AWAITING' },
        { status: 'REPORT_COMPLETE' },
        { status: 'REPORT_AMENDED' },
        { status: 'CANCELLED' },
        { status: 'TEST_SELECTED' },
      ]),
    ).toEqual({ ordered: 1, inProgress: 2, complete: 2 });
  });
});
