import { describe, expect, it } from 'vitest';
import { BILLING_CASE_STATUSES } from '../enums';
import { permissionsOf } from '../permissions';
import {
  BILLING_ERROR_STATUSES,
  billingStatusGroup,
  CLOSED_CASE_STATUSES,
  IN_FLIGHT_CASE_STATUSES,
  statusChangeNeedsReason,
  billingStatusOptions,
  billingStatusUpdateError,
  cancelledCaseStatus,
  caseActionError,
  canSubmitCase,
  isBillingErrorStatus,
  NOT_SUBMITTABLE_CASE_STATUSES,
  qualification,
  submitCaseProblems,
  timePointError,
  type SubmitCaseInput,
} from './cases';

const ready: SubmitCaseInput = {
  caseStatus: 'READY_TO_SUBMIT',
  testStatus: 'REPORT_COMPLETE',
  reviewStatus: 'REVIEW_COMPLETE',
  billingCode: '81455',
};

describe('Submit to billing (spec 3 section 4.3)', () => {
  it('is allowed for a reported, reviewed case with a code in a submittable status', () => {
    expect(canSubmitCase(ready)).toBe(true);
    expect(canSubmitCase({ ...ready, testStatus: 'REPORT_AMENDED' })).toBe(true);
    for (const s of ['NOT_SUBMITTED', 'REJECTED_BY_XIFIN', 'RETRY_FAILED', 'PAYOR_SYSTEM_DOWN'] as const)
      expect(canSubmitCase({ ...ready, caseStatus: s }), s).toBe(true);
  });

  it('is refused in the eleven listed statuses and the three of a submission in flight, allowed in every other', () => {
    expect(NOT_SUBMITTABLE_CASE_STATUSES).toHaveLength(14);
    expect(NOT_SUBMITTABLE_CASE_STATUSES).toEqual(
      expect.arrayContaining(['RETRY_SCHEDULED', 'RETRY_IN_PROGRESS', 'RETRY_SUCCEEDED']),
    );
    expect(NOT_SUBMITTABLE_CASE_STATUSES).not.toContain('RETRY_FAILED');
    for (const s of BILLING_CASE_STATUSES)
      expect(canSubmitCase({ ...ready, caseStatus: s }), s).toBe(!NOT_SUBMITTABLE_CASE_STATUSES.includes(s));
  });

  it('is refused without a report, a completed billing review or a billing code, with the reasons', () => {
    expect(canSubmitCase({ ...ready, testStatus: 'IN_PROGRESS' })).toBe(false);
    expect(canSubmitCase({ ...ready, testStatus: 'TNP_REPORT_COMPLETE' })).toBe(false);
    expect(canSubmitCase({ ...ready, reviewStatus: 'NEEDS_REVIEW' })).toBe(false);
    expect(canSubmitCase({ ...ready, reviewStatus: null })).toBe(false);
    expect(canSubmitCase({ ...ready, billingCode: null })).toBe(false);
    expect(canSubmitCase({ ...ready, billingCode: '  ' })).toBe(false);
    expect(
      submitCaseProblems({ caseStatus: 'CANCELLED', testStatus: null, reviewStatus: null, billingCode: '' }),
    ).toEqual([
      'A billing case in status CANCELLED cannot be submitted.',
      'The test has no complete or amended report yet.',
      'The billing review is not REVIEW_COMPLETE.',
      'The billing case has no billing code.',
    ]);
  });
});

