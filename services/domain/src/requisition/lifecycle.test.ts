import { describe, expect, it } from 'vitest';
import {
  approvalsAfterSave,
  displayNameOf,
  signedBlocksChanged,
  signedFieldsChanged,
  SIGNED_BLOCKS,
} from './lifecycle';
import { completeForm } from './test-fixtures';

const approval = { approvedBy: { id: 'u1', name: 'Dr. One' }, createdOn: '2026-11-20T10:00:00.000Z' };

describe('approval invalidation: what a signature covers', () => {
  it('given a signed draft, when it is saved back unchanged, then the approval stays', () => {
    const form = completeForm();
    expect(signedBlocksChanged(form, structuredClone(form))).toEqual([]);
    expect(approvalsAfterSave([approval], form, structuredClone(form))).toEqual([approval]);
  });

  it('given a signed draft, when a covered field changes, then the approval is removed', () => {
    const form = completeForm();
    const after = { ...form, patient: { ...form.patient, firstName: 'Augusta' } };
    expect(signedBlocksChanged(form, after)).toEqual(['patient']);
    expect(approvalsAfterSave([approval], form, after)).toEqual([]);
  });

  it.each(SIGNED_BLOCKS)('a change of %s counts', (block) => {
    const form = completeForm() as Record<string, unknown>;
    const after = { ...form, [block]: { changed: 'yes' } };
    expect(signedBlocksChanged(form, after)).toEqual([block]);
  });

  it('null, undefined, empty text, empty lists and empty objects are the same "nothing"', () => {
    const before = { comment: null, tumorSpecimen: { currentTherapies: [], stage: '' }, kitId: undefined };
    const after = { comment: '', tumorSpecimen: { stage: null }, kitId: null, pathologist: {} };
    expect(signedBlocksChanged(before, after)).toEqual([]);
  });

  it('scalars compare by their text and object keys by name (a number typed as text is the same content)', () => {
    expect(
      signedBlocksChanged(
        { tumorSpecimen: { content: 40, stage: 'III' } },
        { tumorSpecimen: { stage: 'III', content: '40' } },
      ),
    ).toEqual([]);
    expect(
      signedBlocksChanged({ tumorSpecimen: { content: 40 } }, { tumorSpecimen: { content: 45 } }),
    ).toEqual(['tumorSpecimen']);
  });

  it("a billing's server fields (id, audit, version, canonical numbers) are not content; its typed fields are", () => {
    const stored = [
      {
        id: 'b1',
        billingType: 'INSURANCE',
        policyNumber: 'ab-1',
        canonicalPolicyNumber: 'AB1',
        createdOn: new Date('2026-11-01T00:00:00Z'),
        version: 3,
      },
    ];
    const resent = [{ billingType: 'INSURANCE', policyNumber: 'ab-1' }];
    expect(signedBlocksChanged({ billings: stored }, { billings: resent })).toEqual([]);
    expect(
      signedBlocksChanged({ billings: stored }, { billings: [{ ...resent[0], policyNumber: 'ab-2' }] }),
    ).toEqual(['billings']);
    expect(signedBlocksChanged({ billings: stored }, { billings: [...resent, resent[0]] })).toEqual([
      'billings',
    ]);
  });

  it('blocks outside the signature (review status, attachments, approvals, progress) never count', () => {
    const form = completeForm() as Record<string, unknown>;
    const after: Record<string, unknown> = {
      ...form,
      clinicalReviewStatus: 'DISQUALIFIED',
      attachments: [{ id: 'a1' }],
      approvals: [],
      currentStep: 4,
    };
    expect(signedBlocksChanged(form, after)).toEqual([]);
  });

  it('no approvals: nothing to remove', () => {
    const form = completeForm();
    expect(approvalsAfterSave([], form, { ...form, comment: 'x' })).toEqual([]);
  });
});

describe('display names', () => {
  it('the stored name first, else "First Last", else null', () => {
    expect(displayNameOf({ name: ' Ada Lovelace ', firstName: 'A' })).toBe('Ada Lovelace');
    expect(displayNameOf({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
    expect(displayNameOf({ lastName: 'Lovelace' })).toBe('Lovelace');
    expect(displayNameOf({ name: '' })).toBeNull();
    expect(displayNameOf(null)).toBeNull();
  });
});

describe('signedFieldsChanged: what an edit of the form changed, field by field', () => {
  it('names each changed field by its dotted path, in block order; an unchanged form names none', () => {
    const before = {
      patient: { firstName: 'Ada', lastName: 'Lovelace', phone: '6195550100' },
      tumorSpecimen: { stage: 'II', drugName: 'Tamoxifen', content: 40 },
      billings: [{ id: 'b1', billingType: 'INSURANCE', policyNumber: 'P-1', updatedOn: '2026-01-01' }],
    };
    const after = {
      patient: { firstName: 'Ada', lastName: 'Lovelace', phone: '6195550199' },
      tumorSpecimen: { stage: 'III', drugName: 'Tamoxifen', content: '40' },
      billings: [{ id: 'b1', billingType: 'INSURANCE', policyNumber: 'P-2', updatedOn: '2026-11-28' }],
    };
    expect(signedFieldsChanged(before, after)).toEqual([
      'patient.phone',
      'tumorSpecimen.stage',
      'billings.0.policyNumber',
    ]);
    expect(signedFieldsChanged(before, structuredClone(before))).toEqual([]);
  });

  it('a field given or cleared is a change; empty values are one value', () => {
    expect(signedFieldsChanged({ tumorSpecimen: { stage: null } }, { tumorSpecimen: { stage: '' } })).toEqual(
      [],
    );
    expect(signedFieldsChanged({ tumorSpecimen: null }, { tumorSpecimen: { stage: 'IV' } })).toEqual([
      'tumorSpecimen.stage',
    ]);
    expect(signedFieldsChanged({ comment: 'a' }, { comment: null })).toEqual(['comment']);
  });
});
