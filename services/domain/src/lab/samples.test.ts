import { describe, expect, it } from 'vitest';
import {
  copySamplesError,
  defaultSampleStatus,
  domainPreferenceKey,
  proceedAllowed,
  sampleActions,
  sampleDisplayName,
  sampleDateWindow,
  sampleDomainOf,
  sampleSpecimenTypeOptions,
  sampleStatusError,
  sampleStatusOptions,
  sampleTypeOffered,
  sampleTypeOptions,
  specimenTypeOffered,
  SAMPLE_MSG,
  validateSampleForm,
  workOrderNumberFor,
  type SampleForm,
  type SampleRequisition,
} from './samples';
import { NORMAL_SPECIMEN_TYPES, SPECIMEN_TYPES, TUMOR_SPECIMEN_TYPES } from '../enums';

const TODAY = '2025-06-15';
const nextDx = { testType: 'NEXT_DX', orderType: 'INITIAL_ORDER', status: 'TEST_ORDERED' } as const;
const personalInitial = {
  testType: 'NEXT_PERSONAL_DX',
  orderType: 'INITIAL_ORDER',
  status: 'TEST_ORDERED',
} as const;
const personalSubsequent = {
  testType: 'NEXT_PERSONAL_DX',
  orderType: 'SUBSEQUENT_ORDER',
  status: 'TEST_ORDERED',
} as const;
const req = (over: Partial<SampleRequisition> = {}): SampleRequisition => ({
  accountId: 'acc-A',
  accountName: 'Alpha Oncology',
  testOrders: [nextDx, personalInitial],
  diagnosis: null,
  clinicalReviewStatus: null,
  ...over,
});
const cfg = { reviewAccountId: 'acc-R' };

describe('PROCEED is allowed (spec 2 section 4)', () => {
  it('given an account and tests, when the account is not the configured one, then PROCEED is allowed', () => {
    expect(proceedAllowed(req(), 'TUMOR', cfg)).toBe(true);
  });
  it('given no account or no tests, then PROCEED is not allowed', () => {
    expect(proceedAllowed(req({ accountId: null }), 'NORMAL', cfg)).toBe(false);
    expect(proceedAllowed(req({ testOrders: [] }), 'NORMAL', cfg)).toBe(false);
  });
  it('given the configured account, a tumor sample needs a diagnosis and REVIEW_COMPLETE', () => {
    const r = req({ accountId: 'acc-R' });
    expect(proceedAllowed(r, 'TUMOR', cfg)).toBe(false);
    expect(proceedAllowed({ ...r, diagnosis: 'LUNG' }, 'TUMOR', cfg)).toBe(false);
    expect(proceedAllowed({ ...r, clinicalReviewStatus: 'REVIEW_COMPLETE' }, 'TUMOR', cfg)).toBe(false);
    expect(
      proceedAllowed({ ...r, diagnosis: 'LUNG', clinicalReviewStatus: 'REVIEW_COMPLETE' }, 'TUMOR', cfg),
    ).toBe(true);
    // normal samples of that account, and other accounts, are not concerned
    expect(proceedAllowed(r, 'NORMAL', cfg)).toBe(true);
  });
  it('given a subsequent order, the diagnosis and review rule is bypassed', () => {
    expect(proceedAllowed(req({ accountId: 'acc-R', testOrders: [personalSubsequent] }), 'TUMOR', cfg)).toBe(
      true,
    );
  });
});