describe('error statuses and Update Billing Status', () => {
  it('links the five error statuses to the details modal', () => {
    expect([...BILLING_ERROR_STATUSES].sort()).toEqual(
      [
        'DUPLICATE_ACCESSION',
        'PARTIALLY_ACCEPTED',
        'PAYOR_SYSTEM_DOWN',
        'REJECTED_BY_XIFIN',
        'UPDATE_NOT_ALLOWED',
      ].sort(),
    );
    expect(isBillingErrorStatus('REJECTED_BY_XIFIN')).toBe(true);
    expect(isBillingErrorStatus('ACCEPTED_BY_XIFIN')).toBe(false);
    expect(isBillingErrorStatus(null)).toBe(false);
  });

  it('FIXED_IN_XIFIN only from PARTIALLY_ACCEPTED or DUPLICATE_ACCESSION, with the billing actions alone', () => {
    const staff = ['VIEW_BILLING_ACTIONS'];
    expect(billingStatusUpdateError('PARTIALLY_ACCEPTED', 'FIXED_IN_XIFIN', staff)).toBeNull();
    expect(billingStatusUpdateError('DUPLICATE_ACCESSION', 'FIXED_IN_XIFIN', staff)).toBeNull();
    expect(billingStatusUpdateError('REJECTED_BY_XIFIN', 'FIXED_IN_XIFIN', staff)).toMatch(/only from/);
    expect(billingStatusUpdateError('PARTIALLY_ACCEPTED', 'ACCEPTED_BY_XIFIN', staff)).toMatch(
      /only be updated to/,
    );
    expect(billingStatusOptions(['PARTIALLY_ACCEPTED', 'DUPLICATE_ACCESSION'], staff)).toEqual([
      'FIXED_IN_XIFIN',
    ]);
    expect(billingStatusOptions(['PARTIALLY_ACCEPTED', 'REJECTED_BY_XIFIN'], staff)).toEqual([]);
    expect(billingStatusOptions([], staff)).toEqual([]);
  });

  it('BILLING_COMPLETE, RETIRED_FROM_BILLING and ON_HOLD_EXTERNAL need CAN_CLOSE_BILLING_CASES and a reason', () => {
    const closer = permissionsOf('ROLE_ADMINISTRATOR');
    expect(closer).toContain('CAN_CLOSE_BILLING_CASES');
    expect(
      billingStatusUpdateError('ACCEPTED_BY_XIFIN', 'BILLING_COMPLETE', ['VIEW_BILLING_ACTIONS'], 'paid'),
    ).toBe('Only users with CAN_CLOSE_BILLING_CASES may set Billing Status to BILLING_COMPLETE.');
    expect(billingStatusUpdateError('ACCEPTED_BY_XIFIN', 'BILLING_COMPLETE', closer, ' ')).toBe(
      'A reason is required to set Billing Status to BILLING_COMPLETE.',
    );
    expect(
      billingStatusUpdateError('ACCEPTED_BY_XIFIN', 'BILLING_COMPLETE', closer, 'Paid in full'),
    ).toBeNull();
    expect(billingStatusUpdateError('REJECTED_BY_XIFIN', 'BILLING_COMPLETE', closer, 'x')).toBe(
      'Billing Status cannot be set to BILLING_COMPLETE from REJECTED_BY_XIFIN.',
    );
    // retire: from anything but a submission in flight or a closed case
    for (const s of BILLING_CASE_STATUSES) {
      const allowed = !IN_FLIGHT_CASE_STATUSES.includes(s) && !CLOSED_CASE_STATUSES.includes(s);
      expect(billingStatusUpdateError(s, 'RETIRED_FROM_BILLING', closer, 'write-off') === null, s).toBe(
        allowed,
      );
    }
    expect(billingStatusUpdateError('RETRY_FAILED', 'ON_HOLD_EXTERNAL', closer, 'payor review')).toBeNull();
    expect(billingStatusUpdateError('SUBMITTED_TO_XIFIN', 'ON_HOLD_EXTERNAL', closer, 'x')).not.toBeNull();
    expect(statusChangeNeedsReason('ON_HOLD_EXTERNAL')).toBe(true);
    expect(statusChangeNeedsReason('FIXED_IN_XIFIN')).toBe(false);
    expect(billingStatusOptions(['ACCEPTED_BY_XIFIN'], closer)).toEqual([
      'BILLING_COMPLETE',
      'RETIRED_FROM_BILLING',
    ]);
    expect(billingStatusOptions(['PARTIALLY_ACCEPTED'], closer)).toEqual([
      'FIXED_IN_XIFIN',
      'RETIRED_FROM_BILLING',
      'ON_HOLD_EXTERNAL',
    ]);
    // a held case may be submitted again (spec 3 section 4.3 does not refuse it)
    expect(canSubmitCase({ ...ready, caseStatus: 'ON_HOLD_EXTERNAL' })).toBe(true);
  });

  it('groups the statuses as the case list displays them: COMPLETED, ERROR, FAILED', () => {
    expect(billingStatusGroup('BILLING_COMPLETE')).toBe('COMPLETED');
    expect(billingStatusGroup('ACCEPTED_BY_XIFIN')).toBe('COMPLETED');
    expect(billingStatusGroup('REJECTED_BY_XIFIN')).toBe('ERROR');
    expect(billingStatusGroup('DOC_UPLOAD_PARTIAL')).toBe('ERROR');
    expect(billingStatusGroup('RETRY_FAILED')).toBe('FAILED');
    expect(billingStatusGroup('DOC_UPLOAD_FAILED')).toBe('FAILED');
    expect(billingStatusGroup('READY_TO_SUBMIT')).toBeNull();
    expect(billingStatusGroup(null)).toBeNull();
  });

  it('updates the timepoint only of a reported subsequent order', () => {
    expect(timePointError({ orderType: 'SUBSEQUENT_ORDER', testStatus: 'REPORT_AMENDED' })).toBeNull();
    expect(timePointError({ orderType: 'INITIAL_ORDER', testStatus: 'REPORT_COMPLETE' })).not.toBeNull();
    expect(timePointError({ orderType: 'SUBSEQUENT_ORDER', testStatus: 'IN_PROGRESS' })).not.toBeNull();
  });
});

