import { describe, expect, it } from 'vitest';
import type { SampleRow, SamplesRequisition } from './api';
import {
  copySelection,
  newSampleForm,
  pageOf,
  preferenceFilter,
  rowsFor,
  sampleBody,
  sampleFormOf,
} from './logic';

const row = (id: string, type: SampleRow['type'], over: Partial<SampleRow> = {}): SampleRow =>
  ({ id, type, status: 'ON_HOLD', version: 2, limsId: `L-${id}`, copiedFrom: null, ...over }) as SampleRow;

const data = (over: Partial<SamplesRequisition> = {}): SamplesRequisition => ({
  id: 'req-1',
  testRequisitionId: 'TRF-1',
  deleted: false,
  requisition: {
    accountId: 'acc-A',
    accountName: 'Alpha',
    patient: { id: 'pat-1', name: 'Ada Lovelace', userId: 'PAT-1' },
    testOrders: [
      {
        id: 't1',
        testOrderId: 'T1',
        testType: 'NEXT_DX',
        orderType: 'INITIAL_ORDER',
        status: 'TEST_ORDERED',
        limsProjectId: 'LP-1',
      },
    ],
    diagnosis: null,
    clinicalReviewStatus: null,
  },
  domain: 'PSNL',
  ruleConfig: { reviewAccountId: null },
  sampleGroupId: 'SG-9',
  tumors: [row('a', 'TUMOR')],
  normals: [row('b', 'NORMAL'), row('c', 'NORMAL')],
  plasmas: [],
  ...over,
});

describe('samples tab logic', () => {
  it('filters by kind and pages 7 at a time', () => {
    expect(rowsFor(data(), 'NORMAL').map((r) => r.id)).toEqual(['b', 'c']);
    expect(rowsFor(data(), null).map((r) => r.id)).toEqual(['a', 'b', 'c']);
    const many = Array.from({ length: 9 }, (_, i) => i);
    expect(pageOf(many, 2, 7)).toEqual([7, 8]);
  });
  it('starts a new sample PROCEED when allowed, with the group and the LIMS project of the requisition', () => {
    expect(newSampleForm('TUMOR', data())).toMatchObject({
      status: 'PROCEED',
      sampleGroupId: 'SG-9',
      limsProjectId: 'LP-1',
    });
    const noTests = data({ requisition: { ...data().requisition, testOrders: [] } });
    expect(newSampleForm('TUMOR', noTests).status).toBe('ON_HOLD');
  });
  it('sends empty texts as null, with id and version on update', () => {
    const r = row('a', 'TUMOR', { specimenId: 'S-1', trackingNumber: null });
    const body = sampleBody(sampleFormOf(r), r);
    expect(body).toMatchObject({ id: 'a', version: 2, specimenId: 'S-1', trackingNumber: null });
    expect(body).not.toHaveProperty('type');
  });
  it('builds the preference filter with the domain from the lab and groups a copy selection', () => {
    expect(preferenceFilter(data(), 'NORMAL', 'BLOOD')).toEqual({
      domain: 'PSNL',
      testType: 'NEXT_DX',
      orderType: 'INITIAL_ORDER',
      tissueType: 'NORMAL',
      specimenType: 'BLOOD',
    });
    const all = [...data().tumors, ...data().normals];
    expect(copySelection(all, ['c', 'a'])).toEqual({
      tumors: [{ id: 'a' }],
      normals: [{ id: 'c' }],
      plasmas: [],
    });
  });
});