describe('sample status options', () => {
  it('on add: PROCEED by default when allowed, else ON_HOLD; CANCELLED never offered', () => {
    expect(defaultSampleStatus(true)).toBe('PROCEED');
    expect(defaultSampleStatus(false)).toBe('ON_HOLD');
    expect(sampleStatusOptions('add', null, true)).toEqual([
      { status: 'ON_HOLD', disabled: false },
      { status: 'PROCEED', disabled: false },
    ]);
    expect(sampleStatusOptions('add', null, false).find((o) => o.status === 'PROCEED')?.disabled).toBe(true);
    expect(sampleStatusError('add', null, 'CANCELLED', true)).toBe(SAMPLE_MSG.statusNotOffered('CANCELLED'));
  });
  it('on edit: a PROCEED or CANCELLED sample keeps its status', () => {
    const enabled = (cur: 'PROCEED' | 'CANCELLED' | 'ON_HOLD', can: boolean) =>
      sampleStatusOptions('edit', cur, can)
        .filter((o) => !o.disabled)
        .map((o) => o.status);
    expect(enabled('PROCEED', true)).toEqual(['PROCEED']);
    expect(enabled('CANCELLED', true)).toEqual(['CANCELLED']);
    expect(enabled('ON_HOLD', true)).toEqual(['ON_HOLD', 'PROCEED', 'CANCELLED']);
    expect(enabled('ON_HOLD', false)).toEqual(['ON_HOLD', 'CANCELLED']);
    expect(sampleStatusError('edit', 'PROCEED', 'ON_HOLD', true)).toBe(SAMPLE_MSG.statusLocked('PROCEED'));
    expect(sampleStatusError('edit', 'CANCELLED', 'PROCEED', true)).toBe(
      SAMPLE_MSG.statusLocked('CANCELLED'),
    );
    expect(sampleStatusError('edit', 'PROCEED', 'PROCEED', false)).toBeNull();
    expect(sampleStatusError('edit', 'ON_HOLD', 'PROCEED', false)).toBe(SAMPLE_MSG.proceedNotAllowed);
  });
  it('the work order number is WO unless PROCEED', () => {
    expect(workOrderNumberFor('ON_HOLD', 'WO-PSNL-DX')).toBe('WO');
    expect(workOrderNumberFor('CANCELLED', 'WO-PSNL-DX')).toBe('WO');
    expect(workOrderNumberFor('PROCEED', 'WO-PSNL-DX')).toBe('WO-PSNL-DX');
  });
});

describe('sample kinds and specimen types', () => {
  it('offers plasma only for subsequent orders, never for a single NEXT_DX order', () => {
    expect(sampleTypeOptions(req())).toEqual(['TUMOR', 'NORMAL']);
    expect(sampleTypeOptions(req({ testOrders: [personalSubsequent] }))).toEqual([
      'TUMOR',
      'NORMAL',
      'PLASMA',
    ]);
    expect(
      sampleTypeOptions(req({ testOrders: [{ testType: 'NEXT_DX', orderType: 'SUBSEQUENT_ORDER' }] })),
    ).toEqual(['TUMOR', 'NORMAL']);
  });
  it('excludes FRESH_FROZEN_TISSUE when a NEXT_PERSONAL_DX order exists', () => {
    expect(sampleSpecimenTypeOptions('TUMOR', req())).toEqual(['FFPE_SLIDES', 'FFPE_BLOCK']);
    expect(sampleSpecimenTypeOptions('TUMOR', req({ testOrders: [nextDx] }))).toContain(
      'FRESH_FROZEN_TISSUE',
    );
    expect(sampleSpecimenTypeOptions('NORMAL', req())).toEqual(['BLOOD', 'SALIVA', 'BUFFY_COAT']);
    expect(sampleSpecimenTypeOptions('PLASMA', req())).toEqual(['PLASMA']);
  });
});

