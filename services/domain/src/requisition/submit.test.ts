import { describe, expect, it } from 'vitest';
import {
  canAddIcd10Code,
  clinicalReviewStatusOnSubmit,
  removesDueDates,
  searchTermApplies,
  SUBSEQUENT_ORDER_DEFAULTS,
  summaryEditLinks,
} from './submit';

describe('clinical review on submit', () => {
  it('given reviewDiagnosis and a NEXT_DX order, when submitted, then NEEDS_REVIEW', () => {
    expect(
      clinicalReviewStatusOnSubmit({
        tumorSpecimen: { reviewDiagnosis: true },
        orderInformation: { nextDx: true },
      }),
    ).toBe('NEEDS_REVIEW');
  });
  it('given no review asked or no NEXT_DX order, then the status is kept', () => {
    expect(
      clinicalReviewStatusOnSubmit({
        tumorSpecimen: { reviewDiagnosis: false },
        orderInformation: { nextDx: true },
      }),
    ).toBeNull();
    expect(
      clinicalReviewStatusOnSubmit({
        tumorSpecimen: { reviewDiagnosis: true },
        orderInformation: { nextPersonalDx: true },
        clinicalReviewStatus: 'IN_PROGRESS',
      }),
    ).toBe('IN_PROGRESS');
  });
  it('given DISQUALIFIED, when saved, then the due dates are removed', () => {
    expect(removesDueDates({ clinicalReviewStatus: 'DISQUALIFIED' })).toBe(true);
    expect(removesDueDates({ clinicalReviewStatus: 'NEEDS_REVIEW' })).toBe(false);
  });
  it('a subsequent order is TEST_ORDERED with the one-click comment', () => {
    expect(SUBSEQUENT_ORDER_DEFAULTS).toEqual({
      testStatus: 'TEST_ORDERED',
      comment: 'Subsequent order created via the one-click order button',
    });
  });
});

describe('pickers', () => {
  it('search applies at 3 or more characters', () => {
    expect(['', 'ab', ' ab ', null].map(searchTermApplies)).toEqual([false, false, false, false]);
    expect(searchTermApplies('abc')).toBe(true);
  });
  it('ICD-10 add is disabled at 6 selected codes', () => {
    expect(canAddIcd10Code(['a', 'b', 'c', 'd', 'e'])).toBe(true);
    expect(canAddIcd10Code(['a', 'b', 'c', 'd', 'e', 'f'])).toBe(false);
    expect(canAddIcd10Code('A,B,C,D,E,F')).toBe(false);
    expect(canAddIcd10Code(null)).toBe(true);
  });
});

describe('summary Edit links', () => {
  it('given a draft, then every section links to its step', () => {
    expect(summaryEditLinks('DRAFT', [])).toEqual({
      testSelection: 'patient',
      patient: 'patient',
      provider: 'provider',
      pathologist: 'pathology',
      specimen: 'specimen',
      attachments: 'attachments',
      additionalProvider: 'additionalProvider',
    });
  });
  it('given a submitted order, then only Attachments; Specimen too with CAN_REVIEW_DIAGNOSIS', () => {
    const links = summaryEditLinks('SUBMITTED', []);
    expect(Object.entries(links).filter(([, v]) => v)).toEqual([['attachments', 'attachments']]);
    expect(summaryEditLinks('SUBMITTED', ['CAN_REVIEW_DIAGNOSIS']).specimen).toBe('specimen');
  });
});
