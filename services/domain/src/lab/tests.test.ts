import { describe, expect, it } from 'vitest';
import {
  dueDateError,
  reportStatus,
  reportUploadError,
  testActions,
  testStatusChangeError,
  testStatusOptions,
  testTimeline,
  TEST_STATUS_CHOICES,
} from './tests';

describe('test status options (spec 2 section 4)', () => {
  it('offers every status except TEST_SELECTED', () => {
    expect(TEST_STATUS_CHOICES).not.toContain('TEST_SELECTED');
    expect(TEST_STATUS_CHOICES).toHaveLength(9);
  });

  it('disables the first selected test own status when it is a working status', () => {
    const disabled = (s: Parameters<typeof testStatusOptions>[0]) =>
      testStatusOptions(s)
        .filter((o) => o.disabled)
        .map((o) => o.status);
    expect(disabled('IN_PROGRESS')).toEqual(['IN_PROGRESS']);
    expect(disabled('AMENDMENT_AWAITING')).toEqual(['AMENDMENT_AWAITING']);
    expect(disabled('REPORT_COMPLETE')).toEqual([]);
    expect(disabled(null)).toEqual([]);
  });

  it('refuses TEST_SELECTED and a working status set again, allows the rest', () => {
    expect(testStatusChangeError('TEST_ORDERED', 'TEST_SELECTED')).toMatch(/TEST_SELECTED/);
    expect(testStatusChangeError('IN_PROGRESS', 'IN_PROGRESS')).toMatch(/already IN_PROGRESS/);
    expect(testStatusChangeError('TEST_ORDERED', 'IN_PROGRESS')).toBeNull();
    expect(testStatusChangeError('CANCELLED', 'CANCELLED')).toBeNull();
  });
});

describe('reports', () => {
  it('sets the status from the flags, amended first', () => {
    expect(reportStatus({})).toBe('REPORT_COMPLETE');
    expect(reportStatus({ tnp: true })).toBe('TNP_REPORT_COMPLETE');
    expect(reportStatus({ amended: true, tnp: true })).toBe('REPORT_AMENDED');
  });

  it('refuses a report for a cancelled or not yet started test', () => {
    expect(reportUploadError('CANCELLED')).toMatch(/cancelled/);
    expect(reportUploadError('TEST_ORDERED')).toMatch(/TEST_ORDERED/);
    expect(reportUploadError('IN_PROGRESS')).toBeNull();
    expect(reportUploadError('REPORT_COMPLETE')).toBeNull();
  });
});

describe('due dates (at most 30 days ahead)', () => {
  it('accepts none, today, the past and day 30; refuses day 31 and bad dates', () => {
    expect(dueDateError(null, '2026-11-23')).toBeNull();
    expect(dueDateError('2026-11-23', '2026-11-23')).toBeNull();
    expect(dueDateError('2026-11-01', '2026-11-23')).toBeNull();
    expect(dueDateError('2026-12-23', '2026-11-23')).toBeNull();
    expect(dueDateError('2026-12-24', '2026-11-23')).toBe('The due date can be at most 30 days from today.');
    expect(dueDateError('12/01/2026', '2026-11-23')).toBe('Enter a valid date (MM/DD/YYYY).');
  });
});

describe('test actions (spec 2 section 6)', () => {
  const lab = { permissions: ['VIEW_TESTORDER_ACTIONS', 'CAN_UPDATE_DUE_DATE'] };
  it('needs the permissions', () => {
    expect(testActions(['IN_PROGRESS'], { permissions: [] })).toEqual({
      updateStatus: false,
      uploadReport: false,
      updateDueDate: false,
      updateLimsProjectId: false,
    });
  });
  it('Update Status needs an open test, Upload Report exactly one reportable, Due Date exactly one', () => {
    expect(testActions(['IN_PROGRESS'], lab)).toMatchObject({ updateStatus: true, uploadReport: true });
    expect(testActions(['CANCELLED'], lab)).toMatchObject({ updateStatus: false, uploadReport: false });
    expect(testActions(['IN_PROGRESS', 'TEST_ORDERED'], lab)).toMatchObject({
      updateStatus: true,
      uploadReport: false,
      updateDueDate: false,
    });
    expect(testActions(['IN_PROGRESS'], { ...lab, draft: true }).updateStatus).toBe(false);
  });
});

describe('the test timeline (9 steps)', () => {
  const at = (m: number) => new Date(Date.UTC(2026, 0, 1, 0, m));
  const h = (status: Parameters<typeof testTimeline>[0][number]['status'], m: number) => ({
    status,
    createdOn: at(m),
    updatedOn: at(m),
  });

  it('shows the normal path with exception steps hidden while ordered', () => {
    const steps = testTimeline([h('TEST_ORDERED', 1)]);
    expect(steps.map((s) => s.status)).toEqual(['TEST_ORDERED', 'IN_PROGRESS', 'REPORT_COMPLETE']);
    expect(steps[0]).toMatchObject({ complete: true, current: true });
    expect(steps[1]).toMatchObject({ complete: false, current: false });
  });

  it('after TNP awaiting replacement hides report complete, shows the exception step done', () => {
    const steps = testTimeline([h('TEST_ORDERED', 1), h('IN_PROGRESS', 2), h('TNP_AWAITING_REPLACEMENT', 3)]);
    expect(steps.map((s) => s.status)).toEqual(['TEST_ORDERED', 'IN_PROGRESS', 'TNP_AWAITING_REPLACEMENT']);
    expect(steps.at(-1)).toMatchObject({ current: true, on: at(3).toISOString() });
  });

  it('an amended report shows the amendment path; a completed step stays shown', () => {
    const steps = testTimeline([
      h('TEST_ORDERED', 1),
      h('IN_PROGRESS', 2),
      h('REPORT_COMPLETE', 3),
      h('AMENDMENT_AWAITING', 4),
      h('REPORT_AMENDED', 5),
    ]);
    expect(steps.map((s) => s.status)).toEqual([
      'TEST_ORDERED',
      'IN_PROGRESS',
      'REPORT_COMPLETE',
      'AMENDMENT_AWAITING',
      'REPORT_AMENDED',
    ]);
    expect(steps.every((s) => s.complete)).toBe(true);
  });

  it('a step is complete only when its latest entry has an updatedOn', () => {
    const steps = testTimeline([
      h('TEST_ORDERED', 1),
      { status: 'IN_PROGRESS', createdOn: at(2), updatedOn: null },
    ]);
    expect(steps.find((s) => s.status === 'IN_PROGRESS')).toMatchObject({ complete: false, current: true });
  });

  it('cancelled shows Canceled and hides the report steps not reached', () => {
    expect(testTimeline([h('TEST_ORDERED', 1), h('CANCELLED', 2)]).map((s) => s.status)).toEqual([
      'TEST_ORDERED',
      'CANCELLED',
    ]);
    const late = testTimeline([h('TEST_ORDERED', 1), h('IN_PROGRESS', 2), h('CANCELLED', 3)]);
    expect(late.map((s) => s.status)).toEqual(['TEST_ORDERED', 'IN_PROGRESS', 'CANCELLED']);
  });
});