describe('the sample form (spec 2 section 5)', () => {
  const tumor = (over: Partial<SampleForm> = {}): SampleForm => ({
    type: 'TUMOR',
    status: 'PROCEED',
    specimenId: 'SP-001_a',
    specimenType: 'FFPE_BLOCK',
    sampleSite: 'Lung',
    limsProjectId: 'LP-1',
    accessionId: 'S1 S2',
    sampleGroupId: 'SG-1',
    collectedOn: '2025-06-01',
    receivedOn: '2025-06-03',
    ...over,
  });
  const add = (form: SampleForm, r = req()) =>
    validateSampleForm(form, { mode: 'add', today: TODAY, requisition: r });

  it('accepts a complete tumor sample', () => {
    expect(add(tumor())).toEqual({});
  });
  it('requires status, specimen type, sample site (tumor), LIMS project and the dates', () => {
    const errors = add({ type: 'TUMOR' });
    for (const f of [
      'specimenId',
      'status',
      'specimenType',
      'sampleSite',
      'limsProjectId',
      'collectedOn',
      'receivedOn',
    ])
      expect(errors[f], f).toBe('This field is required');
    const normal = add({ type: 'NORMAL' });
    expect(normal.specimenId).toBeUndefined();
    expect(normal.sampleSite).toBeUndefined();
  });
  it('checks the specimen # pattern and locks it on edit', () => {
    expect(add(tumor({ specimenId: 'SP 1' })).specimenId).toBe('Invalid Specimen #');
    const edit = validateSampleForm(tumor({ specimenId: 'OTHER' }), {
      mode: 'edit',
      today: TODAY,
      requisition: req(),
      current: { type: 'TUMOR', status: 'ON_HOLD', specimenId: 'SP-001_a' },
    });
    expect(edit.specimenId).toBe(SAMPLE_MSG.specimenIdLocked);
  });
  it('needs the accession # and a sample group id for PROCEED', () => {
    const e = add(tumor({ accessionId: '', sampleGroupId: null }));
    expect(e.accessionId).toBe(SAMPLE_MSG.accessionRequired);
    expect(e.sampleGroupId).toBe('Sample can not be set to Proceed, SGI error');
    expect(add(tumor({ status: 'ON_HOLD', accessionId: '', sampleGroupId: null }))).toEqual({});
  });
  it('refuses dates in the future and before the window (18 years tumor, 3 months others)', () => {
    expect(add(tumor({ receivedOn: '2025-06-16' })).receivedOn).toBe('Date must be no later than 06/15/2025');
    expect(add(tumor({ collectedOn: '2007-06-14' })).collectedOn).toBe(
      'Date must be no earlier than 06/15/2007',
    );
    expect(add(tumor({ collectedOn: '2007-06-15' })).collectedOn).toBeUndefined();
    const blood = { ...tumor(), type: 'NORMAL' as const, specimenType: 'BLOOD', collectedOn: '2025-03-14' };
    expect(add(blood).collectedOn).toBe('Date must be no earlier than 03/15/2025');
    expect(add(tumor({ collectedOn: '2025-02-30' })).collectedOn).toBe('Invalid date');
  });
  it('needs collection before received; the same day only for ON_HOLD or CANCELLED', () => {
    const e = add(tumor({ collectedOn: '2025-06-05', receivedOn: '2025-06-03' }));
    expect(e.collectedOn).toBe('Collection date must be before the Received date.');
    expect(e.receivedOn).toBe('Received date must be after the Collection date.');
    expect(add(tumor({ receivedOn: '2025-06-01' })).receivedOn).toBe(
      'Received date must be after the Collection date.',
    );
    expect(add(tumor({ status: 'ON_HOLD', receivedOn: '2025-06-01' }))).toEqual({});
  });
  it('needs plasma received within 14 days of collection', () => {
    const plasma: SampleForm = {
      type: 'PLASMA',
      status: 'ON_HOLD',
      specimenType: 'PLASMA',
      limsProjectId: 'LP-1',
      collectedOn: '2025-05-20',
      receivedOn: '2025-06-04',
    };
    const sub = req({ testOrders: [personalSubsequent] });
    expect(add(plasma, sub).receivedOn).toBe(
      'Received date must be within 14 days of the Collection date for plasma samples.',
    );
    expect(add({ ...plasma, receivedOn: '2025-06-03' }, sub)).toEqual({});
    // plasma on an initial order is not offered at all
    expect(add({ ...plasma, receivedOn: '2025-06-03' }).type).toBe(SAMPLE_MSG.typeNotOffered('PLASMA'));
  });
  it('refuses a specimen type not offered and PROCEED when not allowed', () => {
    expect(add(tumor({ specimenType: 'FRESH_FROZEN_TISSUE' })).specimenType).toMatch(/not offered/);
    expect(add(tumor(), req({ testOrders: [] })).status).toBe(SAMPLE_MSG.proceedNotAllowed);
  });
});