describe('qualification and cancellation (decisions)', () => {
  const now = new Date('2026-01-02T03:04:05Z');
  it('given a NOT_SUBMITTED case, when it qualifies, then it is READY_TO_SUBMIT with the date', () => {
    expect(qualification({ ...ready, caseStatus: 'NOT_SUBMITTED' }, now)).toEqual({
      caseStatus: 'READY_TO_SUBMIT',
      caseQualifiedDate: now,
    });
    expect(qualification({ ...ready, caseStatus: 'NOT_SUBMITTED', billingCode: null }, now)).toEqual({});
  });

  it('given a READY_TO_SUBMIT case, when it no longer qualifies, then it is NOT_SUBMITTED again', () => {
    expect(qualification({ ...ready, reviewStatus: 'NEEDS_ATTENTION' }, now)).toEqual({
      caseStatus: 'NOT_SUBMITTED',
      caseQualifiedDate: null,
    });
    expect(qualification(ready, now)).toEqual({});
  });

  it('never touches a status of the submission', () => {
    expect(qualification({ ...ready, caseStatus: 'REJECTED_BY_XIFIN' }, now)).toEqual({});
    expect(qualification({ ...ready, caseStatus: 'SUBMITTED_TO_XIFIN', billingCode: null }, now)).toEqual({});
  });

  it('cancels a case unless it is closed or accepted at the billing system', () => {
    expect(cancelledCaseStatus('NOT_SUBMITTED')).toBe('CANCELLED');
    expect(cancelledCaseStatus('REJECTED_BY_XIFIN')).toBe('CANCELLED');
    expect(cancelledCaseStatus('ACCEPTED_BY_XIFIN')).toBeNull();
    expect(cancelledCaseStatus('CANCELLED')).toBeNull();
  });
});

describe('billing actions on a case (decision)', () => {
  it('refuses code and timepoint changes on closed or in-flight cases', () => {
    expect(caseActionError('NOT_SUBMITTED')).toBeNull();
    expect(caseActionError('REJECTED_BY_XIFIN')).toBeNull();
    expect(caseActionError('SUBMITTED_TO_XIFIN')).toBe(
      'The billing case is SUBMITTED_TO_XIFIN and cannot be changed.',
    );
    expect(caseActionError('CANCELLED')).not.toBeNull();
  });
});
