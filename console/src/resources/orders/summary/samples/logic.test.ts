import { describe, expect, it } from 'vitest';
import { SAMPLE_MSG, SAMPLE_WORKFLOW_MSG } from '@onco/domain';
import { interpolate, lookupMessage } from '../../../../components/messages';
import { wizardEn, wizardZh } from '../../wizard/i18n';
import type { SampleRow, SamplesRequisition } from './api';
import { samplesEn, samplesZh } from './i18n';
import {
  copySelection,
  ignoredByWorkflow,
  newSampleForm,
  pageOf,
  preferenceFilter,
  rowsFor,
  sampleBody,
  sampleFormOf,
  sampleRuleText,
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

describe('sampleRuleText: the sample form messages in the user language', () => {
  const zhT = (key: string, values: Record<string, unknown> = {}) =>
    interpolate(lookupMessage(samplesZh, key) ?? lookupMessage(wizardZh, key) ?? key, values);
  const enT = (key: string, values: Record<string, unknown> = {}) =>
    interpolate(lookupMessage(samplesEn, key) ?? lookupMessage(wizardEn, key) ?? key, values);
  const messages = [
    SAMPLE_MSG.required,
    SAMPLE_MSG.invalidSpecimenId,
    SAMPLE_MSG.specimenIdLocked,
    SAMPLE_MSG.accessionRequired,
    SAMPLE_MSG.sgiError,
    SAMPLE_MSG.collectionBeforeReceived,
    SAMPLE_MSG.receivedAfterCollection,
    SAMPLE_MSG.plasmaWindow,
    SAMPLE_MSG.proceedNotAllowed,
    SAMPLE_MSG.typeLocked,
    SAMPLE_MSG.statusNotOffered('CANCELLED'),
    SAMPLE_MSG.statusLocked('PROCEED'),
    SAMPLE_MSG.typeNotOffered('PLASMA'),
    SAMPLE_MSG.specimenTypeNotOffered('FRESH_FROZEN_TISSUE'),
  ];
  it('English reads as the rules word them (the spec texts)', () => {
    for (const m of messages) expect(sampleRuleText(m, enT)).toBe(m);
  });
  it('Chinese: every form message is translated', () => {
    for (const m of messages) expect(sampleRuleText(m, zhT), m).toMatch(/[\u4e00-\u9fff]/);
    expect(sampleRuleText(SAMPLE_MSG.sgiError, zhT)).toBe('样本无法设为继续：缺少样本组 ID（SGI 错误）');
  });
  it('values go through the label; an unknown message (a server reason) is shown as it came', () => {
    expect(sampleRuleText(SAMPLE_MSG.statusLocked('PROCEED'), zhT, () => '继续 (P)')).toBe(
      '样本状态为 继续 (P)：其状态不能更改。',
    );
    expect(sampleRuleText('LIMS is down', zhT)).toBe('LIMS is down');
  });
});

describe('a sample the workflow ignores', () => {
  it("follows the lab's verdict; no verdict (a deleted requisition) is not ignored", () => {
    const ignored = { state: 'IGNORED', reason: 'OTHER_WORKFLOW', assigned: 'WF-NDX-TUMOR' } as const;
    expect(ignoredByWorkflow(row('a', 'TUMOR', { workflow: ignored }))).toBe(true);
    expect(
      ignoredByWorkflow(row('a', 'TUMOR', { workflow: { state: 'ADDED', reason: null, assigned: 'WF-X' } })),
    ).toBe(false);
    expect(ignoredByWorkflow(row('a', 'TUMOR', { workflow: null }))).toBe(false);
    expect(ignoredByWorkflow(row('a', 'TUMOR'))).toBe(false);
  });
  it("shows the spec's message in English and in Chinese", () => {
    expect(lookupMessage(samplesEn, 'samples.workflow.incompatible')).toBe(SAMPLE_WORKFLOW_MSG.incompatible);
    expect(SAMPLE_WORKFLOW_MSG.incompatible).toBe(
      'This sample is incompatible with the assigned workflow. Incompatible samples will not be added to the job.',
    );
    expect(lookupMessage(samplesZh, 'samples.workflow.incompatible')).toMatch(/[\u4e00-\u9fff]/);
    expect(lookupMessage(samplesZh, 'samples.workflow.ignored')).toBe('已忽略');
  });
});