describe('display, actions, preferences, copy', () => {
  it('cuts names to 25 characters', () => {
    expect(sampleDisplayName('short')).toBe('short');
    const cut = sampleDisplayName('A very long sample name that goes on');
    expect(cut).toHaveLength(25);
    expect(cut.endsWith('...')).toBe(true);
  });
  it('enables the actions as spec 2 section 6 says', () => {
    const base = {
      permissions: ['VIEW_SAMPLE_ACTIONS'],
      draft: false,
      deleted: false,
      testStatuses: ['TEST_ORDERED'] as const,
      typeChosen: true,
      selected: true,
      loaded: true,
    };
    expect(sampleActions(base)).toEqual({ visible: true, add: true, edit: true, copy: true });
    expect(sampleActions({ ...base, draft: true })).toMatchObject({ add: false, edit: false, copy: false });
    expect(sampleActions({ ...base, permissions: [] })).toMatchObject({ visible: false, add: false });
    expect(sampleActions({ ...base, testStatuses: ['REPORT_COMPLETE', 'CANCELLED'] }).add).toBe(false);
    expect(sampleActions({ ...base, deleted: true }).add).toBe(false);
    expect(sampleActions({ ...base, selected: false }).edit).toBe(false);
    expect(sampleActions({ ...base, loaded: false }).copy).toBe(false);
  });
  it('derives the domain preference key', () => {
    expect(sampleDomainOf('Alpha Oncology', ['PSNL', 'VA'])).toBe('PSNL');
    expect(sampleDomainOf('VA Puget Sound', ['PSNL', 'VA'])).toBe('VA');
    expect(domainPreferenceKey(req(), 'TUMOR', 'FFPE_BLOCK')).toEqual({
      domain: 'PSNL',
      testType: 'DUAL',
      orderType: 'INITIAL_ORDER',
      tissueType: 'TUMOR',
      specimenType: 'FFPE_BLOCK',
    });
    expect(domainPreferenceKey(req({ testOrders: [personalSubsequent] }), 'PLASMA', 'PLASMA')).toMatchObject({
      testType: 'NEXT_PERSONAL_DX',
      orderType: 'SUBSEQUENT_ORDER',
    });
  });
  it('refuses copying PROCEED samples to a subsequent order without its parent', () => {
    expect(
      copySamplesError({ samples: [{ status: 'PROCEED' }], targetSubsequent: true, targetParentId: null }),
    ).toBe('Samples could not be copied');
    expect(
      copySamplesError({ samples: [{ status: 'PROCEED' }], targetSubsequent: true, targetParentId: 'p' }),
    ).toBeNull();
    expect(
      copySamplesError({ samples: [{ status: 'ON_HOLD' }], targetSubsequent: true, targetParentId: null }),
    ).toBeNull();
    expect(copySamplesError({ samples: [], targetSubsequent: false, targetParentId: null })).toBe(
      SAMPLE_MSG.copyNothing,
    );
  });
});

describe('the per-sample checks without lists (a manifest runs them for every row)', () => {
  const orders = [nextDx, personalInitial, personalSubsequent];
  // every requisition of one or two tests
  const shapes = [[], ...orders.map((o) => [o]), ...orders.flatMap((a) => orders.map((b) => [a, b]))];
  const specimenTypes = [...TUMOR_SPECIMEN_TYPES, ...NORMAL_SPECIMEN_TYPES, 'SLIDE', ''];
  it('sampleTypeOffered and specimenTypeOffered answer as the option lists do', () => {
    let n = 0;
    for (const testOrders of shapes) {
      const r = req({ testOrders });
      for (const type of [...SPECIMEN_TYPES, 'OTHER' as never]) {
        expect(sampleTypeOffered(r, type), `${type} ${JSON.stringify(testOrders)}`).toBe(
          sampleTypeOptions(r).includes(type),
        );
        for (const st of specimenTypes) {
          expect(specimenTypeOffered(type, r, st), `${type}/${st}`).toBe(
            sampleSpecimenTypeOptions(type, r).includes(st),
          );
          n++;
        }
      }
    }
    expect(n).toBe(shapes.length * 4 * specimenTypes.length);
  });
  it('sampleDateWindow is the same window every time it is asked, for each kind and day', () => {
    expect(sampleDateWindow('TUMOR', '2025-06-15')).toEqual({ min: '2007-06-15', max: '2025-06-15' });
    expect(sampleDateWindow('NORMAL', '2025-05-31')).toEqual({ min: '2025-02-28', max: '2025-05-31' });
    expect(sampleDateWindow('PLASMA', '2025-05-31')).toEqual({ min: '2025-02-28', max: '2025-05-31' });
    for (let i = 0; i < 200; i++)
      sampleDateWindow('TUMOR', `2025-01-${String((i % 28) + 1).padStart(2, '0')}`);
    expect(sampleDateWindow('TUMOR', '2024-02-29')).toEqual({ min: '2006-02-28', max: '2024-02-29' });
  });
});
