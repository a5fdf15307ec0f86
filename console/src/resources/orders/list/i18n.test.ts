import { describe, expect, it } from 'vitest';
import {
  ALL_ATTACHMENT_TYPES,
  ATTACHMENT_STATUSES,
  BILLING_CASE_STATUSES,
  BILLING_REVIEW_STATUSES,
  CLINICAL_REVIEW_STATUSES,
  DELIVERY_METHODS,
  DISEASE_STATUSES,
  NORMAL_SPECIMEN_TYPES,
  PATIENT_STATUSES,
  RELATIONSHIPS,
  SAMPLE_STATUSES,
  SPECIMEN_TYPES,
  TEST_STATUSES,
  TUMOR_SPECIMEN_TYPES,
} from '@onco/domain';
import { ordersZh } from './i18n';
import { enumLabel } from './logic';

const zh = ordersZh.orders.enum as Record<string, string>;

describe('enumeration labels', () => {
  // what the billing list, the Attachment Box, the test screens and the order summary show as values
  const shown = {
    BILLING_CASE_STATUSES,
    ALL_ATTACHMENT_TYPES,
    ATTACHMENT_STATUSES,
    // TEST_SELECTED too: a draft's tests show it in the orders list
    TEST_STATUSES,
    CLINICAL_REVIEW_STATUSES,
    BILLING_REVIEW_STATUSES,
    SAMPLE_STATUSES,
    SPECIMEN_TYPES,
    TUMOR_SPECIMEN_TYPES,
    NORMAL_SPECIMEN_TYPES,
    DISEASE_STATUSES,
    RELATIONSHIPS,
    PATIENT_STATUSES,
    DELIVERY_METHODS,
  };
  for (const [name, values] of Object.entries(shown))
    it(`${name}: every value reads in Chinese`, () => {
      for (const v of values) expect(zh[v], v).toMatch(/[\u4e00-\u9fff]/);
    });
  it('English: XIFIN and the requisition attachment as people write them', () => {
    expect(enumLabel('SUBMITTED_TO_XIFIN')).toBe('Submitted to XIFIN');
    expect(enumLabel('REJECTED_BY_XIFIN')).toBe('Rejected by XIFIN');
    expect(enumLabel('TRF')).toBe('Requisition');
    expect(enumLabel('SAMPLE_MANIFEST')).toBe('Sample Manifest');
    expect(DELIVERY_METHODS.map(enumLabel)).toEqual(['Email', 'Fax', 'Email and fax']);
  });
});
